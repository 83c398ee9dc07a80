package io.troupe.operators.window;

import io.troupe.operators.types.Interval;

import java.math.BigDecimal;

/**
 * One end of a window frame ({@link WindowFrame}): UNBOUNDED PRECEDING or FOLLOWING, CURRENT ROW, or an offset
 * PRECEDING or FOLLOWING the current row. A ROWS frame's offset counts rows and a GROUPS frame's peer groups (a
 * Long); a RANGE frame's is a distance in the ORDER BY key's values: a Long (INT32, INT64, DECIMAL and FLOAT64
 * keys), a BigDecimal (DECIMAL and FLOAT64), a Double (FLOAT64) or a {@link Interval} (DATE). A zero offset
 * is CURRENT ROW, as it means the same in every kind of frame (the row, its peer group, the keys equal to its).
 *
 * <p>Immutable.
 *
 * @param preceding whether the bound lies before the current row; false for CURRENT ROW
 * @param offset    the distance; null for an unbounded end, {@code 0L} for CURRENT ROW
 */
public record FrameBound(boolean preceding, Object offset) {

    public static final FrameBound UNBOUNDED_PRECEDING = new FrameBound(true, null);
    public static final FrameBound UNBOUNDED_FOLLOWING = new FrameBound(false, null);
    public static final FrameBound CURRENT_ROW = new FrameBound(false, 0L);

    /**
     * @throws IllegalArgumentException for an offset of another class, a negative one or NaN (PostgreSQL: "invalid
     *                                  preceding or following size in window function")
     */
    public FrameBound {
        if (offset instanceof Integer || offset instanceof Short || offset instanceof Byte) {
            offset = ((Number) offset).longValue();
        } else if (offset instanceof Float f) {
            offset = f.doubleValue();
        }
        if (offset != null && !(offset instanceof Long || offset instanceof BigDecimal || offset instanceof Double
                || offset instanceof Interval)) {
            throw new IllegalArgumentException("a frame offset is an integer, a decimal, a double or an interval, "
                    + "not " + offset.getClass().getSimpleName() + " " + offset);
        }
        if (offset != null && negative(offset)) {
            throw new IllegalArgumentException("a frame offset must not be negative or NaN: " + offset
                    + (preceding ? " PRECEDING" : " FOLLOWING"));
        }
        if (offset != null && zero(offset)) {
            preceding = false;
            offset = 0L;
        }
    }

    /** {@code offset} rows, peer groups or key values before the current row; 0 is CURRENT ROW. */
    public static FrameBound preceding(Object offset) {
        return new FrameBound(true, java.util.Objects.requireNonNull(offset, "offset"));
    }

    /** {@code offset} rows, peer groups or key values after the current row; 0 is CURRENT ROW. */
    public static FrameBound following(Object offset) {
        return new FrameBound(false, java.util.Objects.requireNonNull(offset, "offset"));
    }

    public boolean unbounded() {
        return offset == null;
    }

    public boolean currentRow() {
        return Long.valueOf(0).equals(offset);
    }

    /** Whether the bound is a distance from the current row (neither unbounded nor CURRENT ROW). */
    public boolean hasOffset() {
        return offset != null && !currentRow();
    }

    /** The offset of a ROWS or GROUPS frame's bound, negative when PRECEDING. */
    long signedCount() {
        long n = (Long) offset;
        return preceding ? -n : n;
    }

    private static boolean negative(Object offset) {
        if (offset instanceof Long l) {
            return l < 0;
        } else if (offset instanceof BigDecimal d) {
            return d.signum() < 0;
        } else if (offset instanceof Double d) {
            return d.isNaN() || d < 0;
        }
        return ((Interval) offset).negative();
    }

    private static boolean zero(Object offset) {
        if (offset instanceof Long l) {
            return l == 0;
        } else if (offset instanceof BigDecimal d) {
            return d.signum() == 0;
        } else if (offset instanceof Double d) {
            return d == 0.0;
        }
        return ((Interval) offset).zero();
    }

    @Override
    public String toString() {
        if (offset == null) {
            return preceding ? "UNBOUNDED PRECEDING" : "UNBOUNDED FOLLOWING";
        }
        if (currentRow()) {
            return "CURRENT ROW";
        }
        String distance = offset instanceof BigDecimal d ? d.toPlainString()
                : offset instanceof Interval i ? "INTERVAL '" + i + "'" : offset.toString();
        return distance + (preceding ? " PRECEDING" : " FOLLOWING");
    }
}
