package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads the {@link SortedResult} a {@link SortSink} published, in batches of
 * {@link ExecContext#batchSize()} rows, in one of two ways.
 *
 * <p><b>One reader</b> ({@link #open}): order is the point of a sorted stream, and readers that
 * split it would each see a part and lose it. So the first {@link SourceState#reader()} of an
 * execution merges every run ({@link RunMerger}, a batch at a time) and emits the rows of the
 * result's window in the global order, and any later reader gets none: whatever number of workers
 * an executor starts above a sort, a single one sees the rows in order. The leader alone runs this
 * way, and so does any sorted output that no Gather Merge merges.
 *
 * <p><b>Streams</b> ({@link #streams}): for a Gather Merge above the workers. Each reader claims
 * one stream and emits the merge of one worker's runs (one run when it did not spill; the workers
 * {@code k, k+streams, ...} when the sort ran with more workers than there are streams), up to the
 * window's end, in the sort's output columns. The Gather Merge merges the streams and applies the
 * window ({@link StreamMerger}).
 *
 * <p>When nothing spilled, runs are read in place ({@code MergingReader}, {@link RunMerger}); when
 * something did, every reader merges through the sort's {@link ExternalMerge}, a batch at a time
 * from each run.
 *
 * <p>Immutable and threadsafe; per execution, readers are claimed with one atomic flag or counter.
 */
public final class SortedSource implements Source {

    private final StateKey<SortedResult> key;

    public SortedSource(StateKey<SortedResult> key) {
        this.key = key;
    }

    /** Where the sort published its result. */
    public StateKey<SortedResult> key() {
        return key;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        SortedResult result = ctx.lookup(key);
        int batchSize = ctx.batchSize();
        AtomicBoolean claimed = new AtomicBoolean();
        return () -> claimed.compareAndSet(false, true)
                ? reader(result, result.workers(), result.offset(), result.count(), batchSize)
                : () -> null;
    }

    /**
     * The merge of the runs of {@code workers}, its first {@code skip} rows skipped and at most
     * {@code limit} emitted: in place when nothing of the sort spilled, else through its external merge.
     */
    private static SourceReader reader(SortedResult result, List<WorkerRuns> workers, long skip, long limit,
                                       int batchSize) {
        List<SortedRun> inMemory = new ArrayList<>();
        List<SpilledRun> spilled = new ArrayList<>();
        for (WorkerRuns w : workers) {
            if (w.inMemoryRun() != null) {
                inMemory.add(w.inMemoryRun());
            }
            spilled.addAll(w.spilled());
        }
        if (!result.spilled()) {
            return new MergingReader(result.spec(), inMemory, skip, limit, batchSize);
        }
        return inMemory.isEmpty() && spilled.isEmpty() ? () -> null
                : result.spill().reader(inMemory, spilled, skip, limit);
    }

    /**
     * The same result as {@code streams} sorted streams, one per reader (readers past the last
     * stream get nothing), for a Gather Merge that merges them and applies the window.
     */
    public Streams streams(int streams) {
        return new Streams(this, streams);
    }

    /**
     * This sort's result as sorted streams ({@link SortedSource#streams}). It is made per execution,
     * after the plan was compiled, so it keeps the source it derives from: EXPLAIN ANALYZE counts its
     * readers for the plan node that source was compiled for.
     *
     * <p>Immutable and threadsafe; per execution, readers are claimed with one atomic counter.
     */
    public static final class Streams implements Source {
        private final SortedSource sorted;
        private final int streams;

        private Streams(SortedSource sorted, int streams) {
            if (streams < 1) {
                throw new IllegalArgumentException("a sorted source needs at least one stream, got " + streams);
            }
            this.sorted = sorted;
            this.streams = streams;
        }

        /** The source whose result these streams read. */
        public SortedSource sorted() {
            return sorted;
        }

        @Override
        public SourceState open(ExecContext ctx) {
            SortedResult result = ctx.lookup(sorted.key);
            int batchSize = ctx.batchSize();
            AtomicInteger next = new AtomicInteger();
            return () -> {
                int stream = next.getAndIncrement();
                List<WorkerRuns> mine = new ArrayList<>();
                for (int w = stream; w < result.workers().size(); w += streams) {
                    mine.add(result.workers().get(w));
                }
                // A stream needs no more rows than the window's end: the merge above skips and limits.
                long end = SortedResult.saturatedAdd(result.offset(), result.count());
                return mine.isEmpty() ? () -> null : reader(result, mine, 0, end, batchSize);
            };
        }

        @Override
        public String toString() {
            return "Sorted streams " + sorted.key;
        }
    }

    /**
     * Emits the merge of some runs, skipping its first {@code skip} rows and emitting at most
     * {@code limit}, a batch at a time: the merge advances one batch per {@link #next()}, so rows
     * past the window are never merged. Not threadsafe.
     */
    private static final class MergingReader implements SourceReader {
        private final SortedRun[] runs;
        private final int dataColumns;
        private final RunMerger merger;
        private final int batchSize;
        private final int[] runOf;
        private final int[] rowOf;
        private final ColumnVector[] sources;
        private long skip;
        private long left;

        MergingReader(SortSpec spec, List<SortedRun> runs, long skip, long limit, int batchSize) {
            this.runs = runs.toArray(new SortedRun[0]);
            this.dataColumns = spec.dataColumns();
            this.merger = new RunMerger(runs);
            this.batchSize = batchSize;
            this.runOf = new int[batchSize];
            this.rowOf = new int[batchSize];
            this.sources = new ColumnVector[this.runs.length];
            this.skip = skip;
            this.left = limit;
        }

        @Override
        public Batch next() {
            while (skip > 0 && !merger.isDone()) {
                skip -= merger.next(runOf, rowOf, 0, (int) Math.min(batchSize, skip));
            }
            if (left == 0 || merger.isDone()) {
                return null;
            }
            int n = merger.next(runOf, rowOf, 0, (int) Math.min(batchSize, left));
            left -= n;
            ColumnVector[] out = new ColumnVector[dataColumns];
            for (int c = 0; c < dataColumns; c++) {
                for (int r = 0; r < runs.length; r++) {
                    sources[r] = runs[r].column(c);
                }
                out[c] = Columns.gather(sources, runOf, rowOf, 0, n);
            }
            return Batch.of(n, out);
        }
    }

    @Override
    public String toString() {
        return "Sorted " + key;
    }
}
