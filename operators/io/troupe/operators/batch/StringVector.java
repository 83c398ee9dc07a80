package io.troupe.operators.batch;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * VARCHAR values as UTF-8, or BLOB values as they are: all bytes in one {@code byte[]}, row {@code r} at
 * {@code data[offsets[r] .. offsets[r + 1])}. Both order as unsigned bytes. See {@link ColumnVector} for the contract.
 *
 * <p>Written in ascending row order with {@link #put}; rows skipped over (not selected, or NULL)
 * become empty strings, so offsets stay monotonic and the vector encodes with two bulk copies.
 */
public final class StringVector extends ColumnVector {

    private byte[] data;
    private final int[] offsets;
    /** Rows whose offsets are final: put(row) requires row >= written. */
    private int written;

    public StringVector(int capacity) {
        this(capacity, Math.max(16, capacity * 8));
    }

    public StringVector(int capacity, int initialBytes) {
        this(DataType.VARCHAR, capacity, initialBytes);
    }

    /** An empty vector of {@code type}, VARCHAR or BLOB ({@link io.troupe.operators.types.PhysicalType#BYTES}). */
    public StringVector(DataType type, int capacity, int initialBytes) {
        super(type, capacity);
        this.data = new byte[initialBytes];
        this.offsets = new int[capacity + 1];
    }

    /** Wraps finished arrays (taken, not copied): {@code offsets.length} is rows + 1. */
    public StringVector(byte[] data, int[] offsets) {
        this(DataType.VARCHAR, data, offsets);
    }

    /** As {@link #StringVector(byte[], int[])}, of {@code type}. */
    public StringVector(DataType type, byte[] data, int[] offsets) {
        super(type, offsets.length - 1);
        this.data = data;
        this.offsets = offsets;
        this.written = offsets.length - 1;
    }

    public byte[] data() {
        return data;
    }

    public int[] offsets() {
        return offsets;
    }

    public int start(int row) {
        return offsets[row];
    }

    public int length(int row) {
        return offsets[row + 1] - offsets[row];
    }

    /** Sets row {@code row} to {@code len} bytes of {@code src}; rows must be written in order. */
    public void put(int row, byte[] src, int srcOffset, int len) {
        if (row < written) {
            throw new IllegalStateException("rows must be written in ascending order: row=" + row
                    + ", written=" + written);
        }
        int end = offsets[written];
        for (int r = written + 1; r <= row; r++) {
            offsets[r] = end;
        }
        ensureRoom(end + len);
        System.arraycopy(src, srcOffset, data, end, len);
        offsets[row + 1] = end + len;
        written = row + 1;
    }

    public void put(int row, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        put(row, bytes, 0, bytes.length);
    }

    /** Marks {@code row} NULL (an empty slot); rows must be written in order. */
    public void putNull(int row) {
        put(row, data, 0, 0);
        setNull(row);
    }

    /** Completes the offsets up to {@code capacity()} after sparse writes. */
    public StringVector seal() {
        int end = offsets[written];
        for (int r = written + 1; r <= capacity(); r++) {
            offsets[r] = end;
        }
        written = capacity();
        return this;
    }

    public String getString(int row) {
        return new String(data, offsets[row], offsets[row + 1] - offsets[row], StandardCharsets.UTF_8);
    }

    /** Unsigned byte order of row {@code row} against {@code other}'s row {@code otherRow}: UTF-8 code point order. */
    public int compare(int row, StringVector other, int otherRow) {
        return Arrays.compareUnsigned(data, offsets[row], offsets[row + 1],
                other.data, other.offsets[otherRow], other.offsets[otherRow + 1]);
    }

    public boolean equals(int row, StringVector other, int otherRow) {
        return Arrays.equals(data, offsets[row], offsets[row + 1],
                other.data, other.offsets[otherRow], other.offsets[otherRow + 1]);
    }

    /** A 32-bit hash of the row's bytes (FNV-1a), stable across vectors. */
    public int hash(int row) {
        int h = 0x811C9DC5;
        for (int i = offsets[row], end = offsets[row + 1]; i < end; i++) {
            h = (h ^ (data[i] & 0xFF)) * 0x01000193;
        }
        return h;
    }

    private void ensureRoom(int bytes) {
        if (bytes > data.length) {
            data = Arrays.copyOf(data, Math.max(bytes, data.length * 2));
        }
    }

    @Override
    public StringVector gather(int[] rows, int count) {
        int bytes = 0;
        for (int i = 0; i < count; i++) {
            bytes += length(rows[i]);
        }
        StringVector out = new StringVector(type(), count, Math.max(16, bytes));
        for (int i = 0; i < count; i++) {
            out.put(i, data, offsets[rows[i]], length(rows[i]));
        }
        out.seal();
        gatherValidity(out, rows, count);
        return out;
    }

    /** Shares the bytes; the offsets too once sealed, else a sealed copy of them (this one is not written). */
    @Override
    public StringVector withValidity(long[] bitmap) {
        int[] finished = offsets;
        if (written < capacity()) {
            finished = Arrays.copyOf(offsets, capacity() + 1);
            Arrays.fill(finished, written + 1, capacity() + 1, offsets[written]);
        }
        StringVector out = new StringVector(type(), data, finished);
        out.setValidity(bitmap);
        return out;
    }

    /** The row's bytes, a copy. */
    public byte[] getBytes(int row) {
        return Arrays.copyOfRange(data, offsets[row], offsets[row + 1]);
    }

    /** A String, or a BLOB's byte[]. */
    @Override
    public Object getObject(int row) {
        if (isNull(row)) {
            return null;
        }
        return type().id() == TypeId.BLOB ? getBytes(row) : getString(row);
    }

    @Override
    protected long valueBytes() {
        return data.length + (long) offsets.length * Integer.BYTES;
    }
}
