package io.troupe.operators.sort;

import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillReader;
import io.troupe.operators.types.DataType;

/**
 * A sorted run that a sort wrote to a spill file ({@link ExternalMerge}): its rows in sorted order,
 * in the sort's output columns, in batches of at most {@link #maxBatchRows()} rows and
 * {@link #maxBatchBytes()} bytes, which is what reading it back costs in memory.
 *
 * <p>Immutable once written. One merge reads it, once; then its file is deleted
 * ({@link #delete()}), or with its query however that ends.
 */
final class SpilledRun {

    private final SpillFile file;
    private final long maxBatchBytes;
    private final int maxBatchRows;

    SpilledRun(SpillFile file, long maxBatchBytes, int maxBatchRows) {
        this.file = file;
        this.maxBatchBytes = maxBatchBytes;
        this.maxBatchRows = maxBatchRows;
    }

    /** Rows in the run. */
    long rows() {
        return file.rows();
    }

    /** Bytes in its file. */
    long fileBytes() {
        return file.length();
    }

    /** The most bytes of heap one batch of it takes once read back. */
    long maxBatchBytes() {
        return maxBatchBytes;
    }

    /** The most rows one batch of it holds. */
    int maxBatchRows() {
        return maxBatchRows;
    }

    /** The types of its columns. */
    DataType[] types() {
        return file.types();
    }

    /** A reader from its first row. */
    SpillReader reader() {
        return file.reader();
    }

    /** Deletes its file: once merged, it is not read again. Idempotent. */
    void delete() {
        file.delete();
    }

    @Override
    public String toString() {
        return "SpilledRun[" + file + "]";
    }
}
