package io.troupe.operators.spill;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.QueryFailedException;

import java.nio.ByteBuffer;

/**
 * Appends batches to a {@link SpillFile}: the live rows of each, encoded as a {@link SpillBlock}
 * into a buffer ({@link #BUFFER_BYTES} unless its file was asked for another size), which goes to
 * the file when full and at {@link #finish()}; a block larger than the buffer grows it. A write to the
 * file that fails (over {@code troupe.spill.max-size}, an I/O error) fails the writer: every later call
 * fails naming that error, so that the next user of a shared writer does not encode into a buffer the
 * failed write left half sent.
 *
 * <p>Not threadsafe: owned by one worker, or used under one lock.
 */
public final class SpillWriter {

    /** Bytes buffered before a write: large enough that a write is a few hundred rows or more. */
    public static final int BUFFER_BYTES = 256 * 1024;

    private final SpillFile file;
    private ByteBuffer buffer;
    private int bufferedRows;
    private boolean finished;
    /** Why a write to the file failed; null while none did. */
    private RuntimeException failed;

    SpillWriter(SpillFile file, int bufferBytes) {
        if (bufferBytes < 1) {
            throw new IllegalArgumentException(file.label() + ": a spill writer needs a buffer, got " + bufferBytes);
        }
        this.file = file;
        this.buffer = SpillBlock.buffer(bufferBytes);
    }

    /** Appends the live rows of {@code batch} (whose columns have the file's types). */
    public void write(Batch batch) {
        if (finished) {
            throw new IllegalStateException(file.label() + ": write after finish");
        }
        checkNotFailed();
        if (batch.size() == 0) {
            return;
        }
        Batch dense = batch.compact();
        ColumnVector[] columns = new ColumnVector[dense.columnCount()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = dense.column(c);
        }
        long bytes = SpillBlock.encodedBytes(columns, dense.size());
        if (bytes > buffer.remaining()) {
            flush();
            if (bytes > buffer.capacity()) {
                buffer = SpillBlock.buffer((int) Math.min(Integer.MAX_VALUE - 8, bytes));
            }
        }
        SpillBlock.encode(columns, dense.size(), buffer);
        bufferedRows += dense.size();
    }

    /**
     * Where in the file the block of the next batch written will start: with the position after it,
     * a range that {@link SpillFile#reader(long, long)} reads back alone (a partition of a file that
     * holds several). Does not write anything.
     */
    public long position() {
        if (finished) {
            throw new IllegalStateException(file.label() + ": position after finish");
        }
        checkNotFailed();
        return file.length() + buffer.position();
    }

    /** Writes what is buffered and makes the file readable. Idempotent. */
    public void finish() {
        if (finished) {
            return;
        }
        checkNotFailed();
        flush();
        finished = true;
        buffer = null;
        file.written();
    }

    private void flush() {
        if (buffer.position() == 0) {
            return;
        }
        buffer.flip();
        try {
            file.append(buffer, bufferedRows);
        } catch (RuntimeException e) {
            failed = e;
            throw e;
        }
        buffer.clear();
        bufferedRows = 0;
    }

    private void checkNotFailed() {
        if (failed != null) {
            throw new QueryFailedException(file.label() + ": an earlier write to its spill file failed: "
                    + failed.getMessage(), failed);
        }
    }
}
