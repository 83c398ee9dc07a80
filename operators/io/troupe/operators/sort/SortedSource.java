package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads the {@link SortedResult} a {@link SortSink} published, in order, in batches of
 * {@link ExecContext#batchSize()} rows.
 *
 * <p><b>One reader.</b> Order is the point of a sorted stream, and readers that split it would
 * each see a part and lose it. So the first {@link SourceState#reader()} of an execution gets
 * every row, and any later reader gets none: whatever number of workers an executor starts
 * above a sort, a single one sees the rows in the global order.
 *
 * <p>Immutable and threadsafe; per execution, the claim of the single reader is one atomic flag.
 */
public final class SortedSource implements Source {

    private final StateKey<SortedResult> key;

    public SortedSource(StateKey<SortedResult> key) {
        this.key = key;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        SortedResult result = ctx.lookup(key);
        int batchSize = ctx.batchSize();
        AtomicBoolean claimed = new AtomicBoolean();
        return () -> claimed.compareAndSet(false, true) ? new Reader(result, batchSize) : () -> null;
    }

    /** Emits the whole result, a batch at a time. Not threadsafe. */
    private static final class Reader implements SourceReader {
        private final SortedResult result;
        private final int batchSize;
        private int position;

        Reader(SortedResult result, int batchSize) {
            this.result = result;
            this.batchSize = batchSize;
        }

        @Override
        public Batch next() {
            int left = result.size() - position;
            if (left <= 0) {
                return null;
            }
            int n = Math.min(batchSize, left);
            Batch batch = result.batch(position, n);
            position += n;
            return batch;
        }
    }

    @Override
    public String toString() {
        return "Sorted " + key;
    }
}
