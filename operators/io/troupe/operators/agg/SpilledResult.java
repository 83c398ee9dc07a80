package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillWriter;

/**
 * A part of a hash aggregate's result that went to a spill file instead of staying in memory (the
 * aggregate spilled, so its merged groups would not all fit): one block per morsel of the query's
 * batch size, which readers read at the positions written down, each on its own. Several parts
 * share a file (one per worker merging at a time, see {@link AggregateMemory#spillResult}), which
 * is finished before the result is published.
 *
 * <p>Immutable once written, and threadsafe: readers read with positional reads of their own.
 */
final class SpilledResult implements ResultPart {

    private final SpillFile file;
    /** Morsel m is the block in bytes starts[m] .. starts[m+1]. */
    private final long[] starts;
    private final int rows;
    private final int batchSize;

    private SpilledResult(SpillFile file, long[] starts, int rows, int batchSize) {
        this.file = file;
        this.starts = starts;
        this.rows = rows;
        this.batchSize = batchSize;
    }

    /**
     * Appends the output rows of {@code merged} (finished) to {@code file} through its
     * {@code writer}, a block per {@code batchSize} rows.
     */
    static SpilledResult write(Aggregation merged, SpillFile file, SpillWriter writer, int batchSize, ExecContext ctx) {
        int groups = merged.groupCount();
        int blocks = (groups + batchSize - 1) / batchSize;
        long[] starts = new long[blocks + 1];
        for (int b = 0; b < blocks; b++) {
            ctx.checkCancelled();
            starts[b] = writer.position();
            int from = b * batchSize;
            writer.write(merged.output(from, Math.min(batchSize, groups - from)));
        }
        starts[blocks] = writer.position();
        return new SpilledResult(file, starts, groups, batchSize);
    }

    long bytes() {
        return starts[starts.length - 1] - starts[0];
    }

    @Override
    public int rowCount() {
        return rows;
    }

    @Override
    public int morselCount(int batchSize) {
        if (batchSize != this.batchSize) {
            throw new IllegalStateException(file.label() + ": written in blocks of " + this.batchSize
                    + " rows, read in morsels of " + batchSize);
        }
        return starts.length - 1;
    }

    @Override
    public Batch morsel(int m, int batchSize) {
        return file.reader(starts[m], starts[m + 1]).next();
    }
}
