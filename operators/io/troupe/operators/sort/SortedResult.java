package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.QueryFailedException;

import java.util.List;

/**
 * The output of a sort: rows {@code start..end} of the merged order of its runs (all rows for
 * ORDER BY, rows offset..offset+count for a top-N). Published by {@link SortSink} and read by
 * {@link SortedSource}, which copies the rows out a batch at a time.
 *
 * <p>The merged order is held as (run, physical row) pairs; with one run, it is that run's own
 * order and no pairs are built.
 *
 * <p>Immutable and threadsafe.
 */
public final class SortedResult {

    private final SortedRun[] runs;
    private final int dataColumns;
    /** The run of each position, or null when there is one run. */
    private final int[] runOf;
    /** The physical row of each position in its run. */
    private final int[] rowOf;
    private final int start;
    private final int end;

    private SortedResult(SortedRun[] runs, int dataColumns, int[] runOf, int[] rowOf, int start, int end) {
        this.runs = runs;
        this.dataColumns = dataColumns;
        this.runOf = runOf;
        this.rowOf = rowOf;
        this.start = start;
        this.end = end;
    }

    /**
     * Merges {@code runs} and keeps merged positions {@code offset..offset+count}: the merge stops
     * once it has produced the last of them.
     */
    public static SortedResult merge(SortSpec spec, List<SortedRun> runs, long offset, long count) {
        long total = 0;
        for (SortedRun run : runs) {
            total += run.size();
        }
        long last = Math.min(total, saturatedAdd(offset, count));
        if (last > SortedRun.MAX_ROWS) {
            throw new QueryFailedException(spec.label() + ": the sorted result would have " + last
                    + " rows, more than the " + SortedRun.MAX_ROWS + " one result can hold");
        }
        int end = (int) last;
        int start = (int) Math.min(end, offset);
        SortedRun[] all = runs.toArray(new SortedRun[0]);
        if (all.length == 1) {
            return new SortedResult(all, spec.dataColumns(), null, all[0].order(), start, end);
        }
        int[] runOf = new int[end];
        int[] rowOf = new int[end];
        RunMerger merger = new RunMerger(runs);
        int at = 0;
        while (at < end) {
            at += merger.next(runOf, rowOf, at, end - at);
        }
        return new SortedResult(all, spec.dataColumns(), runOf, rowOf, start, end);
    }

    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** Rows of the result. */
    public int size() {
        return end - start;
    }

    /** Result rows {@code from..from+count} as one dense batch of the sort's output columns. */
    public Batch batch(int from, int count) {
        int at = start + from;
        if (runOf == null) {
            return runs[0].gather(at, count, dataColumns);
        }
        ColumnVector[] out = new ColumnVector[dataColumns];
        ColumnVector[] sources = new ColumnVector[runs.length];
        for (int c = 0; c < dataColumns; c++) {
            for (int r = 0; r < runs.length; r++) {
                sources[r] = runs[r].column(c);
            }
            out[c] = Columns.gather(sources, runOf, rowOf, at, count);
        }
        return Batch.of(count, out);
    }
}
