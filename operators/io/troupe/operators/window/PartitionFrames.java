package io.troupe.operators.window;

import io.troupe.operators.batch.ColumnVector;

/**
 * Each position's frame ({@link WindowFrame}) within a partition of a sorted part, as PostgreSQL computes it
 * ({@code update_frameheadpos}, {@code update_frametailpos}), in O(rows) a partition: the frame is positions
 * {@code start..end} (end exclusive, never before start; empty when the bounds cross), and its exclusion the
 * positions {@code cutStart..cutEnd} within it. So the frame's rows are, in order, {@code start..cutStart}, the
 * current row again under EXCLUDE TIES ({@link #keepsCurrent}), and {@code cutEnd..end}.
 * <ul>
 *   <li>ROWS: the position plus the offset, cut to the partition;</li>
 *   <li>GROUPS: the first or last position of the peer group that many groups away;</li>
 *   <li>RANGE CURRENT ROW: the row's first or last peer; RANGE with an offset: among the rows whose key is not
 *       NULL, the first that lies within the bound, and the first past the end's bound ({@link RangeOffsets}).
 *       Rows sorted by a key move both bounds forward only, so one pointer per bound walks the partition once;
 *       where a bound by the calendar falls back as the keys rise (a month from 01-31 10:00 ends before a month
 *       from 01-30 16:00), the pointer stays where it is, as PostgreSQL's does.
 *       A row whose key is NULL has its NULL peers for frame, and the NULL rows lie in no other row's frame unless
 *       an unbounded end reaches them: PostgreSQL's rule, NULLs as equal to each other and infinitely far from
 *       every value.</li>
 * </ul>
 * A frame's start and end (and its cut's) never move back from one position to the next, which
 * {@link PartitionFunctions} relies on for its queues.
 *
 * <p>Not threadsafe: part of one reader's {@link WindowPart}; its arrays span the part and are filled a partition
 * at a time.
 */
final class PartitionFrames {

    private final WindowFrame frame;
    private final int[] order;
    private final ColumnVector key;
    private final boolean ascending;
    /** RANGE frames with an offset: each offset bound's arithmetic over the key, else null. */
    private final RangeOffsets startOffsets;
    private final RangeOffsets endOffsets;
    private final int[] starts;
    private final int[] ends;
    private final int[] cutStarts;
    private final int[] cutEnds;
    /** GROUPS: each position's peer group, and each group's first position (by group number in the partition). */
    private final int[] groupOf;
    private final int[] groupFirst;

    /**
     * @param key       RANGE frames with an offset: the ORDER BY key's column (of the held rows); else ignored
     * @param ascending the key's direction
     */
    PartitionFrames(WindowFrame frame, int[] order, ColumnVector key, boolean ascending) {
        this.frame = frame;
        this.order = order;
        this.key = key;
        this.ascending = ascending;
        boolean measures = frame.measuresKeys();
        this.startOffsets = measures && frame.start().hasOffset()
                ? RangeOffsets.of(key, key.type(), frame.start().offset()) : null;
        this.endOffsets = measures && frame.end().hasOffset()
                ? RangeOffsets.of(key, key.type(), frame.end().offset()) : null;
        int n = order.length;
        this.starts = new int[n];
        this.ends = new int[n];
        boolean excludes = frame.exclusion() != WindowFrame.Exclusion.NO_OTHERS;
        this.cutStarts = excludes ? new int[n] : ends;
        this.cutEnds = excludes ? new int[n] : ends;
        boolean groups = frame.unit() == WindowFrame.Unit.GROUPS;
        this.groupOf = groups ? new int[n] : null;
        this.groupFirst = groups ? new int[n + 1] : null;
    }

    /** Bytes per row of the part the frames of one call hold at most: starts, ends, cuts, groups. */
    static final int BYTES_PER_ROW = 6 * Integer.BYTES;

    /** Computes the frames of positions {@code from..to}, one partition, whose peer groups are given. */
    void compute(int from, int to, int[] peerStart, int[] peerEnd) {
        int groupCount = frame.unit() == WindowFrame.Unit.GROUPS ? numberGroups(from, to, peerEnd) : 0;
        bound(frame.start(), true, from, to, peerStart, peerEnd, groupCount, starts);
        bound(frame.end(), false, from, to, peerStart, peerEnd, groupCount, ends);
        for (int pos = from; pos < to; pos++) {
            ends[pos] = Math.max(starts[pos], ends[pos]);
        }
        WindowFrame.Exclusion exclusion = frame.exclusion();
        if (exclusion != WindowFrame.Exclusion.NO_OTHERS) {
            for (int pos = from; pos < to; pos++) {
                boolean row = exclusion == WindowFrame.Exclusion.CURRENT_ROW;
                int cutStart = Math.min(Math.max(row ? pos : peerStart[pos], starts[pos]), ends[pos]);
                cutStarts[pos] = cutStart;
                cutEnds[pos] = Math.min(Math.max(row ? pos + 1 : peerEnd[pos], cutStart), ends[pos]);
            }
        }
    }

