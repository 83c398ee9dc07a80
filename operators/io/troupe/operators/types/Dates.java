package io.troupe.operators.types;

import java.time.LocalDate;

/**
 * DATE values are days since 1970-01-01. Conversions here work on primitives, without
 * allocating, so that kernels such as extract(year) stay allocation-free (the civil-calendar
 * algorithms of H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
 */
public final class Dates {

    public static final int SECONDS_PER_DAY = 86_400;

    private Dates() {
    }

    public static LocalDate toLocalDate(int days) {
        return LocalDate.ofEpochDay(days);
    }

    public static int fromLocalDate(LocalDate date) {
        return Math.toIntExact(date.toEpochDay());
    }

    /** Days since the epoch of year-month-day (month 1..12, day 1..31). */
    public static int days(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yoe = y - era * 400;
        int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    /** The year of a day number. */
    public static int year(int days) {
        int z = days + 719468;
        int era = Math.floorDiv(z, 146097);
        int doe = z - era * 146097;
        int yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        int doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        int mp = (5 * doy + 2) / 153;
        int month = mp < 10 ? mp + 3 : mp - 9;
        return yoe + era * 400 + (month <= 2 ? 1 : 0);
    }

    /** The month (1..12) of a day number. */
    public static int month(int days) {
        int z = days + 719468;
        int era = Math.floorDiv(z, 146097);
        int doe = z - era * 146097;
        int yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        int doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        int mp = (5 * doy + 2) / 153;
        return mp < 10 ? mp + 3 : mp - 9;
    }

    /** The day of the month (1..31) of a day number. */
    public static int dayOfMonth(int days) {
        int z = days + 719468;
        int era = Math.floorDiv(z, 146097);
        int doe = z - era * 146097;
        int yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        int doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        int mp = (5 * doy + 2) / 153;
        return doy - (153 * mp + 2) / 5 + 1;
    }

    /** Days in {@code month} (1..12) of {@code year}, proleptic Gregorian. */
    public static int daysInMonth(int year, int month) {
        return switch (month) {
            case 2 -> isLeapYear(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    public static boolean isLeapYear(int year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    /**
     * Writes yyyy-mm-dd at {@code pos} as DuckDB prints a date: years past 9999 take more digits, and years up
     * to 0 (1 BC and before, proleptic) print as {@code 0001-06-01 (BC)}. Returns the position after it.
     */
    public static int format(int days, byte[] buf, int pos) {
        int year = year(days);
        pos = digits(year > 0 ? year : 1L - year, 4, buf, pos);
        buf[pos++] = '-';
        pos = digits(month(days), 2, buf, pos);
        buf[pos++] = '-';
        pos = digits(dayOfMonth(days), 2, buf, pos);
        if (year > 0) {
            return pos;
        }
        for (byte b : BC) {
            buf[pos++] = b;
        }
        return pos;
    }

    private static final byte[] BC = {' ', '(', 'B', 'C', ')'};

    /** A day number as {@link #format} writes it. */
    public static String text(int days) {
        byte[] buf = new byte[Timestamps.MAX_TEXT_LENGTH];
        return new String(buf, 0, format(days, buf, 0), java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Writes non-negative {@code v} with at least {@code minDigits} digits (zero-padded); returns the end. */
    public static int digits(long v, int minDigits, byte[] buf, int pos) {
        int n = 1;
        for (long t = v / 10; t != 0; t /= 10) {
            n++;
        }
        n = Math.max(n, minDigits);
        for (int i = pos + n - 1; i >= pos; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return pos + n;
    }

    /** Parses yyyy-mm-dd. @throws IllegalArgumentException on any other form */
    public static int parse(CharSequence text) {
        try {
            return fromLocalDate(LocalDate.parse(text));
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("not a date (yyyy-mm-dd): '" + text + "'", e);
        }
    }
}
