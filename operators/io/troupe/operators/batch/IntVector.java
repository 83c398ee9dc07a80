package io.troupe.operators.batch;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.TypeId;

/** INT32, INT16, INT8 and DATE values in an {@code int[]}. See {@link ColumnVector} for the contract. */
public final class IntVector extends ColumnVector {

    private final int[] values;

    public IntVector(DataType type, int capacity) {
        this(type, new int[capacity]);
    }

    /** Wraps {@code values} (taken, not copied); all rows valid. */
    public IntVector(DataType type, int[] values) {
        super(type, values.length);
        if (!type.isIntBacked()) {
            throw new IllegalArgumentException("IntVector cannot hold " + type);
        }
        this.values = values;
    }

    public int[] values() {
        return values;
    }

    public int get(int row) {
        return values[row];
    }

    public void set(int row, int value) {
        values[row] = value;
    }

    @Override
    public IntVector gather(int[] rows, int count) {
        IntVector out = new IntVector(type(), count);
        int[] dst = out.values;
        for (int i = 0; i < count; i++) {
            dst[i] = values[rows[i]];
        }
        gatherValidity(out, rows, count);
        return out;
    }

    @Override
    public IntVector withValidity(long[] bitmap) {
        IntVector out = new IntVector(type(), values);
        out.setValidity(bitmap);
        return out;
    }

    @Override
    public Object getObject(int row) {
        if (isNull(row)) {
            return null;
        }
        return switch (type().id()) {
            case DATE -> Dates.toLocalDate(values[row]);
            case INT16 -> (short) values[row];
            case INT8 -> (byte) values[row];
            default -> values[row];
        };
    }

    @Override
    protected long valueBytes() {
        return (long) values.length * Integer.BYTES;
    }
}
