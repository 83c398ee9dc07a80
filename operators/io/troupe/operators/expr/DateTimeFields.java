package io.troupe.operators.expr;

import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DateField;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Timestamps;

/**
 * The civil fields of one local time, which a {@link DateTimeFormat} writes: set once per row from the
 * microseconds ({@link #set}), read by each code of the format; the fields of weeks and ISO years are
 * computed when a code asks. Primitives only: a formatting kernel keeps one for all its rows.
 *
 * <p>Not threadsafe: one per evaluation.
 */
final class DateTimeFields {

    /** The day (days since 1970-01-01). */
    int days;
    /** The astronomical year: 0 is 1 BC, -1 is 2 BC. */
    int year;
    int month;
    int day;
    int hour;
    int minute;
    int second;
    /** The microseconds of the second. */
    int micros;
    /** The offset from UTC of the zone the time is local to, in seconds (0 for a TIMESTAMP). */
    int offsetSeconds;

    /** Row {@code r} of a DATE, TIMESTAMP, TIMESTAMP_TZ or TIME vector as microseconds: a DATE's midnight. */
    static long micros(ColumnVector v, int r) {
        return v instanceof IntVector days ? Timestamps.ofDay(days.get(r)) : ((LongVector) v).get(r);
    }

    /** Sets the fields of the local time {@code local} (microseconds), {@code offsetSeconds} east of UTC. */
    void set(long local, int offsetSeconds) {
        days = Timestamps.day(local);
        long time = Timestamps.timeOfDay(local);
        year = Dates.year(days);
        month = Dates.month(days);
        day = Dates.dayOfMonth(days);
        hour = (int) (time / Timestamps.MICROS_PER_HOUR);
        minute = (int) (time / Timestamps.MICROS_PER_MINUTE % 60);
        second = (int) (time / Timestamps.MICROS_PER_SECOND % 60);
        micros = (int) (time % Timestamps.MICROS_PER_SECOND);
        this.offsetSeconds = offsetSeconds;
    }

    /** 0 for Sunday to 6 for Saturday. */
    int dayOfWeek() {
        return (int) DateField.DOW.of(days, 0);
    }

    /** 1 for Monday to 7 for Sunday. */
    int isoDayOfWeek() {
        return (int) DateField.ISODOW.of(days, 0);
    }

    /** 1 for January 1st. */
    int dayOfYear() {
        return (int) DateField.DOY.of(days, 0);
    }

    int isoWeek() {
        return (int) DateField.WEEK.of(days, 0);
    }

    int isoYear() {
        return (int) DateField.ISOYEAR.of(days, 0);
    }

    /** The day of the ISO year: 1 for the Monday of its week 1. */
    int isoDayOfYear() {
        return (isoWeek() - 1) * 7 + isoDayOfWeek();
    }

    /**
     * The week of the year as C's strftime counts it, weeks starting on {@code monday ? Monday : Sunday}: the
     * days before the year's first such day are week 0.
     */
    int weekStartingOn(boolean monday) {
        int firstDay = (int) DateField.ISODOW.of(Dates.days(year, 1, 1), 0);
        int firstWeekStart = monday ? (firstDay == 1 ? 0 : 8 - firstDay) : 7 - firstDay;
        int dayOfYear = dayOfYear() - 1;
        return dayOfYear < firstWeekStart ? 0 : (dayOfYear - firstWeekStart) / 7 + 1;
    }
}
