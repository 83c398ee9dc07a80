package io.troupe.operators.scan;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.exec.Source;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code generate_series} and {@code range}: one column of values from a start by a step, up to a stop (included
 * by generate_series, excluded by range), in batches of the query's batch size. Readers claim batches from a shared
 * counter (morsels), like a table scan, and a query spread over nodes makes here only the batches of this node's
 * {@link ScanShare}. Nothing is held: value {@code i} is computed from the start alone, so a series of any length
 * streams.
 *
 * <p>Two kinds of step: a fixed one ({@link #fixed}: integers, and TIMESTAMPs by microseconds, days counting 24
 * hours as in a timestamp without time zone), value {@code i} being {@code start + i * step}; and months
 * ({@link #monthly}: TIMESTAMPs), value {@code i} being the start moved {@code i * months} months with its day of the
 * month clamped to each month's last on the way, as PostgreSQL and DuckDB add the step again and again
 * (2024-01-31, 2024-02-29, 2024-03-29 ...). A step of months and days or time together has no such closed form and
 * is not made here.
 *
 * <p>Immutable and threadsafe.
 */
public final class SeriesSource implements Source {

    /** 400 Gregorian years: the months of the calendar repeat with this period. */
    private static final int CALENDAR_MONTHS = 4800;

    /** INT32, INT64 or TIMESTAMP. */
    private final DataType type;
    private final long start;
    /** The index of the last value, unsigned (a series of the whole long range has 2^64 values); unused when empty. */
    private final long last;
    private final boolean empty;
    /** A fixed step's value; unused by a monthly series. */
    private final long step;
    /** A monthly series' months per step; 0 for a fixed step. */
    private final int months;

    private SeriesSource(DataType type, long start, long last, boolean empty, long step, int months) {
        this.type = type;
        this.start = start;
        this.last = last;
        this.empty = empty;
        this.step = step;
        this.months = months;
    }

    /**
     * Values of {@code type} (INT32, INT64, or TIMESTAMP in microseconds) from {@code start} by {@code step}, while
     * they have not passed {@code stop}; with {@code inclusive} false, while they have not reached it.
     *
     * @throws IllegalArgumentException when {@code step} is 0
     */
    public static SeriesSource fixed(DataType type, long start, long stop, long step, boolean inclusive) {
        if (step == 0) {
            throw new IllegalArgumentException("a series' step must not be 0");
        }
        // The last value allowed: stop, or the one before it.
        long bound = inclusive ? stop : step > 0 ? stop - 1 : stop + 1;
        boolean empty = step > 0 ? start > bound || !inclusive && stop == Long.MIN_VALUE
                : start < bound || !inclusive && stop == Long.MAX_VALUE;
        // Unsigned: the distance may exceed Long.MAX_VALUE, and -Long.MIN_VALUE is 2^63 read unsigned.
        long last = empty ? 0 : Long.divideUnsigned(step > 0 ? bound - start : start - bound, step > 0 ? step : -step);
        return new SeriesSource(type, start, last, empty, step, 0);
    }

    /**
     * TIMESTAMPs (microseconds) from {@code start} by {@code months} months at a time, the day of the month clamped
     * on the way, while they have not passed {@code stop}; with {@code inclusive} false, while they have not reached
     * it.
     *
     * @throws IllegalArgumentException when {@code months} is 0
     */
    public static SeriesSource monthly(long start, long stop, int months, boolean inclusive) {
        if (months == 0) {
            throw new IllegalArgumentException("a series' step must not be 0");
        }
        SeriesSource probe = new SeriesSource(DataType.TIMESTAMP, start, 0, false, 0, months);
        if (!probe.within(start, stop, inclusive)) {
            return new SeriesSource(DataType.TIMESTAMP, start, 0, true, 0, months);
        }
        // Each value is a month further than the last, so the month count between start and stop bounds the index.
        long guess = Math.max(0, (monthIndex(stop) - monthIndex(start)) / months);
        while (guess > 0 && !probe.within(probe.valueAt(guess), stop, inclusive)) {
            guess--;
        }
        while (probe.within(probe.valueAt(guess + 1), stop, inclusive)) {
            guess++;
        }
        return new SeriesSource(DataType.TIMESTAMP, start, guess, false, 0, months);
    }

    /** How many values this source makes; Long.MAX_VALUE when more. */
    public long rows() {
        return empty ? 0 : last < 0 || last == Long.MAX_VALUE ? Long.MAX_VALUE : last + 1;
    }

    public DataType type() {
        return type;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        int batchSize = ctx.batchSize();
        ScanShare share = ctx.share(this);
        // The last batch's index, unsigned: the count of batches (this plus one) is 2^64 for the whole long range in
        // batches of one.
        long lastBatch = Long.divideUnsigned(last, batchSize);
        AtomicLong claims = new AtomicLong();
        return () -> () -> {
            long morsel = share.morsel(claims.getAndIncrement());
            if (empty || Long.compareUnsigned(morsel, lastBatch) > 0) {
                return null;
            }
            long first = morsel * batchSize;
            int n = Long.compareUnsigned(last - first, batchSize - 1) >= 0 ? batchSize : (int) (last - first + 1);
            return Batch.of(n, values(first, n));
        };
    }

    /** Values {@code first .. first + n - 1}. */
    private ColumnVector values(long first, int n) {
        if (type.id() == TypeId.INT32) {
            int[] values = new int[n];
            int v = (int) (start + first * step);
            for (int i = 0; i < n; i++, v += (int) step) {
                values[i] = v;
            }
            return new IntVector(type, values);
        }
        long[] values = new long[n];
        if (months == 0) {
            long v = start + first * step;
            for (int i = 0; i < n; i++, v += step) {
                values[i] = v;
            }
        } else {
            long v = valueAt(first);
            for (int i = 0; i < n; i++) {
                values[i] = v;
                v = plusMonths(v, months, Dates.dayOfMonth(Timestamps.day(v)));
            }
        }
        return new LongVector(type, values);
    }

    /**
     * Value {@code i} of a monthly series: the start moved {@code i * months} months, its day of the month the
     * smallest of the start's and of every month's length on the way (a clamp, once made, stays: the next step
     * starts from the clamped day). The calendar repeats every 4800 months, so no more of them need looking at.
     */
    private long valueAt(long i) {
        int startDay = Timestamps.day(start);
        int day = Dates.dayOfMonth(startDay);
        long month = monthIndex(start);
        for (long j = 1; j <= Math.min(i, CALENDAR_MONTHS) && day > 28; j++) {
            long m = month + j * months;
            day = Math.min(day, Dates.daysInMonth((int) Math.floorDiv(m, 12), (int) Math.floorMod(m, 12) + 1));
        }
        long target = month + i * months;
        return at(target, day, Timestamps.timeOfDay(start));
    }

    /** {@code micros} moved {@code by} months, its day of the month {@code day} clamped to the new month's last. */
    private static long plusMonths(long micros, int by, int day) {
        return at(monthIndex(micros) + by, day, Timestamps.timeOfDay(micros));
    }

    /** The timestamp of month {@code month} (years times 12 plus the month from 0), on {@code day} clamped, at {@code time}. */
    private static long at(long month, int day, long time) {
        int year = Math.toIntExact(Math.floorDiv(month, 12));
        int m = (int) Math.floorMod(month, 12) + 1;
        return Timestamps.ofDay(Dates.days(year, m, Math.min(day, Dates.daysInMonth(year, m)))) + time;
    }

    private static long monthIndex(long micros) {
        int day = Timestamps.day(micros);
        return Dates.year(day) * 12L + Dates.month(day) - 1;
    }

    /** Whether {@code value} has not passed {@code stop} in the step's direction (nor reached it, when exclusive). */
    private boolean within(long value, long stop, boolean inclusive) {
        int c = Long.compare(value, stop);
        int direction = months > 0 ? 1 : -1;
        return inclusive ? c * direction <= 0 : c * direction < 0;
    }
}
