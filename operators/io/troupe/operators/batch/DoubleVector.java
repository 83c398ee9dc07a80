package io.troupe.operators.batch;

import io.troupe.operators.types.DataType;

/** FLOAT64 values in a {@code double[]}. See {@link ColumnVector} for the contract. */
public final class DoubleVector extends ColumnVector {

    private final double[] values;

    public DoubleVector(int capacity) {
        this(new double[capacity]);
    }

    /** Wraps {@code values} (taken, not copied); all rows valid. */
    public DoubleVector(double[] values) {
        super(DataType.FLOAT64, values.length);
        this.values = values;
    }

    public double[] values() {
        return values;
    }

    public double get(int row) {
        return values[row];
    }

    public void set(int row, double value) {
        values[row] = value;
    }

    @Override
    public DoubleVector gather(int[] rows, int count) {
        DoubleVector out = new DoubleVector(count);
        double[] dst = out.values;
        for (int i = 0; i < count; i++) {
            dst[i] = values[rows[i]];
        }
        gatherValidity(out, rows, count);
        return out;
    }

    @Override
    public DoubleVector withValidity(long[] bitmap) {
        DoubleVector out = new DoubleVector(values);
        out.setValidity(bitmap);
        return out;
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : (Object) values[row];
    }

    @Override
    protected long valueBytes() {
        return (long) values.length * Double.BYTES;
    }
}
