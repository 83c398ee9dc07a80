package io.troupe.operators.sort;

import java.util.List;

/**
 * The output of a sort, as its sink publishes it: what each of its workers that received rows
 * produced ({@link WorkerRuns}: a run in memory and the runs it spilled, each in its own order), and
 * the window of the merged order the query wants (all rows for ORDER BY; rows offset..offset+count
 * for a top-N, whose every run already holds at most offset+count rows).
 *
 * <p>Nothing is merged here: the reader of the sort's output merges, a slice at a time. Either one
 * {@link SortedSource} reader merges every run and applies the window (the leader alone, or any
 * sorted output not fed to a Gather Merge), or each worker merges its own runs into one stream
 * ({@link SortedSource#streams}) and a Gather Merge merges the streams and applies the window
 * ({@link StreamMerger}). So the sort's finalize costs nothing and the runs' CPU work stays with the
 * workers that sorted them. When nothing spilled every worker has one run in memory, read in place;
 * else the readers merge through the sort's {@link ExternalMerge}.
 *
 * <p>Immutable once published, and threadsafe.
 */
public final class SortedResult {

    private final SortSpec spec;
    private final List<WorkerRuns> workers;
    private final long offset;
    private final long count;
    private final ExternalMerge spill;
    private final boolean spilled;

    /**
     * @param workers what each worker produced (none when no row arrived)
     * @param offset  merged rows to skip
     * @param count   merged rows to keep after them ({@code Long.MAX_VALUE}: all)
     * @param spill   the sort's merge of spilled runs, or null when spilling is off
     */
    SortedResult(SortSpec spec, List<WorkerRuns> workers, long offset, long count, ExternalMerge spill) {
        if (offset < 0 || count < 0) {
            throw new IllegalArgumentException("LIMIT and OFFSET must not be negative: count=" + count
                    + ", offset=" + offset + " (" + spec.label() + ")");
        }
        this.spec = spec;
        this.workers = List.copyOf(workers);
        this.offset = offset;
        this.count = count;
        this.spill = spill;
        this.spilled = this.workers.stream().anyMatch(WorkerRuns::hasSpilled);
        if (spilled && spill == null) {
            throw new IllegalArgumentException(spec.label() + ": spilled runs and no merge to read them");
        }
    }

    public SortSpec spec() {
        return spec;
    }

    /** What each worker produced, in the order the workers finished. */
    List<WorkerRuns> workers() {
        return workers;
    }

    /** True when some run went to a spill file. */
    boolean spilled() {
        return spilled;
    }

    /** The merge of spilled runs (null when spilling is off). */
    ExternalMerge spill() {
        return spill;
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
        for (WorkerRuns w : workers) {
            total += w.rows();
        }
        long end = Math.min(total, saturatedAdd(offset, count));
        return Math.max(0, end - offset);
    }

    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
