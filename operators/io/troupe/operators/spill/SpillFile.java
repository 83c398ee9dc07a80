package io.troupe.operators.spill;

import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.types.DataType;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One spill file: batches of one schema ({@link #types()}), appended by one {@link SpillWriter},
 * then read back by any number of {@link SpillReader}s, each from the start. The file goes when
 * its query ends ({@link QuerySpill#releaseAll()}), or earlier when its operator has read it for the
 * last time ({@link #delete()}).
 *
 * <p>Its life, in named states: {@code WRITING} (the writer appends) then {@code WRITTEN}
 * ({@link SpillWriter#finish()}: readers may open) then {@code DELETED}.
 *
 * <h2>Concurrency</h2>
 * The writer is owned by one worker. {@link SpillWriter#finish()} publishes the file's length with a
 * volatile write of the state; readers opened after it (in a thread that saw the finish through the
 * executor's barrier or the operator's own publication) read with positional reads, which are
 * threadsafe on one channel. {@link #delete()} may come from any thread, once no reader reads.
 */
public final class SpillFile {

    /** The file's life. */
    enum State { WRITING, WRITTEN, DELETED }

    private final Path path;
    private final String label;
    private final DataType[] types;
    private final QuerySpill owner;
    private final FileChannel channel;
    /** Bytes written; final once WRITTEN. */
    private long length;
    private long rows;
    private volatile State state = State.WRITING;
    private boolean writerOpen;

    private SpillFile(Path path, String label, DataType[] types, QuerySpill owner, FileChannel channel) {
        this.path = path;
        this.label = label;
        this.types = types.clone();
        this.owner = owner;
        this.channel = channel;
    }

    static SpillFile create(Path path, String label, DataType[] types, QuerySpill owner) {
        try {
            FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    StandardOpenOption.READ);
            return new SpillFile(path, label, types, owner, channel);
        } catch (IOException e) {
            throw new QueryFailedException("query " + owner.queryId() + ": " + label + " cannot make the spill file "
                    + path + ": " + e.getMessage(), e);
        }
    }

    public Path path() {
        return path;
    }

    public String label() {
        return label;
    }

    /** The column types of every batch in the file. */
    public DataType[] types() {
        return types.clone();
    }

    /** Bytes in the file (final once written). */
    public long length() {
        return length;
    }

    /** Rows in the file (final once written). */
    public long rows() {
        return rows;
    }

    /** The file's only writer, buffering {@link SpillWriter#BUFFER_BYTES} before each write. */
    public SpillWriter writer() {
        return writer(SpillWriter.BUFFER_BYTES);
    }

    /**
     * The file's only writer, buffering {@code bufferBytes} before each write: less for an operator
     * that keeps many files open at once (a hash join's partitions), whose buffers its budget holds.
     */
    public synchronized SpillWriter writer(int bufferBytes) {
        if (writerOpen || state != State.WRITING) {
            throw new IllegalStateException(label + ": a spill file has one writer");
        }
        writerOpen = true;
        return new SpillWriter(this, bufferBytes);
    }

    /** A reader from the first batch; the file must be written. */
    public SpillReader reader() {
        return reader(0, length);
    }

    /**
     * A reader of the blocks in bytes {@code from .. to} only, positions a writer gave by
     * {@link SpillWriter#position()} (the file must be written).
     */
    public SpillReader reader(long from, long to) {
        if (state != State.WRITTEN) {
            throw new IllegalStateException(label + ": read in state " + state + ", expected WRITTEN");
        }
        if (from < 0 || from > to || to > length) {
            throw new IllegalArgumentException(label + ": no range " + from + ".." + to + " in a file of " + length
                    + " bytes");
        }
        return new SpillReader(this, from, to);
    }

    /** Closes and deletes the file, giving its bytes back to the cap. Idempotent. */
    public synchronized void delete() {
        if (state == State.DELETED) {
            return;
        }
        state = State.DELETED;
        try {
            channel.close();
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new QueryFailedException("query " + owner.queryId() + ": cannot delete the spill file " + path
                    + ": " + e.getMessage(), e);
        } finally {
            owner.release(length);
        }
    }

    // ------------------------------------------------------------------ for the writer and readers

    /**
     * Appends {@code bytes} at the end (the writer's thread only). The bytes are counted under the
     * file's monitor, which {@link #delete()} takes too: a writer racing its query's release either
     * counts them before the delete gives the file's length back, or fails.
     */
    void append(java.nio.ByteBuffer bytes, int blockRows) {
        int count = bytes.remaining();
        long at;
        synchronized (this) {
            if (state == State.DELETED) {
                throw new QueryFailedException("query " + owner.queryId() + ": " + label
                        + " writes to its spill file after it was deleted (the query ended)");
            }
            owner.hold(count, label);
            at = length;
            length += count;
        }
        try {
            while (bytes.hasRemaining()) {
                at += channel.write(bytes, at);
            }
        } catch (IOException e) {
            throw new QueryFailedException("query " + owner.queryId() + ": " + label + " cannot write the spill file "
                    + path + ": " + e.getMessage(), e);
        }
        rows += blockRows;
    }

    /** The writer finished: readers may open. */
    void written() {
        state = State.WRITTEN;
    }

    /** Reads {@code into.remaining()} bytes at {@code position} (any reader's thread). */
    void read(java.nio.ByteBuffer into, long position) {
        try {
            long at = position;
            while (into.hasRemaining()) {
                int n = channel.read(into, at);
                if (n < 0) {
                    throw new IllegalStateException(label + ": spill file " + path + " ends at " + at
                            + ", before the block the reader expected");
                }
                at += n;
            }
        } catch (IOException e) {
            throw new QueryFailedException("query " + owner.queryId() + ": " + label + " cannot read the spill file "
                    + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "SpillFile[" + label + ", " + path.getFileName() + ", " + rows + " rows, " + length + " bytes, " + state + "]";
    }
}
