package io.troupe.cli.data;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Appends generated rows column by column into {@link VectorBuilder}s and cuts them into dense
 * batches of {@code batchRows} rows. The caller appends every column of a row, then calls
 * {@link #endRow()}. Reports finished batches' rows to a progress counter, so that a counter
 * shared by many threads is touched once a batch, not once a row; stops with a
 * {@link CancellationException} at a batch's end once its thread is interrupted.
 *
 * <p>Not threadsafe: one generation task owns it.
 */
final class ColumnsAppender {

    private final VectorBuilder[] columns;
    private final List<Batch> batches = new ArrayList<>();
    private final LongAdder progress;
    private int rows;

    ColumnsAppender(Schema schema, int batchRows, LongAdder progress) {
        this.columns = new VectorBuilder[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = new VectorBuilder(schema.type(c), batchRows);
        }
        this.progress = progress;
    }

    VectorBuilder column(int c) {
        return columns[c];
    }

    void endRow() {
        rows++;
        if (columns[0].isFull()) {
            flush();
        }
    }

    /** The batches of every row appended; the appender is spent. */
    List<Batch> finish() {
        flush();
        return batches;
    }

    private void flush() {
        if (rows == 0) {
            return;
        }
        // a failed or abandoned generation interrupts its pool: stop at the next batch
        if (Thread.currentThread().isInterrupted()) {
            throw new CancellationException("generation was cancelled");
        }
        ColumnVector[] vectors = new ColumnVector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            vectors[c] = columns[c].build();
        }
        batches.add(Batch.of(rows, vectors));
        progress.add(rows);
        rows = 0;
    }
}
