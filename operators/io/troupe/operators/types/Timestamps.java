package io.troupe.operators.types;

import io.troupe.config.TimeZones;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * TIMESTAMP, TIMESTAMP_TZ and TIME values are microseconds in a long: since 1970-01-01 00:00:00 (a local
 * date and time, or for TIMESTAMP_TZ an instant in UTC) and since midnight. The conversions here work on
 * primitives and bytes, without allocating where a kernel calls them per row (the calendar arithmetic is
 * {@link Dates}'), except where a time zone's rules must be consulted.
 *
 * <p>Text is ISO 8601 with a space, as PostgreSQL and DuckDB read and print it: {@code 2024-03-15
 * 13:45:30.5} (the fraction of a second without trailing zeros, none when whole), a time of day
 * {@code 13:45:30.5}, and an instant in a zone {@code 2024-03-15 13:45:30.5+01} (the offset's minutes and
 * seconds only where they are not zero). Parsing takes a date alone (midnight), {@code T} for the space,
 * hours and minutes without seconds, one-digit fields, up to nine digits of fraction (rounded to
 * microseconds, half up, as PostgreSQL does), and for an instant an offset ({@code Z}, {@code +02},
 * {@code +0200}, {@code -05:30}) or a zone name ({@code Europe/Amsterdam}, {@code UTC}) after a space; a
 * TIMESTAMP ignores an offset, as PostgreSQL does.
 *
 * <p>Stateless; threadsafe.
 */
public final class Timestamps {

    public static final long MICROS_PER_SECOND = 1_000_000L;
    public static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    public static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
    public static final long MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

    /** Room that any one formatted value needs (a year of 6 digits, " (BC)", a fraction, an offset). */
    public static final int MAX_TEXT_LENGTH = 48;

    private Timestamps() {
    }

    // ------------------------------------------------------------------ parts

    /** The day (days since 1970-01-01) of a timestamp. */
    public static int day(long micros) {
        return Math.toIntExact(Math.floorDiv(micros, MICROS_PER_DAY));
    }

    /** The time of day, in microseconds since midnight, of a timestamp. */
    public static long timeOfDay(long micros) {
        return Math.floorMod(micros, MICROS_PER_DAY);
    }

    /** Midnight of {@code days}. */
    public static long ofDay(int days) {
        return days * MICROS_PER_DAY;
    }

    /**
     * The timestamp of a civil date and time; fields are not checked here (see {@link #of(int, int, int, int,
     * int, long)}).
     */
    static long compose(int year, int month, int day, int hour, int minute, long secondMicros) {
        long days = Dates.days(year, month, day);
        return Math.addExact(Math.multiplyExact(days, MICROS_PER_DAY),
                hour * MICROS_PER_HOUR + minute * MICROS_PER_MINUTE + secondMicros);
    }

    /**
     * The timestamp of a civil date and time, {@code secondMicros} the seconds in microseconds.
     *
     * @throws IllegalArgumentException naming the field out of its range
     */
    public static long of(int year, int month, int day, int hour, int minute, long secondMicros) {
        checkDate(year, month, day);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || secondMicros < 0
                || secondMicros >= 60 * MICROS_PER_SECOND) {
            throw new IllegalArgumentException("time field out of range: " + hour + ":" + minute + ":"
                    + secondMicros / (double) MICROS_PER_SECOND);
        }
        return compose(year, month, day, hour, minute, secondMicros);
    }

    private static void checkDate(int year, int month, int day) {
        if (month < 1 || month > 12 || day < 1 || day > Dates.daysInMonth(year, month)) {
            throw new IllegalArgumentException("date field out of range: " + year + "-" + month + "-" + day);
        }
    }

    // ------------------------------------------------------------------ java.time

    public static long fromLocalDateTime(LocalDateTime t) {
        return compose(t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(),
                t.getSecond() * MICROS_PER_SECOND + t.getNano() / 1000);
    }

    public static LocalDateTime toLocalDateTime(long micros) {
        return LocalDateTime.of(Dates.toLocalDate(day(micros)), toLocalTime(timeOfDay(micros)));
    }

    public static long fromInstant(Instant i) {
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), MICROS_PER_SECOND), i.getNano() / 1000);
    }

    public static Instant toInstant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
                Math.floorMod(micros, MICROS_PER_SECOND) * 1000);
    }

    public static long fromLocalTime(LocalTime t) {
        return t.toNanoOfDay() / 1000;
    }

    public static LocalTime toLocalTime(long micros) {
        return LocalTime.ofNanoOfDay(micros * 1000);
    }

    /** The offset from UTC, in seconds, of {@code zone} at the instant {@code micros}. */
    public static int offsetSeconds(ZoneRules zone, long micros) {
        if (zone.isFixedOffset()) {
            return zone.getOffset(Instant.EPOCH).getTotalSeconds();
        }
        return zone.getOffset(toInstant(micros)).getTotalSeconds();
    }

    /** The local timestamp in {@code zone} of the instant {@code micros}. */
    public static long toLocal(long micros, ZoneRules zone) {
        return micros + offsetSeconds(zone, micros) * MICROS_PER_SECOND;
    }

    /**
     * The instant of the local timestamp {@code local} in {@code zone}, as PostgreSQL resolves the times a change
     * of clocks makes: one in a gap (a clock moved forward) takes the offset before the change, so that 02:30 in a
     * gap of an hour is 03:30 after it; one in an overlap (a clock moved back) takes the offset after it, the later
     * of its two instants.
     */
    public static long fromLocal(long local, ZoneRules zone) {
        if (zone.isFixedOffset()) {
            return local - zone.getOffset(Instant.EPOCH).getTotalSeconds() * MICROS_PER_SECOND;
        }
        LocalDateTime t = toLocalDateTime(local);
        java.util.List<ZoneOffset> offsets = zone.getValidOffsets(t);
        ZoneOffset offset = offsets.size() == 1 ? offsets.get(0)
                : offsets.isEmpty() ? zone.getTransition(t).getOffsetBefore() : zone.getTransition(t).getOffsetAfter();
        return local - offset.getTotalSeconds() * MICROS_PER_SECOND;
    }

    /**
     * The microseconds of a Java value of a TIMESTAMP (LocalDateTime, LocalDate for its midnight), a
     * TIMESTAMP_TZ (Instant, OffsetDateTime, ZonedDateTime) or a TIME (LocalTime), or of its text (an instant
     * without an offset in UTC).
     *
     * @throws IllegalArgumentException when the value is of another class, or text that does not parse
     */
    public static long valueOf(Object value, TypeId type) {
        if (value instanceof String s) {
            return switch (type) {
                case TIMESTAMP -> parseTimestamp(s);
                case TIMESTAMP_TZ -> parseInstant(s, ZoneOffset.UTC);
                default -> parseTime(s);
            };
        }
        switch (type) {
            case TIMESTAMP -> {
                if (value instanceof LocalDateTime t) {
                    return fromLocalDateTime(t);
                } else if (value instanceof java.time.LocalDate d) {
                    return ofDay(Dates.fromLocalDate(d));
                }
            }
            case TIMESTAMP_TZ -> {
                if (value instanceof Instant i) {
                    return fromInstant(i);
                } else if (value instanceof java.time.OffsetDateTime t) {
                    return fromInstant(t.toInstant());
                } else if (value instanceof java.time.ZonedDateTime t) {
                    return fromInstant(t.toInstant());
                }
            }
            default -> {
                if (value instanceof LocalTime t) {
                    return fromLocalTime(t);
                }
            }
        }
        throw new IllegalArgumentException("expected a value of type " + type + " (" + switch (type) {
            case TIMESTAMP -> "a LocalDateTime";
            case TIMESTAMP_TZ -> "an Instant, an OffsetDateTime or a ZonedDateTime";
            default -> "a LocalTime";
        } + "), got " + value.getClass().getSimpleName() + " '" + value + "'");
    }

    /** The Java value of microseconds of {@code type}: LocalDateTime, Instant or LocalTime. */
    public static Object toObject(long micros, TypeId type) {
        return switch (type) {
            case TIMESTAMP -> toLocalDateTime(micros);
            case TIMESTAMP_TZ -> toInstant(micros);
            default -> toLocalTime(micros);
        };
    }

    // ------------------------------------------------------------------ text

    /**
     * Parses a TIMESTAMP: {@code yyyy-mm-dd[( |T)hh:mm[:ss[.f]]]}; an offset or zone after it is ignored.
     *
     * @throws IllegalArgumentException naming the text
     */
    public static long parseTimestamp(CharSequence text) {
        Parsed p = parse(text, null);
        return p.local;
    }

    /**
     * Parses a TIMESTAMP_TZ: a timestamp as {@link #parseTimestamp} reads it, then an offset or a zone name;
     * without one, the local time in {@code zone}.
     *
     * @throws IllegalArgumentException naming the text
     */
    public static long parseInstant(CharSequence text, ZoneId zone) {
        Parsed p = parse(text, zone);
        return p.instant;
    }

    /**
     * Parses a TIME: {@code hh:mm[:ss[.f]]}, up to 23:59:59.999999. PostgreSQL's TIME also holds 24:00:00, which
     * a LocalTime (what results hand out) cannot: it is refused rather than changed.
     *
     * @throws IllegalArgumentException naming the text
     */
    public static long parseTime(CharSequence text) {
        Cursor c = new Cursor(text);
        c.skipSpaces();
        long t = c.timeOfDay();
        c.skipSpaces();
        if (!c.atEnd() || t >= MICROS_PER_DAY) {
            throw new IllegalArgumentException(c.error("time"));
        }
        return t;
    }

    private record Parsed(long local, long instant) {
    }

    private static Parsed parse(CharSequence text, ZoneId zone) {
        Cursor c = new Cursor(text);
        String what = zone == null ? "timestamp" : "timestamp with time zone";
        c.skipSpaces();
        boolean negativeYear = c.peek() == '-';
        if (negativeYear) {
            c.pos++;
        }
        int year = c.number(1, 9, what);
        c.expect('-', what);
        int month = c.number(1, 2, what);
        c.expect('-', what);
        int day = c.number(1, 2, what);
        if (negativeYear) {
            year = -year;
        }
        // The era after the date, as Troupe and DuckDB print it (0044-03-15 (BC) 12:00:00), or at the end, as
        // PostgreSQL does (0044-03-15 12:00:00 BC).
        int afterDate = c.pos;
        c.skipSpaces();
        boolean bc = c.consumeBc();
        if (!bc) {
            c.pos = afterDate;
        }
        long time = 0;
        if (c.peek() == 'T' || c.peek() == ' ' && c.digitAfterSpaces()) {
            c.pos++;
            c.skipSpaces();
            time = c.timeOfDay();
        }
        c.skipSpaces();
        bc |= c.consumeBc();
        c.skipSpaces();
        if (bc) {
            year = 1 - year;
        }
        try {
            checkDate(year, month, day);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " field out of range: '" + text + "'");
        }
        long local;
        try {
            local = compose(year, month, day, 0, 0, 0) + time;
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + " out of range: '" + text + "'");
        }
        if (c.atEnd()) {
            return new Parsed(local, zone == null ? local : fromLocal(local, zone.getRules()));
        }
        ZoneId given = c.zone(what);
        if (zone == null) {
            return new Parsed(local, local);
        }
        return new Parsed(local, fromLocal(local, given.getRules()));
    }

    /** A reading position in a text being parsed. */
    private static final class Cursor {

        private final CharSequence text;
        private int pos;

        Cursor(CharSequence text) {
            this.text = text;
        }

        boolean atEnd() {
            return pos >= text.length();
        }

        char peek() {
            return atEnd() ? 0 : text.charAt(pos);
        }

        void skipSpaces() {
            while (!atEnd() && text.charAt(pos) == ' ') {
                pos++;
            }
        }

        boolean digitAfterSpaces() {
            int p = pos;
            while (p < text.length() && text.charAt(p) == ' ') {
                p++;
            }
            return p < text.length() && Character.isDigit(text.charAt(p));
        }

        void expect(char ch, String what) {
            if (peek() != ch) {
                throw new IllegalArgumentException(error(what));
            }
            pos++;
        }

        int number(int minDigits, int maxDigits, String what) {
            int start = pos;
            long v = 0;
            while (!atEnd() && pos - start < maxDigits && Character.isDigit(text.charAt(pos))) {
                v = v * 10 + (text.charAt(pos++) - '0');
            }
            if (pos - start < minDigits) {
                throw new IllegalArgumentException(error(what));
            }
            return (int) v;
        }

        /** hh:mm[:ss[.fraction]] as microseconds, up to 24:00:00 (the caller checks the upper bound). */
        long timeOfDay() {
            String what = "time";
            int hour = number(1, 2, what);
            expect(':', what);
            int minute = number(2, 2, what);
            long second = 0;
            if (peek() == ':') {
                pos++;
                second = number(2, 2, what) * MICROS_PER_SECOND;
                if (peek() == '.') {
                    pos++;
                    second += fraction();
                }
            }
            if (hour > 24 || minute > 59 || second >= 60 * MICROS_PER_SECOND
                    || hour == 24 && (minute > 0 || second > 0)) {
                throw new IllegalArgumentException("time field out of range: '" + text + "'");
            }
            return hour * MICROS_PER_HOUR + minute * MICROS_PER_MINUTE + second;
        }

        /** Up to nine digits of a second's fraction, rounded half up to microseconds. */
        private long fraction() {
            int start = pos;
            long micros = 0;
            int digits = 0;
            boolean roundUp = false;
            while (!atEnd() && Character.isDigit(text.charAt(pos))) {
                int d = text.charAt(pos++) - '0';
                if (digits < 6) {
                    micros = micros * 10 + d;
                } else if (digits == 6) {
                    roundUp = d >= 5;
                }
                digits++;
            }
            if (digits == 0 || digits > 9) {
                throw new IllegalArgumentException(error("time"));
            }
            for (int i = pos - start; i < 6; i++) {
                micros *= 10;
            }
            return micros + (roundUp ? 1 : 0);
        }

        boolean consumeBc() {
            for (String bc : new String[] {"(BC)", "BC"}) {
                if (text.length() - pos >= bc.length() && text.subSequence(pos, pos + bc.length()).toString()
                        .equalsIgnoreCase(bc)) {
                    pos += bc.length();
                    return true;
                }
            }
            return false;
        }

        /** An offset (Z, +hh, +hhmm, +hh:mm[:ss]) or a zone name, to the end of the text. */
        ZoneId zone(String what) {
            String rest = text.subSequence(pos, text.length()).toString().trim();
            char sign = rest.isEmpty() ? 0 : rest.charAt(0);
            try {
                if (sign == '+' || sign == '-') {
                    String digits = rest.substring(1).replace(":", "");
                    if (digits.isEmpty() || digits.length() > 6 || !digits.chars().allMatch(Character::isDigit)
                            || digits.length() % 2 == 1 && digits.length() != 1) {
                        throw new IllegalArgumentException(error(what));
                    }
                    int h = Integer.parseInt(digits.substring(0, Math.min(2, digits.length())));
                    int m = digits.length() >= 4 ? Integer.parseInt(digits.substring(2, 4)) : 0;
                    int s = digits.length() == 6 ? Integer.parseInt(digits.substring(4, 6)) : 0;
                    int total = h * 3600 + m * 60 + s;
                    return ZoneOffset.ofTotalSeconds(sign == '-' ? -total : total);
                }
                if (rest.equalsIgnoreCase("Z")) {
                    return ZoneOffset.UTC;
                }
                return TimeZones.zone(rest);
            } catch (java.time.DateTimeException e) {
                throw new IllegalArgumentException(error(what));
            }
        }

        String error(String what) {
            return "invalid input syntax for type " + what + ": \"" + text + "\"";
        }
    }

    /**
     * Writes a TIMESTAMP as {@code yyyy-mm-dd hh:mm:ss[.ffffff]} at {@code pos} (years up to 0 as DuckDB
     * prints them, {@code 0044-03-15 (BC) 12:00:00}); returns the position after it.
     */
    public static int formatTimestamp(long micros, byte[] buf, int pos) {
        pos = Dates.format(day(micros), buf, pos);
        buf[pos++] = ' ';
        return formatTime(timeOfDay(micros), buf, pos);
    }

    /** Writes a TIME as {@code hh:mm:ss[.ffffff]}, trailing zeros of the fraction dropped. */
    public static int formatTime(long micros, byte[] buf, int pos) {
        long seconds = micros / MICROS_PER_SECOND;
        pos = Dates.digits(seconds / 3600, 2, buf, pos);
        buf[pos++] = ':';
        pos = Dates.digits(seconds / 60 % 60, 2, buf, pos);
        buf[pos++] = ':';
        pos = Dates.digits(seconds % 60, 2, buf, pos);
        long fraction = micros % MICROS_PER_SECOND;
        if (fraction == 0) {
            return pos;
        }
        int digits = 6;
        while (fraction % 10 == 0) {
            fraction /= 10;
            digits--;
        }
        buf[pos++] = '.';
        return Dates.digits(fraction, digits, buf, pos);
    }

    /**
     * Writes an instant as the local timestamp in {@code zone} and the offset there: {@code 2024-03-15
     * 13:45:30+01}, {@code +05:30} where the offset has minutes.
     */
    public static int formatInstant(long micros, ZoneRules zone, byte[] buf, int pos) {
        int offset = offsetSeconds(zone, micros);
        pos = formatTimestamp(micros + offset * MICROS_PER_SECOND, buf, pos);
        buf[pos++] = (byte) (offset < 0 ? '-' : '+');
        int abs = Math.abs(offset);
        pos = Dates.digits(abs / 3600, 2, buf, pos);
        if (abs % 3600 != 0) {
            buf[pos++] = ':';
            pos = Dates.digits(abs / 60 % 60, 2, buf, pos);
            if (abs % 60 != 0) {
                buf[pos++] = ':';
                pos = Dates.digits(abs % 60, 2, buf, pos);
            }
        }
        return pos;
    }

    public static String timestampText(long micros) {
        byte[] buf = new byte[MAX_TEXT_LENGTH];
        return new String(buf, 0, formatTimestamp(micros, buf, 0), java.nio.charset.StandardCharsets.US_ASCII);
    }

    public static String timeText(long micros) {
        byte[] buf = new byte[MAX_TEXT_LENGTH];
        return new String(buf, 0, formatTime(micros, buf, 0), java.nio.charset.StandardCharsets.US_ASCII);
    }

    public static String instantText(long micros, ZoneId zone) {
        byte[] buf = new byte[MAX_TEXT_LENGTH];
        return new String(buf, 0, formatInstant(micros, zone.getRules(), buf, 0),
                java.nio.charset.StandardCharsets.US_ASCII);
    }
}
