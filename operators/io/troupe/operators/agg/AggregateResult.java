package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;

import java.util.List;

/**
 * What a {@link HashAggregateSink} publishes for its {@link HashAggregateSource}: the finished
 * aggregation, one row per group, in parts (the partitions merged by different workers, or one
 * part; in memory, or in spill files when the aggregate spilled). Immutable once published, and
 * threadsafe: readers only read.
 */
public final class AggregateResult {

    private final ResultPart[] parts;
    private final int rows;

    AggregateResult(List<ResultPart> parts) {
        this.parts = parts.toArray(new ResultPart[0]);
        long total = 0;
        for (ResultPart part : this.parts) {
            total += part.rowCount();
        }
        this.rows = Math.toIntExact(total);
    }

    /** Output rows (groups). */
    public int rowCount() {
        return rows;
    }

    // visible for testing: more parts than partitions means a merge unit cut its partition again
    int partCount() {
        return parts.length;
    }

    /** Morsels of at most {@code batchSize} rows, none across two parts. */
    int morselCount(int batchSize) {
        int morsels = 0;
        for (ResultPart part : parts) {
            morsels += part.morselCount(batchSize);
        }
        return morsels;
    }

    /** Morsel {@code m} (below {@link #morselCount}): group keys, then aggregates. */
    Batch morsel(int m, int batchSize) {
        for (ResultPart part : parts) {
            int inPart = part.morselCount(batchSize);
            if (m < inPart) {
                return part.morsel(m, batchSize);
            }
            m -= inPart;
        }
        throw new IndexOutOfBoundsException("no morsel " + m);
    }
}
