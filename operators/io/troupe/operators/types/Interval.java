package io.troupe.operators.types;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * An INTERVAL value as PostgreSQL holds one: months, days and microseconds, kept apart because a month and a
 * day have no fixed length (a month added to a date moves its calendar month; a day added to a time with a zone
 * moves its calendar day). Added to a time, the months come first (the day of the month cut to the last of a
 * shorter month: 2024-03-31 less a month is 2024-02-29), then the days, then the microseconds
 * ({@code timestamp_pl_interval}).
 *
 * <p>Two intervals compare, and are equal, by their length weighing a month as 30 days and a day as 24 hours
 * ({@code interval_cmp_value}): {@code '1 month'} equals {@code '30 days'} and {@code '720 hours'}; {@link
 * #sortDays} and {@link #sortMicros} are that length split into a pair that orders like it.
 *
 * <p>Text is read as PostgreSQL reads it ({@link #parse}) and written as DuckDB writes it: {@code 1 year 2 months 3
 * days 04:05:06.789}, {@code -1 day -02:00:00}, {@code 00:00:00} for zero.
 *
 * <p>Immutable.
 *
 * @param months the months (a year is 12)
 * @param days   the days
 * @param micros the microseconds (an hour is 3,600,000,000)
 */
public record Interval(int months, int days, long micros) implements Comparable<Interval> {

    public static final Interval ZERO = new Interval(0, 0, 0);

    /** Days weighed per month when intervals compare, and when {@link #multiply} spreads a fraction of a month. */
    public static final int DAYS_PER_MONTH = 30;

    /** Beyond every year a timestamp's microseconds reach (about 292,000 years from 1970). */
    private static final int MAX_YEARS = 300_000;

    public static Interval ofMonths(int months) {
        return new Interval(months, 0, 0);
    }

    public static Interval ofDays(int days) {
        return new Interval(0, days, 0);
    }

    public static Interval ofMicros(long micros) {
        return new Interval(0, 0, micros);
    }

    // ------------------------------------------------------------------ the packed form of vectors

    /** The months and days packed in one long, as an INTERVAL vector's high word holds them. */
    public static long high(int months, int days) {
        return (long) months << 32 | days & 0xFFFF_FFFFL;
    }

    public static int months(long high) {
        return (int) (high >> 32);
    }

    public static int days(long high) {
        return (int) high;
    }

    /** The interval of a vector's words: {@code high} (months and days) and {@code low} (microseconds). */
    public static Interval of(long high, long low) {
        return new Interval(months(high), days(high), low);
    }

    public long high() {
        return high(months, days);
    }

    // ------------------------------------------------------------------ order

    /** Whole days of the interval's length, a month weighed as 30 days (floor of the length in days). */
    public static long sortDays(long high, long low) {
        return (long) months(high) * DAYS_PER_MONTH + days(high) + Math.floorDiv(low, Timestamps.MICROS_PER_DAY);
    }

    /** The microseconds of the length past {@link #sortDays}, 0 to a day less one. */
    public static long sortMicros(long low) {
        return Math.floorMod(low, Timestamps.MICROS_PER_DAY);
    }

    /** Orders two packed intervals by their length ({@code interval_cmp_value}). */
    public static int compare(long highA, long lowA, long highB, long lowB) {
        int byDays = Long.compare(sortDays(highA, lowA), sortDays(highB, lowB));
        return byDays != 0 ? byDays : Long.compare(sortMicros(lowA), sortMicros(lowB));
    }

    @Override
    public int compareTo(Interval other) {
        return compare(high(), micros, other.high(), other.micros);
    }

    public boolean negative() {
        return compareTo(ZERO) < 0;
    }

    public boolean zero() {
        return months == 0 && days == 0 && micros == 0;
    }

    // ------------------------------------------------------------------ arithmetic

    /** @throws ArithmeticException when a field overflows */
    public Interval plus(Interval other) {
        return new Interval(Math.addExact(months, other.months), Math.addExact(days, other.days),
                Math.addExact(micros, other.micros));
    }

    /** @throws ArithmeticException when a field overflows */
    public Interval negate() {
        return new Interval(Math.negateExact(months), Math.negateExact(days), Math.negateExact(micros));
    }

    /**
     * This interval times {@code factor}, as PostgreSQL's {@code interval_mul}: the months and the days each
     * multiplied and cut toward zero; the fraction of a month cascades down as 30 days (its whole days to the days,
     * the rest as time) and the fraction of a day as 24 hours, never up; the microseconds rounded half to even.
     *
     * @throws ArithmeticException when a field overflows, or the factor is not finite
     */
    public Interval multiply(double factor) {
        return scale(factor, false);
    }

    /** This interval divided by {@code divisor}, as PostgreSQL's {@code interval_div}: see {@link #multiply}. */
    public Interval divide(double divisor) {
        return scale(divisor, true);
    }

    private Interval scale(double factor, boolean divide) {
        if (!Double.isFinite(factor)) {
            throw new ArithmeticException("interval out of range");
        }
        double m = divide ? months / factor : months * factor;
        double d = divide ? days / factor : days * factor;
        if (!fitsInt(m) || !fitsInt(d)) {
            throw new ArithmeticException("interval out of range");
        }
        int wholeMonths = (int) m;
        long wholeDays = (int) d;
        double monthDays = micro((m - wholeMonths) * DAYS_PER_MONTH);
        double seconds = micro((d - wholeDays + monthDays - (long) monthDays) * 86_400);
        if (Math.abs(seconds) >= 86_400) {
            wholeDays += (long) (seconds / 86_400);
            seconds -= (long) (seconds / 86_400) * 86_400;
        }
        wholeDays += (long) monthDays;
        double u = Math.rint((divide ? micros / factor : micros * factor) + seconds * Timestamps.MICROS_PER_SECOND);
        if (Math.abs(u) >= 0x1p63) {
            throw new ArithmeticException("interval out of range");
        }
        return new Interval(wholeMonths, Math.toIntExact(wholeDays), (long) u);
    }

    private static boolean fitsInt(double v) {
        return v > Integer.MIN_VALUE - 1.0 && v < Integer.MAX_VALUE + 1.0;
    }

    /** {@code v} rounded to six decimal places, as PostgreSQL's TSROUND keeps a cascade from gaining a microsecond. */
    private static double micro(double v) {
        return Math.rint(v * 1e6) / 1e6;
    }

    /**
     * This interval's months, days and microseconds added to a TIMESTAMP's microseconds, in that order; a
     * TIMESTAMP_TZ in UTC (SQL converts to and from local time in the session's zone around it).
     *
     * @throws ArithmeticException when the result leaves a timestamp's range
     */
    public long addTo(long time) {
        long t = time;
        if (months != 0) {
            int day = Timestamps.day(t);
            long month = Dates.year(day) * 12L + Dates.month(day) - 1 + months;
            long year = Math.floorDiv(month, 12);
            if (Math.abs(year) > MAX_YEARS) {
                throw new ArithmeticException("timestamp out of range");
            }
            int m = (int) Math.floorMod(month, 12) + 1;
            int to = Dates.days((int) year, m, Math.min(Dates.dayOfMonth(day), Dates.daysInMonth((int) year, m)));
            t = Math.addExact(Math.multiplyExact((long) to, Timestamps.MICROS_PER_DAY), Timestamps.timeOfDay(t));
        }
        t = Math.addExact(t, Math.multiplyExact((long) days, Timestamps.MICROS_PER_DAY));
        return Math.addExact(t, micros);
    }

    /**
     * The interval from {@code b} to {@code a}, two TIMESTAMPs' microseconds, as PostgreSQL subtracts them: whole
     * days and the microseconds left, both of the difference's sign ({@code 1 day 02:00:00}, {@code -1 day
     * -02:00:00}).
     *
     * @throws ArithmeticException when the difference overflows
     */
    public static Interval between(long a, long b) {
        long diff = Math.subtractExact(a, b);
        return new Interval(0, Math.toIntExact(diff / Timestamps.MICROS_PER_DAY), diff % Timestamps.MICROS_PER_DAY);
    }

    // ------------------------------------------------------------------ fields

    /** Seconds of the interval's length, as PostgreSQL's EXTRACT(EPOCH): a year 365.25 days, a month 30. */
    public double epoch() {
        return months / 12 * 365.25 * 86_400 + months % 12 * (double) DAYS_PER_MONTH * 86_400
                + days * 86_400.0 + micros / 1e6;
    }

    // ------------------------------------------------------------------ text

    /** The interval as DuckDB writes it: {@code 1 year 2 months 3 days 04:05:06.789}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        int years = months / 12;
        int monthsLeft = months % 12;
        unit(sb, years, "year");
        unit(sb, monthsLeft, "month");
        unit(sb, days, "day");
        if (micros != 0 || sb.isEmpty()) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            long abs = Math.abs(micros);
            if (micros < 0) {
                sb.append('-');
            }
            long hours = abs / Timestamps.MICROS_PER_HOUR;
            sb.append(hours < 10 ? "0" : "").append(hours).append(':');
            byte[] rest = new byte[Timestamps.MAX_TEXT_LENGTH];
            int end = Timestamps.formatTime(abs % Timestamps.MICROS_PER_HOUR, rest, 0);
            // formatTime writes 00:mm:ss[.f]: keep mm:ss[.f]
            sb.append(new String(rest, 3, end - 3, java.nio.charset.StandardCharsets.US_ASCII));
        }
        return sb.toString();
    }

    private static void unit(StringBuilder sb, int n, String name) {
        if (n != 0) {
            sb.append(sb.isEmpty() ? "" : " ").append(n).append(' ').append(name).append(n == 1 || n == -1 ? "" : "s");
        }
    }

    /**
     * Reads an interval as PostgreSQL does: numbers with units ({@code 1 year 2 mons 3 days}, {@code 1.5 hours},
     * {@code -2 weeks}; the units in any case, plural or abbreviated: {@code y yr yrs year years}, {@code mon mons
     * month months}, {@code w week weeks}, {@code d day days}, {@code h hr hrs hour hours}, {@code m min mins
     * minute minutes}, {@code s sec secs second seconds}, {@code ms msec millisecond milliseconds}, {@code us usec
     * microsecond microseconds}, {@code decade}, {@code century}, {@code millennium}), a time {@code
     * [-]hh:mm[:ss[.f]]}, a bare number of seconds, SQL's {@code years-months}, {@code @} before and {@code ago}
     * after (which negates it all), and ISO 8601's {@code P1Y2M3DT4H5M6S}. A fraction of a unit spreads down as
     * PostgreSQL spreads it (a month is 30 days, a day 24 hours).
     *
     * @throws IllegalArgumentException in PostgreSQL's words, naming the text
     */
    public static Interval parse(CharSequence text) {
        String s = text.toString().trim().toLowerCase(Locale.ROOT);
        try {
            Interval v = s.startsWith("p") ? parseIso(s) : parseWords(s);
            if (v == null) {
                throw new IllegalArgumentException();
            }
            return v;
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("interval field value out of range: \"" + text + "\"");
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid input syntax for type interval: \"" + text + "\"");
        }
    }

    /** A sum of fields in exact arithmetic, spread down when the interval is made. */
    private static final class Fields {
        private BigDecimal months = BigDecimal.ZERO;
        private BigDecimal days = BigDecimal.ZERO;
        private BigDecimal micros = BigDecimal.ZERO;

        void add(BigDecimal n, String unit) {
            switch (unit) {
                case "millennium", "millennia", "millenniums", "mil", "mils" -> months = months.add(n.multiply(big(12_000)));
                case "century", "centuries", "c", "cent" -> months = months.add(n.multiply(big(1200)));
                case "decade", "decades", "dec", "decs" -> months = months.add(n.multiply(big(120)));
                case "year", "years", "y", "yr", "yrs" -> months = months.add(n.multiply(big(12)));
                case "month", "months", "mon", "mons" -> months = months.add(n);
                case "week", "weeks", "w" -> days = days.add(n.multiply(big(7)));
                case "day", "days", "d" -> days = days.add(n);
                case "hour", "hours", "h", "hr", "hrs" -> micros = micros.add(n.multiply(big(Timestamps.MICROS_PER_HOUR)));
                case "minute", "minutes", "m", "min", "mins" ->
                        micros = micros.add(n.multiply(big(Timestamps.MICROS_PER_MINUTE)));
                case "second", "seconds", "s", "sec", "secs" ->
                        micros = micros.add(n.multiply(big(Timestamps.MICROS_PER_SECOND)));
                case "millisecond", "milliseconds", "ms", "msec", "msecs", "millisecon" ->
                        micros = micros.add(n.multiply(big(1000)));
                case "microsecond", "microseconds", "us", "usec", "usecs" -> micros = micros.add(n);
                default -> throw new IllegalArgumentException(unit);
            }
        }

        Interval make(boolean negate) {
            BigDecimal wholeMonths = months.setScale(0, RoundingMode.DOWN);
            BigDecimal d = days.add(months.subtract(wholeMonths).multiply(big(DAYS_PER_MONTH)));
            BigDecimal wholeDays = d.setScale(0, RoundingMode.DOWN);
            BigDecimal u = micros.add(d.subtract(wholeDays).multiply(big(Timestamps.MICROS_PER_DAY)))
                    .setScale(0, RoundingMode.HALF_UP);
            Interval v = new Interval(wholeMonths.intValueExact(), wholeDays.intValueExact(), u.longValueExact());
            return negate ? v.negate() : v;
        }

        private static BigDecimal big(long n) {
            return BigDecimal.valueOf(n);
        }
    }

    private static Interval parseWords(String s) {
        String t = s.startsWith("@") ? s.substring(1).trim() : s;
        boolean ago = t.endsWith(" ago") || t.equals("ago");
        if (ago) {
            t = t.substring(0, t.length() - 3).trim();
        }
        String[] words = t.isEmpty() ? new String[0] : t.split("\\s+");
        if (words.length == 0) {
            return null;
        }
        Fields f = new Fields();
        for (int w = 0; w < words.length; w++) {
            String word = words[w];
            if (word.indexOf(':') >= 0) {
                f.micros = f.micros.add(BigDecimal.valueOf(time(word)));
                continue;
            }
            int dash = word.indexOf('-', 1);
            if (dash > 0 && Character.isDigit(word.charAt(dash - 1))) {
                // SQL's year-month: 1-2 is a year and two months.
                boolean negative = word.startsWith("-");
                String[] ym = word.substring(negative ? 1 : 0).split("-");
                BigDecimal months = BigDecimal.valueOf(Long.parseLong(ym[0]) * 12 + Long.parseLong(ym[1]));
                f.months = f.months.add(negative ? months.negate() : months);
                continue;
            }
            BigDecimal n = new BigDecimal(word.startsWith("+") ? word.substring(1) : word);
            if (w + 1 < words.length && !Character.isDigit(words[w + 1].charAt(0)) && words[w + 1].charAt(0) != '-'
                    && words[w + 1].charAt(0) != '+' && words[w + 1].charAt(0) != '.') {
                f.add(n, words[++w]);
            } else if (w + 1 < words.length && words[w + 1].indexOf(':') >= 0) {
                f.add(n, "day"); // SQL's day-time: 3 4:05:06 is three days and a time
            } else {
                f.add(n, "second");
            }
        }
        return f.make(ago);
    }

    /** {@code [-]h:mm[:ss[.f]]} as microseconds. */
    private static long time(String word) {
        boolean negative = word.startsWith("-");
        String[] parts = word.substring(negative || word.startsWith("+") ? 1 : 0).split(":");
        if (parts.length < 2 || parts.length > 3) {
            throw new IllegalArgumentException(word);
        }
        BigDecimal micros = BigDecimal.valueOf(Long.parseLong(parts[0])).multiply(BigDecimal.valueOf(Timestamps.MICROS_PER_HOUR))
                .add(BigDecimal.valueOf(Long.parseLong(parts[1])).multiply(BigDecimal.valueOf(Timestamps.MICROS_PER_MINUTE)));
        if (parts.length == 3) {
            micros = micros.add(new BigDecimal(parts[2]).multiply(BigDecimal.valueOf(Timestamps.MICROS_PER_SECOND)));
        }
        long v = micros.setScale(0, RoundingMode.HALF_UP).longValueExact();
        return negative ? -v : v;
    }

    /** ISO 8601's {@code PnYnMnWnDTnHnMnS}, fractions allowed. */
    private static Interval parseIso(String s) {
        Fields f = new Fields();
        boolean time = false;
        int i = 1;
        if (i == s.length()) {
            return null;
        }
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == 't') {
                time = true;
                i++;
                continue;
            }
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.' || s.charAt(i) == '-')) {
                i++;
            }
            if (start == i || i == s.length()) {
                return null;
            }
            BigDecimal n = new BigDecimal(s.substring(start, i));
            char unit = s.charAt(i++);
            f.add(n, switch (unit) {
                case 'y' -> "year";
                case 'm' -> time ? "minute" : "month";
                case 'w' -> "week";
                case 'd' -> "day";
                case 'h' -> "hour";
                case 's' -> "second";
                default -> throw new IllegalArgumentException(s);
            });
        }
        return f.make(false);
    }
}
