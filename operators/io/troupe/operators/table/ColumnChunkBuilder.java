package io.troupe.operators.table;

import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * Appends the values of one column of one table chunk, for {@link DelimitedFileLoader}: the typed
 * appends of {@link io.troupe.operators.batch.VectorBuilder}, plus a size hint for VARCHAR bytes.
 * A chunk's text is sized from the previous chunk's, so that a column of strings is not copied
 * again and again as it grows (profiling a 1M-line load showed those copies as the largest cost
 * when the text started at the generic 8 bytes a row). {@link #finish()} hands the arrays to a
 * vector (trimmed when the chunk is short) and starts afresh.
 *
 * <p>Not threadsafe: one load owns it.
 */
final class ColumnChunkBuilder {

    /** Room for text grows by this part of the previous chunk's, so a like-sized chunk fits at once. */
    private static final int TEXT_SLACK_SHIFT = 3;
    /** Text bytes a row is given before any chunk has been measured. */
    private static final int FIRST_TEXT_BYTES_PER_ROW = 16;

    private final DataType type;
    private final int capacity;
    private int[] ints;
    private long[] longs;
    /** The low words of an INT128 column, whose high words are {@link #longs}. */
    private long[] lows;
    private double[] doubles;
    private byte[] booleans;
    private byte[] text;
    private int[] offsets;
    private int textBytes;
    private int nextTextCapacity;
    /** Null until the chunk's first NULL: an all-valid column costs nothing. */
    private long[] validity;
    private int size;

    ColumnChunkBuilder(DataType type, int capacity) {
        this.type = type;
        this.capacity = capacity;
        this.nextTextCapacity = (int) Math.min(Integer.MAX_VALUE - 16, (long) capacity * FIRST_TEXT_BYTES_PER_ROW);
        allocate();
    }

    private void allocate() {
        switch (type.physical()) {
            case INT -> ints = new int[capacity];
            case LONG -> longs = new long[capacity];
            case DOUBLE -> doubles = new double[capacity];
            case BOOLEAN -> booleans = new byte[capacity];
            case INT128 -> {
                longs = new long[capacity];
                lows = new long[capacity];
            }
            case BYTES -> {
                text = new byte[nextTextCapacity];
                offsets = new int[capacity + 1];
                textBytes = 0;
            }
        }
        validity = null;
        size = 0;
    }

    int size() {
        return size;
    }

    boolean isFull() {
        return size == capacity;
    }

    void appendInt(int value) {
        ints[size++] = value;
    }

    void appendLong(long value) {
        longs[size++] = value;
    }

    void appendInt128(long high, long low) {
        longs[size] = high;
        lows[size++] = low;
    }

    void appendDouble(double value) {
        doubles[size++] = value;
    }

    void appendBoolean(boolean value) {
        booleans[size++] = (byte) (value ? 1 : 0);
    }

    void appendBytes(byte[] src, int from, int length) {
        int end = textBytes + length;
        if (end > text.length) {
            text = Arrays.copyOf(text, Math.max(end, text.length * 2));
        }
        System.arraycopy(src, from, text, textBytes, length);
        textBytes = end;
        offsets[++size] = end;
    }

    void appendNull() {
        if (validity == null) {
            validity = Validity.allValid(capacity);
        }
        validity[size >>> 6] &= ~(1L << size);
        if (offsets != null) {
            offsets[size + 1] = textBytes;
        }
        size++;
    }

    /** The chunk's vector ({@link #size()} rows); the builder starts on a new chunk. */
    ColumnVector finish() {
        int n = size;
        boolean trim = n < capacity;
        ColumnVector v = switch (type.physical()) {
            case INT -> new IntVector(type, trim ? Arrays.copyOf(ints, n) : ints);
            case LONG -> new LongVector(type, trim ? Arrays.copyOf(longs, n) : longs);
            case DOUBLE -> new DoubleVector(type, trim ? Arrays.copyOf(doubles, n) : doubles);
            case BOOLEAN -> new BooleanVector(trim ? Arrays.copyOf(booleans, n) : booleans);
            case INT128 -> new Int128Vector(type, trim ? Arrays.copyOf(longs, n) : longs,
                    trim ? Arrays.copyOf(lows, n) : lows);
            // the slack left for a like-sized chunk is kept; more than a quarter spare is given back
            case BYTES -> new StringVector(type,
                    text.length - textBytes > textBytes >> 2 ? Arrays.copyOf(text, textBytes) : text,
                    trim ? Arrays.copyOf(offsets, n + 1) : offsets);
        };
        if (validity != null) {
            v.setValidity(trim ? Arrays.copyOf(validity, Math.max(1, Validity.words(n))) : validity);
        }
        if (text != null) {
            nextTextCapacity = (int) Math.min(Integer.MAX_VALUE - 16,
                    Math.max(16, textBytes + ((long) textBytes >> TEXT_SLACK_SHIFT)));
        }
        allocate();
        return v;
    }
}
