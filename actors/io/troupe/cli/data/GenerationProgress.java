package io.troupe.cli.data;

import java.util.concurrent.atomic.LongAdder;

/**
 * How far a generation has come: rows made so far against the rows expected. The generating
 * threads add whole batches; any thread may read (a progress bar polls). The expected count is an
 * estimate for tables whose size the generator decides (line items, returns), so the fraction is
 * capped at 1.
 *
 * <p>Threadsafe.
 */
public final class GenerationProgress {

    final LongAdder rows = new LongAdder();
    private volatile long expectedRows;

    void expect(long rowCount) {
        this.expectedRows = rowCount;
    }

    public long rowsDone() {
        return rows.sum();
    }

    public long expectedRows() {
        return expectedRows;
    }

    /** Between 0 and 1. */
    public double fraction() {
        long expected = expectedRows;
        return expected <= 0 ? 0 : Math.min(1.0, (double) rowsDone() / expected);
    }
}
