package io.troupe.operators.types;

import java.time.LocalDate;

/**
 * DATE values are days since 1970-01-01. Conversions here work on primitives, without
 * allocating, so that kernels such as extract(year) stay allocation-free (the civil-calendar
 * algorithms of H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
 */
public final class Dates {

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

    /** Parses yyyy-mm-dd. @throws IllegalArgumentException on any other form */
    public static int parse(CharSequence text) {
        try {
            return fromLocalDate(LocalDate.parse(text));
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("not a date (yyyy-mm-dd): '" + text + "'", e);
        }
    }
}
