package io.troupe.operators.sort;

import java.util.List;

/**
 * The output of a sort, as its sink publishes it: the sorted runs of its workers, one per worker
 * that received rows, each in its own order, and the window of the merged order the query wants
 * (all rows for ORDER BY; rows offset..offset+count for a top-N, whose every run already holds at
 * most offset+count rows).
 *
 * <p>Nothing is merged here: the reader of the sort's output merges, a slice at a time. Either one
 * {@link SortedSource} reader merges every run and applies the window (the leader alone, or any
 * sorted output not fed to a Gather Merge), or each worker streams one run ({@link SortedSource#streams})
 * and a Gather Merge merges the streams and applies the window ({@link StreamMerger}). So the sort's
 * finalize costs nothing and the runs' CPU work stays with the workers that sorted them.
 *
 * <p>Immutable and threadsafe.
 */
public final class SortedResult {

    private final SortSpec spec;
    private final List<SortedRun> runs;
    private final long offset;
    private final long count;

    /**
     * @param runs   the sorted runs (none when no row arrived)
     * @param offset merged rows to skip
     * @param count  merged rows to keep after them ({@code Long.MAX_VALUE}: all)
     */
    public SortedResult(SortSpec spec, List<SortedRun> runs, long offset, long count) {
        if (offset < 0 || count < 0) {
            throw new IllegalArgumentException("LIMIT and OFFSET must not be negative: count=" + count
                    + ", offset=" + offset + " (" + spec.label() + ")");
        }
        this.spec = spec;
        this.runs = List.copyOf(runs);
        this.offset = offset;
        this.count = count;
    }

    public SortSpec spec() {
        return spec;
    }

    /** The runs, in the order the workers finished. */
    public List<SortedRun> runs() {
        return runs;
    }

    /** Merged rows to skip. */
    public long offset() {
        return offset;
    }

    /** Merged rows to keep after the offset. */
    public long count() {
        return count;
    }

    /** Rows of the merged window: what a reader of the whole result emits. */
    public long size() {
        long total = 0;
        for (SortedRun run : runs) {
            total += run.size();
        }
        long end = Math.min(total, saturatedAdd(offset, count));
        return Math.max(0, end - offset);
    }

    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
