package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

/**
 * Unary minus over a numeric value, of the same type. Negating the smallest INT32, INT16, INT8 or INT64
 * overflows and fails (NULL rows skipped); a DECIMAL (below 10^18) and a FLOAT64 cannot.
 *
 * <p>Immutable and threadsafe.
 */
final class NegateExpression implements Expression {

    private final Expression input;
    private final String text;

    NegateExpression(Expression input, String text) {
        this.input = input;
        this.text = text;
    }

    @Override
    public DataType type() {
        return input.type();
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector in = input.evaluate(batch);
        int n = batch.size();
        int[] sel = batch.selection();
        long[] valid = in.validity();
        ColumnVector out;
        if (in instanceof IntVector iv) {
            int[] a = iv.values();
            int[] o = new int[batch.rowCount()];
            int min = CastExpression.minOf(type());
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (a[r] == min && Kernels.isValid(valid, r)) {
                    throw Kernels.overflow(text, type());
                }
                o[r] = -a[r];
            }
            out = new IntVector(type(), o);
        } else if (in instanceof LongVector lv) {
            long[] a = lv.values();
            long[] o = new long[batch.rowCount()];
            boolean checked = type().id() == TypeId.INT64;
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (checked && a[r] == Long.MIN_VALUE && Kernels.isValid(valid, r)) {
                    throw Kernels.overflow(text, type());
                }
                o[r] = -a[r];
            }
            out = new LongVector(type(), o);
        } else {
            double[] a = ((DoubleVector) in).values();
            double[] o = new double[batch.rowCount()];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = -a[r];
            }
            out = new DoubleVector(type(), o);
        }
        out.setValidity(Kernels.copy(in));
        return out;
    }
}
