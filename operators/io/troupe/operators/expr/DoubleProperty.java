package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.types.DataType;

import java.util.function.DoublePredicate;

/**
 * A BOOLEAN property of a FLOAT64 value ({@code isnan}, {@code isinf}, {@code isfinite}), tested by a
 * {@link DoublePredicate} at each live row; NULL where the value is.
 *
 * <p>Immutable and threadsafe.
 */
final class DoubleProperty implements Expression {

    private final Expression value;
    private final DoublePredicate test;
    private final String text;

    private DoubleProperty(Expression value, DoublePredicate test, String text) {
        this.value = value;
        this.test = test;
        this.text = text;
    }

    /** The kernel of a signature {@code (DOUBLE) -> BOOLEAN} testing {@code test}. */
    static Signature.Kernel of(DoublePredicate test) {
        return (args, type, text) -> new DoubleProperty(args.get(0), test, text);
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        DoubleVector in = (DoubleVector) value.evaluate(batch);
        double[] a = in.values();
        byte[] o = new byte[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = test.test(a[r]) ? (byte) 1 : 0;
        }
        BooleanVector out = new BooleanVector(o);
        out.setValidity(Kernels.copy(in));
        return out;
    }
}
