package io.troupe.operators.batch;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

/**
 * FLOAT64 and FLOAT32 values in a {@code double[]} (a FLOAT32's are floats widened, exactly). See {@link ColumnVector}
 * for the contract.
 */
public final class DoubleVector extends ColumnVector {

    private final double[] values;

    public DoubleVector(int capacity) {
        this(new double[capacity]);
    }

    /** Wraps {@code values} (taken, not copied) as FLOAT64; all rows valid. */
    public DoubleVector(double[] values) {
        this(DataType.FLOAT64, values);
    }

    /** Wraps {@code values} (taken, not copied) as {@code type}, FLOAT64 or FLOAT32; all rows valid. */
    public DoubleVector(DataType type, double[] values) {
        super(type, values.length);
        if (type.physical() != PhysicalType.DOUBLE) {
            throw new IllegalArgumentException("DoubleVector cannot hold " + type);
        }
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
        DoubleVector out = new DoubleVector(type(), new double[count]);
        double[] dst = out.values;
        for (int i = 0; i < count; i++) {
            dst[i] = values[rows[i]];
        }
        gatherValidity(out, rows, count);
        return out;
    }

    @Override
    public DoubleVector withValidity(long[] bitmap) {
        DoubleVector out = new DoubleVector(type(), values);
        out.setValidity(bitmap);
        return out;
    }

    @Override
    public Object getObject(int row) {
        if (isNull(row)) {
            return null;
        }
        return type().id() == TypeId.FLOAT32 ? (Object) (float) values[row] : (Object) values[row];
    }

    @Override
    protected long valueBytes() {
        return (long) values.length * Double.BYTES;
    }
}
