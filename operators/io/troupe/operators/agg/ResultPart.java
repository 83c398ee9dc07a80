package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;

/**
 * Part of a hash aggregate's result: the finished groups of one merge unit, held in memory (an
 * {@link Aggregation}) or written to a spill file ({@link SpilledResult}), read in morsels of at
 * most a batch each. Read-only once published, and threadsafe: readers only read.
 */
interface ResultPart {

    /** Output rows (groups). */
    int rowCount();

    /** Morsels of at most {@code batchSize} rows. */
    int morselCount(int batchSize);

    /** Morsel {@code m} (below {@link #morselCount}): group keys, then aggregates. */
    Batch morsel(int m, int batchSize);
}
