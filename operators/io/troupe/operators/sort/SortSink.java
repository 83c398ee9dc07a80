package io.troupe.operators.sort;

import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.memory.MemoryReservation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * ORDER BY, and ORDER BY with LIMIT/OFFSET (top-N), as a pipeline breaker.
 *
 * <h2>Phases</h2>
 * <ol>
 *   <li>Every worker (all): its {@link RunBuilder} buffers its batches, keeping at most
 *       offset+count rows for a top-N and within its share of the memory (the query's limit over
 *       the sink's locals), and at {@code finish()} sorts them into one {@link SortedRun} and adds
 *       it, or the runs it spilled on the way, to the shared list.</li>
 *   <li>{@code prepareFinalize} (once, single-threaded), only when some worker spilled: sizes the
 *       passes, if any, that bring the spilled runs down to what the readers can merge at once
 *       within the budget; every worker then runs its share of them ({@link ExternalMerge#premerge}).</li>
 *   <li>{@code finalizeSink} (once, single-threaded): publishes the runs and the window wanted
 *       (offset, count) as the {@link SortedResult} under the sink's key. It merges nothing: the
 *       reader does ({@link SortedSource}: one reader merging every run, or one stream per worker
 *       merged by a Gather Merge above the workers), so the sort's CPU work is the workers'.</li>
 * </ol>
 *
 * <h2>Memory</h2> One account per execution, shared by the workers, their merges and the readers:
 * EXPLAIN ANALYZE shows its peak and spilled bytes on the sort's node. What the builders keep and
 * sort is reserved before it is made; over the budget a builder spills its buffer as a sorted run
 * when {@code troupe.spill.enabled}, and fails with the budget's error when not.
 *
 * <h2>Concurrency</h2> Immutable and threadsafe. Per execution, the shared state is the list of
 * every worker's runs, guarded by its own monitor (one add per worker), the count of locals (atomic:
 * each builder reads it for its share), and the account (threadsafe); the executor's barriers order
 * the adds before {@code prepareFinalize} and its work before {@code finalizeSink}.
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
        MemoryReservation memory = ctx.memory().reservation(this, spec.label());
        ExternalMerge spill = ctx.spill().enabled() ? new ExternalMerge(spec, ctx, memory, keep) : null;
        List<WorkerRuns> runs = new ArrayList<>();
        AtomicInteger workers = new AtomicInteger();
        long limit = ctx.memory().limitBytes();
        LongSupplier share = () -> Math.max(0, limit / Math.max(1, workers.get()) - ExternalMerge.WRITE_ROOM);
        return new SinkState() {
            @Override
            public BatchConsumer local() {
                workers.incrementAndGet();
                return new RunBuilder(spec, keep, memory, spill, share, worker -> {
                    synchronized (runs) {
                        runs.add(worker);
                    }
                });
            }

            @Override
            public FinalizeWork prepareFinalize() {
                List<WorkerRuns> all = all();
                return all.stream().anyMatch(WorkerRuns::hasSpilled) ? spill.premerge(all) : FinalizeWork.NONE;
            }

            @Override
            public void finalizeSink() {
                ctx.publish(key, new SortedResult(spec, all(), offset, count, spill));
            }

            private List<WorkerRuns> all() {
                synchronized (runs) {
                    return List.copyOf(runs);
                }
            }
        };
    }

    @Override
    public String toString() {
        return spec.label();
    }
}
