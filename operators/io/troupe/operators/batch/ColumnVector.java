package io.troupe.operators.batch;

import io.troupe.operators.types.DataType;

/**
 * One column of a {@link Batch}: a primitive array of values plus a validity bitmap.
 *
 * <p>Validity: {@code null} means every row is valid (the common case costs nothing); otherwise
 * bit {@code row} of {@code validity[row >>> 6]} is set when the row holds a value, clear when it
 * is NULL (Arrow's convention). The value slot of a NULL row is unspecified.
 *
 * <p>Rows are physical positions; a batch's selection vector says which of them are live.
 * Kernels write results at the live positions only, so an output vector stays aligned with its
 * input batch and the selection vector carries over unchanged.
 *
 * <p>Not threadsafe while being written. Once a vector is in a {@link Batch} it is treated as
 * immutable and may be read by any thread that received the batch safely.
 */
public abstract sealed class ColumnVector
        permits IntVector, LongVector, DoubleVector, BooleanVector, StringVector, Int128Vector {

    private final DataType type;
    private final int capacity;
    private long[] validity;

    protected ColumnVector(DataType type, int capacity) {
        this.type = type;
        this.capacity = capacity;
    }

    /** A new, all-valid vector of {@code type} with room for {@code capacity} rows. */
    public static ColumnVector allocate(DataType type, int capacity) {
        return switch (type.physical()) {
            case INT -> new IntVector(type, capacity);
            case LONG -> new LongVector(type, capacity);
            case DOUBLE -> new DoubleVector(type, new double[capacity]);
            case BOOLEAN -> new BooleanVector(capacity);
            case BYTES -> new StringVector(type, capacity, Math.max(16, capacity * 8));
            case INT128 -> new Int128Vector(type, capacity);
        };
    }

    /** Bytes of heap {@link #allocate}{@code (type, capacity)} makes, all valid (for reserving them first). */
    public static long bytesFor(DataType type, int capacity) {
        return switch (type.physical()) {
            case INT -> (long) capacity * Integer.BYTES;
            case LONG, DOUBLE -> (long) capacity * Long.BYTES;
            case BOOLEAN -> capacity;
            case BYTES -> (long) (capacity + 1) * Integer.BYTES + Math.max(16, capacity * 8L);
            case INT128 -> 2L * capacity * Long.BYTES;
        };
    }

    public final DataType type() {
        return type;
    }

    /** Rows this vector has room for. */
    public final int capacity() {
        return capacity;
    }

    public final boolean isNull(int row) {
        return validity != null && (validity[row >>> 6] & (1L << row)) == 0;
    }

    /** False when no row can be NULL, so a kernel may skip the null checks. */
    public final boolean mayHaveNulls() {
        return validity != null;
    }

    /**
     * Bytes of heap this vector's arrays hold (values, offsets, string bytes, validity), without object
     * headers: what the memory budget counts when an operator keeps the vector.
     */
    public final long sizeInBytes() {
        return valueBytes() + (validity == null ? 0 : (long) validity.length * Long.BYTES);
    }

    /** Bytes of the value arrays (for a VARCHAR, offsets and bytes). */
    protected abstract long valueBytes();

    /** The validity bitmap, or null when every row is valid. Do not modify a shared vector's. */
    public final long[] validity() {
        return validity;
    }

    /** Replaces the validity bitmap ({@code null}: all valid). The array is taken, not copied. */
    public final void setValidity(long[] bitmap) {
        this.validity = bitmap;
    }

    public final void setNull(int row) {
        if (validity == null) {
            validity = Validity.allValid(capacity);
        }
        validity[row >>> 6] &= ~(1L << row);
    }

    public final void setValid(int row) {
        if (validity != null) {
            validity[row >>> 6] |= 1L << row;
        }
    }

    /**
     * A new dense vector holding rows {@code rows[0..count)} of this one, in that order.
     * The building block of compaction, join output and materialisation.
     */
    public abstract ColumnVector gather(int[] rows, int count);

    /**
     * A vector of the same type sharing this one's values (not copied), with {@code bitmap} as its
     * validity ({@code null}: all valid): a kernel that only changes which rows are NULL, as CASE
     * with NULL for the other rows, answers without copying the values. The values must not be
     * written afterwards, through either vector.
     */
    public abstract ColumnVector withValidity(long[] bitmap);

    /**
     * The value at {@code row} as a Java object (Integer, Long, Double, BigDecimal, LocalDate,
     * Boolean, String, LocalDateTime for a TIMESTAMP, Instant for a TIMESTAMP_TZ, LocalTime for a
     * TIME, {@link io.troupe.operators.types.Interval} for an INTERVAL), or null. Boxes: for results and tests, never for kernels.
     */
    public abstract Object getObject(int row);

    /**
     * Copies the validity of {@code rows} into {@code target} (all valid, no bitmap yet) at
     * positions 0..count-1: one bit moved per row, without a branch (NULLs scattered at random
     * would mispredict one). Rows past {@code count} are NULL in the bitmap.
     */
    protected final void gatherValidity(ColumnVector target, int[] rows, int count) {
        if (validity == null) {
            return;
        }
        long[] src = validity;
        long[] bits = new long[Math.max(1, Validity.words(target.capacity()))];
        int valid = 0;
        for (int i = 0; i < count; i++) {
            int r = rows[i];
            long bit = (src[r >>> 6] >>> r) & 1L;
            bits[i >>> 6] |= bit << i;
            valid += (int) bit;
        }
        if (valid < count) {
            target.setValidity(bits); // else none is NULL: the target keeps no bitmap
        }
    }
}
