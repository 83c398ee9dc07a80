package io.troupe.operators.spill;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;

import java.nio.ByteBuffer;

/**
 * Reads a written {@link SpillFile} back, or a range of its blocks, one block (one batch as it was
 * written) per {@link #next()}, each a fresh dense batch that the caller owns.
 *
 * <p>Not threadsafe: owned by one worker. Several readers may read one file at once.
 */
public final class SpillReader {

    private final SpillFile file;
    private final ByteBuffer length = SpillBlock.buffer(Integer.BYTES);
    /** Grown to the largest block read so far: a reader holds one block, not one write of blocks. */
    private ByteBuffer body = SpillBlock.buffer(0);
    private final int[] rows = new int[1];
    private long position;
    private final long end;

    /** Reads the blocks in bytes {@code from .. to} of {@code file}, which start and end blocks. */
    SpillReader(SpillFile file, long from, long to) {
        this.file = file;
        this.position = from;
        this.end = to;
    }

    /** The next batch, or null at the end of the range. */
    public Batch next() {
        if (position >= end) {
            return null;
        }
        length.clear();
        file.read(length, position);
        int bytes = length.getInt(0);
        if (bytes > body.capacity()) {
            body = SpillBlock.buffer(bytes);
        }
        body.clear().limit(bytes);
        file.read(body, position + Integer.BYTES);
        body.flip();
        position += Integer.BYTES + bytes;
        ColumnVector[] columns = SpillBlock.decode(file.types(), body, rows);
        return Batch.of(rows[0], columns);
    }
}
