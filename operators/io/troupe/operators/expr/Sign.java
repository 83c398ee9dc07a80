package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;

/**
 * {@code sign(x)}: -1, 0 or 1 as an INTEGER, for any numeric {@code x} (a DECIMAL by its unscaled
 * value, whose sign it shares). NaN and -0.0 give 0, as DuckDB does.
 *
 * <p>Immutable and threadsafe.
 */
final class Sign implements Expression {

    /** The kernel of {@code sign}'s signatures, one per numeric type. */
    static final Signature.Kernel KERNEL = (args, type, text) -> new Sign(args.get(0), text);

    private final Expression value;
    private final String text;

    private Sign(Expression value, String text) {
        this.value = value;
        this.text = text;
    }

    @Override
    public DataType type() {
        return DataType.INT32;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector in = value.evaluate(batch);
        int[] o = new int[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        if (in instanceof IntVector iv) {
            int[] a = iv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = Integer.signum(a[r]);
            }
        } else if (in instanceof LongVector lv) {
            long[] a = lv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = Long.signum(a[r]);
            }
        } else {
            double[] a = ((DoubleVector) in).values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (int) Math.signum(a[r]); // NaN casts to 0
            }
        }
        IntVector out = new IntVector(DataType.INT32, o);
        out.setValidity(Kernels.copy(in));
        return out;
    }
}
