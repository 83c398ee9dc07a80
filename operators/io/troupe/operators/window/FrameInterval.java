package io.troupe.operators.window;

import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * A RANGE frame's offset over a date or time ORDER BY key, as PostgreSQL's interval: months, days and
 * microseconds, added to a time in that order ({@code timestamp_pl_interval}): the months by the calendar, the
 * day of the month cut to the last of a shorter month (2024-03-31 less a month is 2024-02-29), then the days,
 * then the microseconds. A DATE key is its midnight, so {@code INTERVAL '36' HOUR} before 2024-01-03 is noon of
 * 2024-01-01.
 *
 * <p>Immutable.
 *
 * @param months the months (a year is 12)
 * @param days   the days
 * @param micros the microseconds (an hour is 3,600,000,000)
 */
public record FrameInterval(int months, int days, long micros) {

    public static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final long[] UNIT_MICROS = {3_600_000_000L, 60_000_000L, 1_000_000L, 1_000L, 1L};
    private static final String[] UNIT_NAMES = {"hour", "minute", "second", "millisecond", "microsecond"};

    public static FrameInterval ofMonths(int months) {
        return new FrameInterval(months, 0, 0);
    }

    public static FrameInterval ofDays(int days) {
        return new FrameInterval(0, days, 0);
    }

    public static FrameInterval ofMicros(long micros) {
        return new FrameInterval(0, 0, micros);
    }

    /** Whether the interval is below zero, weighing a month as 30 days (PostgreSQL's {@code interval_cmp_value}). */
    public boolean negative() {
        return BigInteger.valueOf(months).multiply(BigInteger.valueOf(30)).add(BigInteger.valueOf(days))
                .multiply(BigInteger.valueOf(MICROS_PER_DAY)).add(BigInteger.valueOf(micros)).signum() < 0;
    }

    public boolean zero() {
        return months == 0 && days == 0 && micros == 0;
    }

    /**
     * {@code time} (microseconds since 1970-01-01 00:00) plus this interval, or minus it when {@code subtract};
     * a time beyond what a long holds becomes {@code Long.MIN_VALUE} or {@code Long.MAX_VALUE}, which lie beyond
     * every key a frame compares with.
     */
    public long addTo(long time, boolean subtract) {
        int sign = subtract ? -1 : 1;
        try {
            if (months == 0) {
                // Days and microseconds are fixed lengths of time without a time zone: no calendar needed.
                long change = Math.addExact(Math.multiplyExact((long) days, MICROS_PER_DAY), micros);
                return Math.addExact(time, Math.multiplyExact(sign, change));
            }
            LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(time, 1_000_000L),
                    (int) Math.floorMod(time, 1_000_000L) * 1000, ZoneOffset.UTC);
            t = t.plusMonths((long) sign * months).plusDays((long) sign * days);
            long seconds = t.toEpochSecond(ZoneOffset.UTC);
            long sum = Math.addExact(Math.multiplyExact(seconds, 1_000_000L), t.getNano() / 1000);
            return Math.addExact(sum, Math.multiplyExact(sign, micros));
        } catch (ArithmeticException | DateTimeException e) {
            return negative() == subtract ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
    }

    /** The interval as PostgreSQL and DuckDB read it: {@code INTERVAL '1 month 7 days 36 hours'}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        if (months != 0) {
            text.append(months).append(months == 1 || months == -1 ? " month" : " months");
        }
        if (days != 0) {
            text.append(text.isEmpty() ? "" : " ").append(days).append(days == 1 || days == -1 ? " day" : " days");
        }
        if (micros != 0 || text.isEmpty()) {
            int unit = 0;
            while (micros % UNIT_MICROS[unit] != 0) {
                unit++;
            }
            long n = micros / UNIT_MICROS[unit];
            text.append(text.isEmpty() ? "" : " ").append(n).append(' ').append(UNIT_NAMES[unit])
                    .append(n == 1 || n == -1 ? "" : "s");
        }
        return "INTERVAL '" + text + "'";
    }

    /**
     * Reads what {@link #toString} writes between the quotes: pairs of an integer and a unit, {@code year},
     * {@code month}, {@code week}, {@code day}, {@code hour}, {@code minute}, {@code second}, {@code millisecond}
     * or {@code microsecond}, each singular or plural: {@code 1 month 7 days}, {@code 36 hours}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static FrameInterval parse(String text) {
        String[] words = text.trim().toLowerCase(Locale.ROOT).split("\\s+");
        if (words.length % 2 != 0 || words[0].isEmpty()) {
            throw new IllegalArgumentException("bad interval '" + text + "': expected pairs of a number and a unit, "
                    + "such as '1 month 7 days'");
        }
        long months = 0;
        long days = 0;
        long micros = 0;
        try {
            for (int w = 0; w < words.length; w += 2) {
                long n = Long.parseLong(words[w]);
                String unit = words[w + 1].endsWith("s") ? words[w + 1].substring(0, words[w + 1].length() - 1)
                        : words[w + 1];
                switch (unit) {
                    case "year" -> months = Math.addExact(months, Math.multiplyExact(n, 12));
                    case "month" -> months = Math.addExact(months, n);
                    case "week" -> days = Math.addExact(days, Math.multiplyExact(n, 7));
                    case "day" -> days = Math.addExact(days, n);
                    default -> {
                        int u = List.of(UNIT_NAMES).indexOf(unit);
                        if (u < 0) {
                            throw new IllegalArgumentException("bad interval '" + text + "': unknown unit '"
                                    + words[w + 1] + "' (year, month, week, day, hour, minute, second, millisecond, "
                                    + "microsecond)");
                        }
                        micros = Math.addExact(micros, Math.multiplyExact(n, UNIT_MICROS[u]));
                    }
                }
            }
            return new FrameInterval(Math.toIntExact(months), Math.toIntExact(days), micros);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("bad interval '" + text + "': a count that is not an integer or is too "
                    + "large");
        }
    }
}
