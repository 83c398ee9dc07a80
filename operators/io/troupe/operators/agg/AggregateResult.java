package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;

/**
 * What a {@link HashAggregateSink} publishes for its {@link HashAggregateSource}: the finished
 * aggregation, one row per group, in parts (the partitions merged by different workers, or one
 * part). Immutable once published, and threadsafe: readers only read.
 */
public final class AggregateResult {

    private final Aggregation[] parts;
    private final int rows;

    AggregateResult(Aggregation[] parts) {
        this.parts = parts.clone();
        long total = 0;
        for (Aggregation part : parts) {
            total += part.groupCount();
        }
        this.rows = Math.toIntExact(total);
    }

    /** Output rows (groups). */
    public int rowCount() {
        return rows;
    }

    /** Morsels of at most {@code batchSize} rows, none across two parts. */
    int morselCount(int batchSize) {
        int morsels = 0;
        for (Aggregation part : parts) {
            morsels += morselsOf(part, batchSize);
        }
        return morsels;
    }

    /** Morsel {@code m} (below {@link #morselCount}): group keys, then aggregates. */
    Batch morsel(int m, int batchSize) {
        for (Aggregation part : parts) {
            int inPart = morselsOf(part, batchSize);
            if (m < inPart) {
                int from = m * batchSize;
                return part.output(from, Math.min(batchSize, part.groupCount() - from));
            }
            m -= inPart;
        }
        throw new IndexOutOfBoundsException("no morsel " + m);
    }

    private static int morselsOf(Aggregation part, int batchSize) {
        return (part.groupCount() + batchSize - 1) / batchSize;
    }
}
