package io.troupe.operators.scan;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.exec.Source;
import io.troupe.operators.types.DataType;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code generate_series(start, stop)}: INT64 values start..stop inclusive, in batches of the
 * query's batch size. Readers claim batches from a shared counter (morsels), like a table scan,
 * and a query spread over nodes makes here only the batches of this node's {@link ScanShare}.
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
        ScanShare share = ctx.share(this);
        // The last batch's index, unsigned: stop - start may exceed Long.MAX_VALUE, and the count of
        // batches (this plus one) is 2^64 for the whole long range in batches of one.
        long last = Long.divideUnsigned(stop - start, batchSize);
        AtomicLong claims = new AtomicLong();
        return () -> () -> {
            long morsel = share.morsel(claims.getAndIncrement());
            if (start > stop || Long.compareUnsigned(morsel, last) > 0) {
                return null;
            }
            long first = start + morsel * batchSize;
            int n = Long.compareUnsigned(stop - first, batchSize - 1) >= 0 ? batchSize : (int) (stop - first + 1);
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = first + i;
            }
            return Batch.of(n, new LongVector(DataType.INT64, values));
        };
    }
}
