package io.troupe.operators.scan;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.CollectSink;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads the batches an earlier pipeline's {@link CollectSink} published (a shared subplan's result,
 * PostgreSQL's CTE Scan) without copying them: each kept batch is a morsel, claimed from one shared
 * counter as a table scan claims chunks, so the readers of one use run in parallel and read every
 * batch once. Any number of these sources may read one published result: the batches are immutable.
 *
 * <p>Immutable and threadsafe; {@link #open} must run after the producing pipeline finalized.
 */
public final class CollectedScanSource implements Source {

    private final StateKey<CollectSink.Collected> result;

    public CollectedScanSource(StateKey<CollectSink.Collected> result) {
        this.result = result;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        return morsels(ctx.lookup(result).batches());
    }

    /** An execution that reads {@code batches}, each a morsel claimed from one shared counter, without copying them. */
    public static SourceState morsels(List<Batch> batches) {
        AtomicInteger next = new AtomicInteger();
        return () -> () -> {
            int i = next.getAndIncrement();
            return i < batches.size() ? batches.get(i) : null;
        };
    }
}