    int start(int pos) {
        return starts[pos];
    }

    int end(int pos) {
        return ends[pos];
    }

    /** The first excluded position of the frame of {@code pos} ({@link #end} when nothing is excluded). */
    int cutStart(int pos) {
        return cutStarts[pos];
    }

    /** The first position after the exclusion ({@link #end} when nothing is excluded). */
    int cutEnd(int pos) {
        return cutEnds[pos];
    }

    /** EXCLUDE TIES: whether the frame of {@code pos} holds {@code pos} itself, which its cut takes out. */
    boolean keepsCurrent(int pos) {
        return frame.exclusion() == WindowFrame.Exclusion.TIES && starts[pos] <= pos && pos < ends[pos];
    }

    /** Rows of the frame of {@code pos}, its exclusion left out. */
    int size(int pos) {
        return cutStarts[pos] - starts[pos] + ends[pos] - cutEnds[pos] + (keepsCurrent(pos) ? 1 : 0);
    }

    /** Numbers the peer groups of {@code from..to} from 0; returns how many there are. */
    private int numberGroups(int from, int to, int[] peerEnd) {
        int g = 0;
        for (int pos = from; pos < to; pos = peerEnd[pos]) {
            groupFirst[g] = pos;
            for (int p = pos; p < peerEnd[pos]; p++) {
                groupOf[p] = g;
            }
            g++;
        }
        groupFirst[g] = to;
        return g;
    }

    /** Fills {@code out} with each position's start (or end, exclusive) for {@code bound}. */
    private void bound(FrameBound bound, boolean isStart, int from, int to, int[] peerStart, int[] peerEnd,
                       int groupCount, int[] out) {
        if (bound.unbounded()) {
            java.util.Arrays.fill(out, from, to, bound.preceding() ? from : to);
            return;
        }
        boolean rows = frame.unit() == WindowFrame.Unit.ROWS;
        if (bound.currentRow()) {
            for (int pos = from; pos < to; pos++) {
                out[pos] = rows ? (isStart ? pos : pos + 1) : (isStart ? peerStart[pos] : peerEnd[pos]);
            }
            return;
        }
        switch (frame.unit()) {
            case ROWS -> {
                long delta = clamp(bound.signedCount(), to - from) + (isStart ? 0 : 1);
                for (int pos = from; pos < to; pos++) {
                    out[pos] = (int) Math.max(from, Math.min(to, pos + delta));
                }
            }
            case GROUPS -> {
                long delta = clamp(bound.signedCount(), groupCount) + (isStart ? 0 : 1);
                for (int pos = from; pos < to; pos++) {
                    out[pos] = groupFirst[(int) Math.max(0, Math.min(groupCount, groupOf[pos] + delta))];
                }
            }
            case RANGE -> range(bound, isStart, from, to, peerStart, peerEnd, out);
        }
    }

    /** {@code count} within {@code -limit-1..limit+1}: as far as any position of the partition, without overflow. */
    private static long clamp(long count, int limit) {
        return Math.max(-(long) limit - 1, Math.min((long) limit + 1, count));
    }

    /**
     * RANGE with an offset: the NULL-key rows (all at one end of the partition) take their peers' bound, the
     * others the first position, among the non-NULL ones, past which the bound lies.
     */
    private void range(FrameBound bound, boolean isStart, int from, int to, int[] peerStart, int[] peerEnd,
                       int[] out) {
        int first = from;
        while (first < to && key.isNull(order[first])) {
            first++;
        }
        int last = first;
        while (last < to && !key.isNull(order[last])) {
            last++;
        }
        for (int pos = from; pos < first; pos++) {
            out[pos] = isStart ? peerStart[pos] : peerEnd[pos];
        }
        for (int pos = last; pos < to; pos++) {
            out[pos] = isStart ? peerStart[pos] : peerEnd[pos];
        }
        // PostgreSQL's flags: the start takes keys >= its bound, the end keys <= its; a descending key flips both.
        boolean sub = bound.preceding() == ascending;
        boolean less = isStart != ascending;
        RangeOffsets offsets = isStart ? startOffsets : endOffsets;
        int pointer = first;
        for (int pos = first; pos < last; pos++) {
            offsets.aim(order[pos], sub, less);
            if (isStart) {
                while (pointer < last && !offsets.within(order[pointer])) {
                    pointer++;
                }
            } else {
                while (pointer < last && offsets.within(order[pointer])) {
                    pointer++;
                }
            }
            out[pos] = pointer;
        }
    }
}
