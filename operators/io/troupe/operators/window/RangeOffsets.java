package io.troupe.operators.window;

import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.IntToLongFunction;

/**
 * A RANGE frame's offset bound over its one ORDER BY key: PostgreSQL's {@code in_range(val, base, offset, sub,
 * less)}, which says whether the key {@code val} of a row lies within the bound {@code base - offset} (sub) or
 * {@code base + offset} of the current row's key {@code base}: {@code val <= bound} (less) or {@code val >= bound}.
 * {@link #aim} fixes the current row, {@link #within} then tests rows against it, so that the bound is computed
 * once per row while a frame's start and end move forward over the sorted keys.
 * <ul>
 *   <li>INT32, INT64 and DECIMAL keys (an exact integer of the key's scale): exact, a bound beyond a long lies
 *       beyond every key; a DECIMAL offset finer than the key's scale is rounded the way the test goes (the keys
 *       are multiples of the scale, so {@code val <= base + 0.015} at scale 2 is {@code val <= base + 0.01});</li>
 *   <li>FLOAT64 keys: IEEE arithmetic, NaN above every other value and equal to itself (as the sort orders it),
 *       and an infinite offset from an infinite key of the same sign ({@code +inf - inf}) taking every value but
 *       NaN, as PostgreSQL's {@code in_range_float8_float8};</li>
 *   <li>DATE, TIMESTAMP and TIMESTAMP WITH TIME ZONE keys: the key as microseconds since 1970-01-01 (a DATE its
 *       midnight), the offset a {@link Interval} added by the calendar. A TIMESTAMP WITH TIME ZONE takes
 *       intervals of fixed length only (hours to microseconds): days and months move it in the session's zone,
 *       which a frame does not carry;</li>
 *   <li>TIME keys: microseconds since midnight plus or minus the interval's microseconds, without wrapping past
 *       midnight, its days and months disregarded (PostgreSQL's {@code in_range_time_interval}).</li>
 * </ul>
 *
 * <p>Not threadsafe: each holds the row it aims from.
 */
abstract sealed class RangeOffsets {

    private static final long MAX_DAYS = Long.MAX_VALUE / Timestamps.MICROS_PER_DAY;

    /**
     * Checks that {@code offset} measures an ORDER BY key of type {@code key}, as PostgreSQL's in_range
     * functions exist: an integer for INT32 and INT64 keys, an integer or decimal for DECIMAL keys, any number for
     * FLOAT64 keys, an interval for DATE, TIMESTAMP and TIME keys, one of fixed length for TIMESTAMP_TZ keys.
     *
     * @throws IllegalArgumentException naming the frame, the key's type and what offsets it takes
     */
    static void check(DataType key, Object offset, WindowFrame frame) {
        String takes = switch (key.id()) {
            case INT32, INT64, INT16, INT8 -> offset instanceof Long ? null : "an integer";
            case DECIMAL -> offset instanceof Long || offset instanceof BigDecimal ? null : "an integer or a decimal";
            case FLOAT64, FLOAT32 -> offset instanceof Interval ? "a number" : null;
            case DATE, TIMESTAMP, TIME -> offset instanceof Interval ? null : "an interval";
            case TIMESTAMP_TZ -> offset instanceof Interval i && i.months() == 0 && i.days() == 0 ? null
                    : "an interval of hours, minutes or seconds (days and months move it in a time zone; order by "
                    + "CAST(key AS TIMESTAMP) for local days)";
            default -> "no";
        };
        if (takes != null) {
            throw new IllegalArgumentException(frame + ": an ORDER BY key of type " + key.sqlName() + " takes " + takes
                    + " offset" + (takes.equals("no") ? " (RANGE offsets measure numbers and dates)" : "")
                    + ", not " + offset);
        }
    }

    /** The arithmetic of {@code offset} over the key column {@code key}, which {@link #check} accepted. */
    static RangeOffsets of(ColumnVector key, DataType type, Object offset) {
        return switch (type.id()) {
            case INT32, INT64, DECIMAL, INT16, INT8 -> new ExactOffsets(key, exact(offset).movePointRight(type.scale()));
            case FLOAT64, FLOAT32 -> new DoubleOffsets((DoubleVector) key, ((Number) offset).doubleValue());
            case DATE -> new TimeOffsets(row -> dateMicros(((IntVector) key).get(row)), (Interval) offset);
            case TIMESTAMP, TIMESTAMP_TZ -> new TimeOffsets(((LongVector) key)::get, (Interval) offset);
            case TIME -> new ExactOffsets(key, BigDecimal.valueOf(((Interval) offset).micros()));
            default -> throw new IllegalArgumentException("no RANGE offsets over " + type);
        };
    }

    /** Fixes the bound: the key at {@code baseRow} (not NULL) less the offset when {@code sub}, else plus it. */
    abstract void aim(int baseRow, boolean sub, boolean less);

    /** Whether the key at {@code row} (not NULL) lies within the bound {@link #aim} fixed. */
    abstract boolean within(int row);

