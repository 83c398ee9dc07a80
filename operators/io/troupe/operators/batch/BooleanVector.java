package io.troupe.operators.batch;

import io.troupe.operators.types.DataType;

/**
 * BOOLEAN values, one byte each (0 or 1) so that a batch encodes with one bulk copy.
 * See {@link ColumnVector} for the contract.
 */
public final class BooleanVector extends ColumnVector {

    private final byte[] values;

    public BooleanVector(int capacity) {
        this(new byte[capacity]);
    }

    /** Wraps {@code values} (taken, not copied); all rows valid. */
    public BooleanVector(byte[] values) {
        super(DataType.BOOLEAN, values.length);
        this.values = values;
    }

    public byte[] values() {
        return values;
    }

    public boolean get(int row) {
        return values[row] != 0;
    }

    public void set(int row, boolean value) {
        values[row] = (byte) (value ? 1 : 0);
    }

    @Override
    public BooleanVector gather(int[] rows, int count) {
        BooleanVector out = new BooleanVector(count);
        byte[] dst = out.values;
        for (int i = 0; i < count; i++) {
            dst[i] = values[rows[i]];
        }
        gatherValidity(out, rows, count);
        return out;
    }

    @Override
    public BooleanVector withValidity(long[] bitmap) {
        BooleanVector out = new BooleanVector(values);
        out.setValidity(bitmap);
        return out;
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : (Object) (values[row] != 0);
    }

    @Override
    protected long valueBytes() {
        return values.length;
    }
}
