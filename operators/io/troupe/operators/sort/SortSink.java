package io.troupe.operators.sort;

import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;

import java.util.ArrayList;
import java.util.List;

/**
 * ORDER BY, and ORDER BY with LIMIT/OFFSET (top-N), as a pipeline breaker.
 *
 * <h2>Phases</h2>
 * <ol>
 *   <li>Every worker (all): its {@link RunBuilder} buffers its batches, keeping at most
 *       offset+count rows for a top-N, and at {@code finish()} sorts them into one
 *       {@link SortedRun} and adds it to the shared list.</li>
 *   <li>{@code finalizeSink} (once, single-threaded): publishes the runs and the window wanted
 *       (offset, count) as the {@link SortedResult} under the sink's key. It merges nothing: the
 *       reader does ({@link SortedSource}: one reader merging every run, or one stream per run
 *       merged by a Gather Merge above the workers), so the sort's CPU work is the workers'.</li>
 * </ol>
 *
 * <h2>Concurrency</h2> Immutable and threadsafe. Per execution, the only shared state is the
 * list of finished runs, guarded by its own monitor (one add per worker).
 */
public final class SortSink implements Sink {

    private final SortSpec spec;
    private final long offset;
    private final long count;
    private final StateKey<SortedResult> key;

    private SortSink(SortSpec spec, long offset, long count, StateKey<SortedResult> key) {
        if (offset < 0 || count < 0) {
            throw new IllegalArgumentException("LIMIT and OFFSET must not be negative: count=" + count
                    + ", offset=" + offset + " (" + spec.label() + ")");
        }
        this.spec = spec;
        this.offset = offset;
        this.count = count;
        this.key = key;
    }

    /** A full sort: every row, in order. */
    public static SortSink sort(SortSpec spec, StateKey<SortedResult> key) {
        return new SortSink(spec, 0, Long.MAX_VALUE, key);
    }

    /** A top-N: rows {@code offset..offset+count} of the sorted input. */
    public static SortSink topN(SortSpec spec, long count, long offset, StateKey<SortedResult> key) {
        return new SortSink(spec, offset, count, key);
    }

    @Override
    public String role() {
        return "sort";
    }

    @Override
    public SinkState open(ExecContext ctx) {
        int keep = count == 0 ? 0 : (int) Math.min(SortedRun.MAX_ROWS, SortedResult.saturatedAdd(offset, count));
        List<SortedRun> runs = new ArrayList<>();
        return new SinkState() {
            @Override
            public BatchConsumer local() {
                return new RunBuilder(spec, keep, run -> {
                    synchronized (runs) {
                        runs.add(run);
                    }
                });
            }

            @Override
            public void finalizeSink() {
                List<SortedRun> all;
                synchronized (runs) {
                    all = List.copyOf(runs);
                }
                ctx.publish(key, new SortedResult(spec, all, offset, count));
            }
        };
    }

    @Override
    public String toString() {
        return spec.label();
    }
}
