package io.troupe.operators.window;

/**
 * The rows of its partition that a framed window function reads for each row: SQL's
 * {@code ROWS BETWEEN start AND end}, or {@code RANGE BETWEEN ...} with UNBOUNDED and CURRENT ROW bounds only,
 * where CURRENT ROW means the row's peers (the rows that tie with it on the ORDER BY keys) too. A bound is an
 * offset from the current row: negative for PRECEDING, 0 for CURRENT ROW, positive for FOLLOWING, and
 * {@link #UNBOUNDED_PRECEDING} / {@link #UNBOUNDED_FOLLOWING} for the partition's ends. SQL's default frame,
 * {@link #DEFAULT}, is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: with an ORDER BY the rows up to the
 * current one and its peers; without one every row is a peer, so the whole partition.
 *
 * <p>Immutable.
 */
public record WindowFrame(boolean rows, long start, long end) {

    public static final long UNBOUNDED_PRECEDING = Long.MIN_VALUE;
    public static final long UNBOUNDED_FOLLOWING = Long.MAX_VALUE;
    public static final long CURRENT_ROW = 0;

    /** RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: SQL's frame when none is written. */
    public static final WindowFrame DEFAULT = new WindowFrame(false, UNBOUNDED_PRECEDING, CURRENT_ROW);

    /**
     * @throws IllegalArgumentException for a frame that starts at UNBOUNDED FOLLOWING or ends at UNBOUNDED
     *                                  PRECEDING, or a RANGE frame with an offset
     */
    public WindowFrame {
        if (start == UNBOUNDED_FOLLOWING || end == UNBOUNDED_PRECEDING) {
            throw new IllegalArgumentException("a frame cannot start at UNBOUNDED FOLLOWING or end at UNBOUNDED "
                    + "PRECEDING: " + text(rows, start, end));
        }
        if (!rows && (offset(start) || offset(end))) {
            throw new IllegalArgumentException("a RANGE frame with an offset (" + text(rows, start, end)
                    + "): only UNBOUNDED and CURRENT ROW bounds; use ROWS for offsets");
        }
    }

    /** ROWS BETWEEN start AND end, each an offset from the current row (negative: PRECEDING) or unbounded. */
    public static WindowFrame rows(long start, long end) {
        return new WindowFrame(true, start, end);
    }

    /** RANGE BETWEEN start AND end, each {@link #UNBOUNDED_PRECEDING}, {@link #CURRENT_ROW} or UNBOUNDED_FOLLOWING. */
    public static WindowFrame range(long start, long end) {
        return new WindowFrame(false, start, end);
    }

    private static boolean offset(long bound) {
        return bound != UNBOUNDED_PRECEDING && bound != UNBOUNDED_FOLLOWING && bound != CURRENT_ROW;
    }

    @Override
    public String toString() {
        return text(rows, start, end);
    }

    private static String text(boolean rows, long start, long end) {
        return (rows ? "ROWS" : "RANGE") + " BETWEEN " + bound(start) + " AND " + bound(end);
    }

    private static String bound(long offset) {
        if (offset == UNBOUNDED_PRECEDING) {
            return "UNBOUNDED PRECEDING";
        }
        if (offset == UNBOUNDED_FOLLOWING) {
            return "UNBOUNDED FOLLOWING";
        }
        if (offset == CURRENT_ROW) {
            return "CURRENT ROW";
        }
        return offset < 0 ? -offset + " PRECEDING" : offset + " FOLLOWING";
    }
}
