package io.troupe.operators.agg;

import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The output side of a hash aggregate: emits the groups a {@link HashAggregateSink} published,
 * in batches of at most the query's batch size. Readers take morsels (batch-sized ranges of group
 * ids of one part) from one shared atomic counter, so several workers split the output without coordination.
 * Immutable and threadsafe; each execution's state is threadsafe, its readers are not.
 */
public final class HashAggregateSource implements Source {

    private final StateKey<AggregateResult> resultKey;

    public HashAggregateSource(StateKey<AggregateResult> resultKey) {
        this.resultKey = resultKey;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        AggregateResult result = ctx.lookup(resultKey);
        int batchSize = ctx.batchSize();
        int morsels = result.morselCount(batchSize);
        AtomicInteger nextMorsel = new AtomicInteger();
        return () -> () -> {
            int m = nextMorsel.getAndIncrement();
            return m < morsels ? result.morsel(m, batchSize) : null;
        };
    }
}
