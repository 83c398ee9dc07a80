package io.troupe.operators.window;

import io.troupe.operators.types.DataType;

import java.util.List;

/**
 * The rows of its partition that a framed window function reads for each row, as SQL (and PostgreSQL) define
 * them: {@code ROWS | RANGE | GROUPS BETWEEN start AND end [EXCLUDE ...]}.
 * <ul>
 *   <li>ROWS counts rows from the current one;</li>
 *   <li>RANGE compares the ORDER BY key's values: CURRENT ROW means the row's peers (the rows that tie with it on
 *       the ORDER BY keys) too, and an offset (one ORDER BY key only) takes the rows whose key lies within that
 *       distance of the row's ({@link RangeOffsets}); a row whose key is NULL has its NULL peers for frame;</li>
 *   <li>GROUPS counts peer groups from the current row's.</li>
 * </ul>
 * The {@link Exclusion} then takes rows out of the frame. SQL's default frame, {@link #DEFAULT}, is RANGE BETWEEN
 * UNBOUNDED PRECEDING AND CURRENT ROW: with an ORDER BY the rows up to the current one and its peers; without
 * one every row is a peer, so the whole partition.
 *
 * <p>Immutable.
 */
public record WindowFrame(Unit unit, FrameBound start, FrameBound end, Exclusion exclusion) {

    /** What a frame's offsets count. */
    public enum Unit {
        ROWS, RANGE, GROUPS
    }

    /** The rows of the frame left out (SQL's EXCLUDE): none, the current row, its peer group, or its peers only. */
    public enum Exclusion {
        NO_OTHERS("NO OTHERS"),
        CURRENT_ROW("CURRENT ROW"),
        GROUP("GROUP"),
        TIES("TIES");

        private final String sql;

        Exclusion(String sql) {
            this.sql = sql;
        }

        public String sql() {
            return sql;
        }
    }

    /** RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: SQL's frame when none is written. */
    public static final WindowFrame DEFAULT = range(FrameBound.UNBOUNDED_PRECEDING, FrameBound.CURRENT_ROW);

    /**
     * @throws IllegalArgumentException for a frame that starts at UNBOUNDED FOLLOWING or ends at UNBOUNDED
     *                                  PRECEDING, one whose end lies before its start by kind (CURRENT ROW to a
     *                                  PRECEDING end, FOLLOWING to CURRENT ROW or PRECEDING), as PostgreSQL refuses
     *                                  them, or a ROWS or GROUPS offset that is not an integer
     */
    public WindowFrame {
        java.util.Objects.requireNonNull(unit, "unit");
        java.util.Objects.requireNonNull(start, "start");
        java.util.Objects.requireNonNull(end, "end");
        java.util.Objects.requireNonNull(exclusion, "exclusion");
        String text = text(unit, start, end, exclusion);
        if (start.equals(FrameBound.UNBOUNDED_FOLLOWING) || end.equals(FrameBound.UNBOUNDED_PRECEDING)) {
            throw new IllegalArgumentException("a frame cannot start at UNBOUNDED FOLLOWING or end at UNBOUNDED "
                    + "PRECEDING: " + text);
        }
        boolean startFollows = !start.preceding() && start.hasOffset();
        boolean endPrecedes = end.preceding() && !end.unbounded();
        if (start.currentRow() && endPrecedes || startFollows && (endPrecedes || end.currentRow())) {
            throw new IllegalArgumentException("a frame cannot end before it starts: " + text);
        }
        if (unit != Unit.RANGE && (!(start.unbounded() || start.offset() instanceof Long)
                || !(end.unbounded() || end.offset() instanceof Long))) {
            throw new IllegalArgumentException("a " + unit + " frame's offsets count " + (unit == Unit.ROWS ? "rows"
                    : "peer groups") + " and are integers: " + text);
        }
    }

    /** ROWS BETWEEN start AND end, without exclusion. */
    public static WindowFrame rows(FrameBound start, FrameBound end) {
        return new WindowFrame(Unit.ROWS, start, end, Exclusion.NO_OTHERS);
    }

    /** RANGE BETWEEN start AND end, without exclusion. */
    public static WindowFrame range(FrameBound start, FrameBound end) {
        return new WindowFrame(Unit.RANGE, start, end, Exclusion.NO_OTHERS);
    }

    /** GROUPS BETWEEN start AND end, without exclusion. */
    public static WindowFrame groups(FrameBound start, FrameBound end) {
        return new WindowFrame(Unit.GROUPS, start, end, Exclusion.NO_OTHERS);
    }

    /** This frame less {@code excluded}. */
    public WindowFrame excluding(Exclusion excluded) {
        return new WindowFrame(unit, start, end, excluded);
    }

    /**
     * Checks this frame against the window's ORDER BY keys, as PostgreSQL does: a RANGE frame with an offset takes
     * exactly one key, of a type its offsets measure ({@link RangeOffsets#check}); a GROUPS frame takes an ORDER
     * BY.
     *
     * @param orderKeys the types of the window's ORDER BY keys
     * @throws IllegalArgumentException naming the frame and what it lacks
     */
    public void check(List<DataType> orderKeys) {
        if (unit == Unit.GROUPS && orderKeys.isEmpty()) {
            throw new IllegalArgumentException(this + " needs an ORDER BY: GROUPS counts its peer groups");
        }
        if (measuresKeys()) {
            if (orderKeys.size() != 1) {
                throw new IllegalArgumentException(this + " needs exactly one ORDER BY key, got " + orderKeys.size()
                        + ": an offset measures the distance between two rows' keys");
            }
            for (FrameBound b : List.of(start, end)) {
                if (b.hasOffset()) {
                    RangeOffsets.check(orderKeys.get(0), b.offset(), this);
                }
            }
        }
    }

    /** Whether this is a RANGE frame with an offset, which measures distances between ORDER BY keys. */
    public boolean measuresKeys() {
        return unit == Unit.RANGE && (start.hasOffset() || end.hasOffset());
    }

    @Override
    public String toString() {
        return text(unit, start, end, exclusion);
    }

    private static String text(Unit unit, FrameBound start, FrameBound end, Exclusion exclusion) {
        return unit + " BETWEEN " + start + " AND " + end
                + (exclusion == Exclusion.NO_OTHERS ? "" : " EXCLUDE " + exclusion.sql());
    }
}
