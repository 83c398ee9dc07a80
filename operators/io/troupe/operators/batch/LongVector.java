package io.troupe.operators.batch;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Timestamps;

import java.math.BigDecimal;

/**
 * INT64 values, DECIMAL values as unscaled longs (scale on the type), and TIMESTAMP, TIMESTAMP_TZ and
 * TIME values as microseconds ({@link Timestamps}), in a {@code long[]}.
 * See {@link ColumnVector} for the contract.
 */
public final class LongVector extends ColumnVector {

    private final long[] values;

    public LongVector(DataType type, int capacity) {
        this(type, new long[capacity]);
    }

    /** Wraps {@code values} (taken, not copied); all rows valid. */
    public LongVector(DataType type, long[] values) {
        super(type, values.length);
        if (!type.isLongBacked()) {
            throw new IllegalArgumentException("LongVector cannot hold " + type);
        }
        this.values = values;
    }

    public long[] values() {
        return values;
    }

    public long get(int row) {
        return values[row];
    }

    public void set(int row, long value) {
        values[row] = value;
    }

    @Override
    public LongVector gather(int[] rows, int count) {
        LongVector out = new LongVector(type(), count);
        long[] dst = out.values;
        for (int i = 0; i < count; i++) {
            dst[i] = values[rows[i]];
        }
        gatherValidity(out, rows, count);
        return out;
    }

    @Override
    public LongVector withValidity(long[] bitmap) {
        LongVector out = new LongVector(type(), values);
        out.setValidity(bitmap);
        return out;
    }

    @Override
    public Object getObject(int row) {
        if (isNull(row)) {
            return null;
        }
        long v = values[row];
        return switch (type().id()) {
            case DECIMAL -> BigDecimal.valueOf(v, type().scale());
            case TIMESTAMP, TIMESTAMP_TZ, TIME -> Timestamps.toObject(v, type().id());
            default -> v;
        };
    }

    @Override
    protected long valueBytes() {
        return (long) values.length * Long.BYTES;
    }
}
