package io.troupe.operators.expr;

import io.troupe.operators.expr.DateTimeFormat.Code;
import io.troupe.operators.expr.DateTimeFormat.Item;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Timestamps;

import java.util.List;

/**
 * Reads text with a strftime format as DuckDB's strptime does: leading and trailing spaces skipped, a space
 * of the format matching a run of spaces, other literal characters matching themselves; a number up to its
 * code's width of digits (%Y four, %d two, %f six ...), at least one; names in any letter case; %y before
 * 69 in the 2000s; %p turning 1-12 into hours of the day; %j a day of the year unless the format has a
 * month or day; %z an offset ({@code +HH}, {@code +HHMM}, {@code +HH:MM[:SS]}), which makes the result an
 * instant. Fields the format lacks are those of 1900-01-01 00:00:00. Text that does not match throws a
 * {@link DomainException} with DuckDB's reason.
 *
 * <p>Not threadsafe: one per evaluation; it holds the last result.
 */
final class StrptimeParser {

    /** The local time read, in microseconds. */
    long local;
    /** The offset read by %z, in seconds east of UTC. */
    int offsetSeconds;

    private byte[] data;
    private int pos;
    private int end;

    /**
     * Reads {@code data[from, to)}.
     *
     * @throws DomainException naming where and why the text does not match
     */
    void parse(DateTimeFormat format, byte[] data, int from, int to) {
        this.data = data;
        this.pos = from;
        this.end = to;
        skipSpaces();
        int year = 1900;
        int month = 1;
        int day = 1;
        int hour = 0;
        int minute = 0;
        int second = 0;
        int micros = 0;
        int dayOfYear = 0;
        boolean monthOrDay = false;
        int meridiem = 0;
        offsetSeconds = 0;
        List<Item> items = format.items();
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            switch (item.code()) {
                case LITERAL -> literal(item.literal());
                case MERIDIEM -> meridiem = meridiem();
                case DAY_NAME -> name(DateTimeFormat.DAY_NAMES, "a full day name");
                case DAY_ABBREVIATION -> name(DateTimeFormat.DAY_ABBREVIATIONS, "an abbreviated day name");
                case MONTH_NAME, MONTH_ABBREVIATION -> {
                    month = item.code() == Code.MONTH_NAME ? name(DateTimeFormat.MONTH_NAMES, "a full month name") + 1
                            : name(DateTimeFormat.MONTH_ABBREVIATIONS, "an abbreviated month name") + 1;
                    monthOrDay = true;
                }
                case OFFSET -> offsetSeconds = offset();
                default -> {
                    int start = pos;
                    int width = item.code() == Code.FRACTION ? item.style() : item.code() == Code.YEAR_SIGNED ? 4
                            : item.code() == Code.DAY_OF_YEAR ? 3 : 2;
                    long n = number(width);
                    switch (item.code()) {
                        case DAY -> {
                            day = (int) check(n, 1, 31, "Day", start);
                            monthOrDay = true;
                        }
                        case MONTH -> {
                            month = (int) check(n, 1, 12, "Month", start);
                            monthOrDay = true;
                        }
                        case YEAR_OF_CENTURY -> year = (int) check(n, 0, 99, "Year without century", start)
                                + (n >= 69 ? 1900 : 2000);
                        case YEAR_SIGNED -> year = (int) n;
                        case HOUR -> hour = (int) check(n, 0, 23, "Hour", start);
                        case HOUR_OF_HALF_DAY -> hour = (int) check(n, 1, 12, "Hour12", start);
                        case MINUTE -> minute = (int) check(n, 0, 59, "Minutes", start);
                        case SECOND -> second = (int) check(n, 0, 59, "Seconds", start);
                        case FRACTION -> micros = (int) (n * pow10(width - (pos - start)) * pow10(6 - width));
                        case DAY_OF_YEAR -> dayOfYear = (int) check(n, 1, 366, "Year day", start);
                        default -> throw new IllegalStateException("strptime reads no " + item.name());
                    }
                }
            }
        }
        skipSpaces();
        if (pos != end) {
            throw fail("trailing characters", pos);
        }
        if (meridiem != 0) {
            if (hour > 12) {
                throw new DomainException("invalid hour: " + hour + " AM/PM, expected an hour within the range [0..12]");
            }
            hour = meridiem == 'A' ? (hour == 12 ? 0 : hour) : (hour == 12 ? 12 : hour + 12);
        }
        int days;
        if (dayOfYear > 0 && !monthOrDay) {
            days = Dates.days(year, 1, 1) + dayOfYear - 1;
        } else if (day > Dates.daysInMonth(year, month)) {
            throw new DomainException("date out of range: " + year + "-" + month + "-" + day);
        } else {
            days = Dates.days(year, month, day);
        }
        local = Timestamps.ofDay(days) + hour * Timestamps.MICROS_PER_HOUR + minute * Timestamps.MICROS_PER_MINUTE
                + second * Timestamps.MICROS_PER_SECOND + micros;
    }

    private static long pow10(int digits) {
        long p = 1;
        for (int i = 0; i < digits; i++) {
            p *= 10;
        }
        return p;
    }

    private long check(long n, int min, int max, String what, int start) {
        if (n < min || n > max) {
            throw fail(what + " out of range, expected a value between " + min + " and " + max, start);
        }
        return n;
    }

    private DomainException fail(String reason, int at) {
        return new DomainException(reason + " at byte " + (at + 1));
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b >= '\t' && b <= '\r';
    }

    private void skipSpaces() {
        while (pos < end && isSpace(data[pos])) {
            pos++;
        }
    }

    private void literal(byte[] literal) {
        for (int l = 0; l < literal.length;) {
            if (isSpace(literal[l])) {
                if (pos >= end || !isSpace(data[pos])) {
                    throw fail("space does not match", pos);
                }
                skipSpaces();
                while (l < literal.length && isSpace(literal[l])) {
                    l++;
                }
                continue;
            }
            if (pos >= end || data[pos] != literal[l]) {
                throw fail("literal does not match, expected \"" + new String(literal,
                        java.nio.charset.StandardCharsets.UTF_8) + "\"", pos);
            }
            pos++;
            l++;
        }
    }

    private long number(int width) {
        int start = pos;
        long n = 0;
        while (pos < end && pos - start < width && data[pos] >= '0' && data[pos] <= '9') {
            n = n * 10 + data[pos++] - '0';
        }
        if (pos == start) {
            throw fail("expected a number", start);
        }
        return n;
    }

    /** 'A' or 'P'. */
    private int meridiem() {
        if (pos + 2 <= end && (data[pos + 1] | 0x20) == 'm') {
            int c = data[pos] | 0x20;
            if (c == 'a' || c == 'p') {
                pos += 2;
                return c == 'a' ? 'A' : 'P';
            }
        }
        throw fail("expected AM/PM", pos);
    }

    /** The index of the name that the text starts with, in any letter case. */
    private int name(String[] names, String what) {
        for (int i = 0; i < names.length; i++) {
            if (matches(names[i])) {
                pos += names[i].length();
                return i;
            }
        }
        throw fail("expected " + what, pos);
    }

    private boolean matches(String name) {
        if (end - pos < name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if ((data[pos + i] | 0x20) != (name.charAt(i) | 0x20)) {
                return false;
            }
        }
        return true;
    }

    /** ±H[H][[:]MM[:SS]] as seconds. */
    private int offset() {
        int start = pos;
        if (pos >= end || data[pos] != '+' && data[pos] != '-') {
            throw fail("expected ±HH[MM] or ±HH[:MM[:SS]]", start);
        }
        int sign = data[pos++] == '-' ? -1 : 1;
        int hours = (int) number(2);
        int minutes = 0;
        int seconds = 0;
        boolean colon = pos < end && data[pos] == ':';
        if (colon) {
            pos++;
        }
        if (pos < end && data[pos] >= '0' && data[pos] <= '9') {
            minutes = (int) number(2);
            if (colon && pos < end && data[pos] == ':') {
                pos++;
                seconds = (int) number(2);
            }
        } else if (colon) {
            throw fail("expected ±HH[MM] or ±HH[:MM[:SS]]", start);
        }
        return sign * (hours * 3600 + minutes * 60 + seconds);
    }
}
