package io.troupe.operators.types;

import java.util.Locale;

/**
 * The fields {@code EXTRACT} and {@code date_part} take from a DATE, TIMESTAMP or TIME, as PostgreSQL names and
 * counts them (DuckDB agrees): {@link #DOW} 0 for Sunday to 6, {@link #ISODOW} 1 for Monday to 7, {@link #WEEK}
 * and {@link #ISOYEAR} by ISO 8601 (weeks start on Monday; week 1 holds the year's first Thursday),
 * {@link #SECOND} the whole seconds, {@link #MILLISECOND} and {@link #MICROSECOND} the seconds with their
 * fraction in those units (30.25 s is 30250 ms), {@link #EPOCH} the seconds since 1970-01-01 00:00:00 (of a TIME,
 * since midnight), {@link #CENTURY} and {@link #MILLENNIUM} counted from 1 (the 21st century starts in 2001).
 * A DATE has a time of day of 00:00:00; a TIME has only the fields of a time of day.
 *
 * <p>Each field reads primitives only ({@link Dates}' calendar arithmetic), so a kernel allocates nothing.
 */
public enum DateField {
    YEAR,
    QUARTER,
    MONTH,
    WEEK,
    DAY,
    DOW,
    ISODOW,
    DOY,
    ISOYEAR,
    DECADE,
    CENTURY,
    MILLENNIUM,
    HOUR,
    MINUTE,
    SECOND,
    MILLISECOND,
    MICROSECOND,
    EPOCH;

    /**
     * The field a name spells, in any letter case, with the plurals and abbreviations PostgreSQL accepts
     * ({@code years}, {@code mon}, {@code hours}, {@code ms}, {@code us}).
     *
     * @throws IllegalArgumentException naming the unit when there is none of that name
     */
    public static DateField named(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "year", "years", "y", "yr", "yrs" -> YEAR;
            case "quarter", "quarters", "qtr" -> QUARTER;
            case "month", "months", "mon", "mons" -> MONTH;
            case "week", "weeks", "w" -> WEEK;
            case "day", "days", "d" -> DAY;
            case "dow", "dayofweek" -> DOW;
            case "isodow" -> ISODOW;
            case "doy", "dayofyear" -> DOY;
            case "isoyear" -> ISOYEAR;
            case "decade", "decades" -> DECADE;
            case "century", "centuries" -> CENTURY;
            case "millennium", "millennia", "millenium" -> MILLENNIUM;
            case "hour", "hours", "h", "hr", "hrs" -> HOUR;
            case "minute", "minutes", "m", "min", "mins" -> MINUTE;
            case "second", "seconds", "s", "sec", "secs" -> SECOND;
            case "millisecond", "milliseconds", "ms", "msec", "msecs" -> MILLISECOND;
            case "microsecond", "microseconds", "us", "usec", "usecs" -> MICROSECOND;
            case "epoch" -> EPOCH;
            default -> throw new IllegalArgumentException("unit \"" + name + "\" not recognized");
        };
    }

    /** True for the fields of a time of day, which a TIME has. */
    public boolean ofTimeOfDay() {
        return ordinal() >= HOUR.ordinal();
    }

    /** The field's value of a day number (DATE) at {@code micros} past its midnight. */
    public long of(int days, long micros) {
        return switch (this) {
            case YEAR -> Dates.year(days);
            case QUARTER -> (Dates.month(days) - 1) / 3 + 1;
            case MONTH -> Dates.month(days);
            case WEEK -> isoWeek(days);
            case DAY -> Dates.dayOfMonth(days);
            case DOW -> dayOfWeek(days);
            case ISODOW -> isoDayOfWeek(days);
            case DOY -> days - Dates.days(Dates.year(days), 1, 1) + 1;
            case ISOYEAR -> Dates.year(isoThursday(days));
            case DECADE -> Dates.year(days) / 10;
            case CENTURY -> ordinalOf(Dates.year(days), 100);
            case MILLENNIUM -> ordinalOf(Dates.year(days), 1000);
            default -> ofTime(micros);
        };
    }

    /** The field's value of a time of day; for the date fields, of the day's time at {@code micros}. */
    public long ofTime(long micros) {
        return switch (this) {
            case HOUR -> micros / Timestamps.MICROS_PER_HOUR;
            case MINUTE -> micros / Timestamps.MICROS_PER_MINUTE % 60;
            case SECOND -> micros / Timestamps.MICROS_PER_SECOND % 60;
            case MILLISECOND -> micros % Timestamps.MICROS_PER_MINUTE / 1000;
            case MICROSECOND -> micros % Timestamps.MICROS_PER_MINUTE;
            default -> throw new IllegalStateException(this + " is not a field of a time of day");
        };
    }

    /**
     * True for the fields an INTERVAL has, as PostgreSQL's {@code interval_part}: the years, quarter, months,
     * days and time of day, and the epoch; not the week or the days of a calendar (dow, doy, isoyear).
     */
    public boolean ofInterval() {
        return switch (this) {
            case WEEK, DOW, ISODOW, DOY, ISOYEAR -> false;
            default -> true;
        };
    }

    /**
     * The field's value of an INTERVAL's months, days and microseconds (EPOCH apart: {@link Interval#epoch}), each
     * field apart and of its own sign: {@code year} the months / 12, {@code month} the months % 12, {@code day}
     * the days, {@code hour} to {@code microsecond} of the microseconds (of {@code 1 day 25:00:00}, 25 hours).
     */
    public long ofInterval(int months, int days, long micros) {
        return switch (this) {
            case YEAR -> months / 12;
            case QUARTER -> months % 12 / 3 + 1;
            case MONTH -> months % 12;
            case DAY -> days;
            case DECADE -> months / 120;
            case CENTURY -> months / 1200;
            case MILLENNIUM -> months / 12000;
            default -> ofTime(micros);
        };
    }

    /** The field's value of a TIMESTAMP's microseconds (EPOCH apart: see {@link #epoch}). */
    public long ofTimestamp(long micros) {
        return of(Timestamps.day(micros), Timestamps.timeOfDay(micros));
    }

    /** Seconds since 1970-01-01 00:00:00 of a TIMESTAMP's microseconds, with their fraction. */
    public static double epoch(long micros) {
        return micros / (double) Timestamps.MICROS_PER_SECOND;
    }

    /** 0 for Sunday to 6 for Saturday (1970-01-01 was a Thursday). */
    private static int dayOfWeek(int days) {
        return Math.floorMod(days + 4, 7);
    }

    /** 1 for Monday to 7 for Sunday. */
    private static int isoDayOfWeek(int days) {
        int dow = dayOfWeek(days);
        return dow == 0 ? 7 : dow;
    }

    /** The Thursday of the ISO week of {@code days}, whose year is the ISO year. */
    private static int isoThursday(int days) {
        return days - isoDayOfWeek(days) + 4;
    }

    private static int isoWeek(int days) {
        int thursday = isoThursday(days);
        return (thursday - Dates.days(Dates.year(thursday), 1, 1)) / 7 + 1;
    }

    /** The century (span 100) or millennium (span 1000) of a year, counted from 1 both ways. */
    private static long ordinalOf(int year, int span) {
        return year > 0 ? (year - 1) / span + 1 : year / span - 1;
    }
}
