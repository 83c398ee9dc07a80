package io.troupe.operators.scan;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.types.DataType;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code generate_series(start, stop)}: INT64 values start..stop inclusive, in batches of the
 * query's batch size. Readers claim batches from a shared counter (morsels), like a table scan.
 */
public final class SeriesSource implements Source {

    private final long start;
    private final long stop;

    public SeriesSource(long start, long stop) {
        this.start = start;
        this.stop = stop;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        int batchSize = ctx.batchSize();
        AtomicLong next = new AtomicLong(start);
        return () -> () -> {
            long first = next.getAndAdd(batchSize);
            if (first > stop || first < start) {
                return null;
            }
            int n = (int) Math.min(batchSize, stop - first + 1);
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = first + i;
            }
            return Batch.of(n, new LongVector(DataType.INT64, values));
        };
    }
}