    private static BigDecimal exact(Object offset) {
        return offset instanceof BigDecimal d ? d : BigDecimal.valueOf((Long) offset);
    }

    /**
     * A DATE's midnight in microseconds since 1970-01-01; the few days beyond a long's microseconds (about
     * 290,000 years away) become its ends, which no other day's bound crosses.
     */
    private static long dateMicros(int days) {
        return Math.abs((long) days) > MAX_DAYS ? (days > 0 ? Long.MAX_VALUE : Long.MIN_VALUE)
                : days * Timestamps.MICROS_PER_DAY;
    }

    /** Keys read as longs, and a bound that may lie beyond every long. */
    private abstract static sealed class LongOffsets extends RangeOffsets {

        private final IntToLongFunction keys;
        private long bound;
        /** 1: the bound lies above every long; -1: below; 0: it is {@link #bound}. */
        private int beyond;
        private boolean less;

        LongOffsets(IntToLongFunction keys) {
            this.keys = keys;
        }

        /** The bound from {@code base}; sets {@link #beyond} when it lies past a long. */
        abstract long bound(long base, boolean sub, boolean less);

        final void beyond(int side) {
            beyond = side;
        }

        @Override
        final void aim(int baseRow, boolean sub, boolean less) {
            beyond = 0;
            bound = bound(keys.applyAsLong(baseRow), sub, less);
            this.less = less;
        }

        @Override
        final boolean within(int row) {
            if (beyond != 0) {
                return less == beyond > 0;
            }
            long val = keys.applyAsLong(row);
            return less ? val <= bound : val >= bound;
        }
    }

    /** Integer keys, and DECIMAL keys as their unscaled integers: exact. */
    private static final class ExactOffsets extends LongOffsets {

        /** The offset in key units, signed and rounded for each (sub, less): index {@code (sub ? 2 : 0) + (less ? 1 : 0)}. */
        private final long[] signed = new long[4];

        ExactOffsets(ColumnVector key, BigDecimal units) {
            super(key instanceof IntVector iv ? iv::get : ((LongVector) key)::get);
            for (int i = 0; i < 4; i++) {
                BigDecimal s = (i & 2) != 0 ? units.negate() : units;
                // val <= base + s takes the integers up to floor(s); val >= base + s those from ceil(s).
                s = s.setScale(0, (i & 1) != 0 ? RoundingMode.FLOOR : RoundingMode.CEILING);
                signed[i] = s.max(BigDecimal.valueOf(Long.MIN_VALUE)).min(BigDecimal.valueOf(Long.MAX_VALUE))
                        .longValueExact();
            }
        }

        @Override
        long bound(long base, boolean sub, boolean less) {
            long offset = signed[(sub ? 2 : 0) + (less ? 1 : 0)];
            long sum = base + offset;
            // Overflow only when both have the same sign and the sum has the other; a clamped offset then too.
            if (((base ^ sum) & (offset ^ sum)) < 0) {
                beyond(offset > 0 ? 1 : -1);
            }
            return sum;
        }
    }

    private static final class DoubleOffsets extends RangeOffsets {

        private final DoubleVector keys;
        private final double offset;
        private double base;
        private double bound;
        private boolean less;
        /** {@code +inf - inf} or {@code -inf + inf}: every value but NaN is within. */
        private boolean everyNumber;

        DoubleOffsets(DoubleVector keys, double offset) {
            this.keys = keys;
            this.offset = offset;
        }

        @Override
        void aim(int baseRow, boolean sub, boolean less) {
            base = keys.get(baseRow);
            everyNumber = Double.isInfinite(offset) && Double.isInfinite(base) && (sub ? base > 0 : base < 0);
            bound = sub ? base - offset : base + offset;
            this.less = less;
        }

        @Override
        boolean within(int row) {
            double val = keys.get(row);
            if (Double.isNaN(val)) {
                return Double.isNaN(base) || !less;
            }
            if (Double.isNaN(base)) {
                return less;
            }
            return everyNumber || (less ? val <= bound : val >= bound);
        }
    }

    /** Keys as microseconds since 1970-01-01, the offset an interval. */
    private static final class TimeOffsets extends LongOffsets {

        private final Interval interval;
        /** The interval negated, or null where a field cannot be (its negation then lies beyond every key). */
        private final Interval negated;

        TimeOffsets(IntToLongFunction micros, Interval interval) {
            super(micros);
            this.interval = interval;
            this.negated = negate(interval);
        }

        /** The base plus or minus the interval; one beyond a long's microseconds lies beyond every key. */
        @Override
        long bound(long base, boolean sub, boolean less) {
            try {
                if (sub && negated == null) {
                    throw new ArithmeticException("the interval's negation overflows");
                }
                return (sub ? negated : interval).addTo(base);
            } catch (ArithmeticException e) {
                long end = interval.negative() == sub ? Long.MAX_VALUE : Long.MIN_VALUE;
                beyond(end > 0 ? 1 : -1);
                return end;
            }
        }

        private static Interval negate(Interval interval) {
            try {
                return interval.negate();
            } catch (ArithmeticException e) {
                return null;
            }
        }
    }
}
