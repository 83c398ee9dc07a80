package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;

/**
 * What a {@link HashAggregateSink} publishes for its {@link HashAggregateSource}: the finished
 * aggregation, one row per group. Immutable once published, and threadsafe: readers only read.
 */
public final class AggregateResult {

    private final Aggregation aggregation;

    AggregateResult(Aggregation aggregation) {
        this.aggregation = aggregation;
    }

    /** Output rows (groups). */
    public int rowCount() {
        return aggregation.groupCount();
    }

    /** Rows {@code from .. from+count-1}: group keys, then aggregates. */
    Batch rows(int from, int count) {
        return aggregation.output(from, count);
    }
}
