package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.TypeId;

/**
 * {@code a - b} of two times of one type, as PostgreSQL subtracts them: two DATEs give the INT32 days between
 * them; two TIMESTAMPs, TIMESTAMP_TZs or TIMEs an INTERVAL of whole days and the microseconds left, both of the
 * difference's sign and no months ({@link Interval#between}), so that {@code a - b + b = a}. NULL where either
 * is.
 *
 * <p>Immutable and threadsafe.
 */
final class TimeDifference implements Expression {

    private final Expression left;
    private final Expression right;
    private final String text;

    TimeDifference(Expression left, Expression right, String text) {
        this.left = left;
        this.right = right;
        this.text = text;
    }

    @Override
    public DataType type() {
        return left.type().id() == TypeId.DATE ? DataType.INT32 : DataType.INTERVAL;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector a = left.evaluate(batch);
        ColumnVector b = right.evaluate(batch);
        int n = batch.size();
        int[] sel = batch.selection();
        ColumnVector out;
        if (a instanceof IntVector da) {
            int[] x = da.values();
            int[] y = ((IntVector) b).values();
            int[] o = new int[batch.rowCount()];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                long d = (long) x[r] - y[r];
                if (d != (int) d && !a.isNull(r) && !b.isNull(r)) {
                    throw Kernels.overflow(text, DataType.INT32);
                }
                o[r] = (int) d;
            }
            out = new IntVector(DataType.INT32, o);
        } else {
            long[] x = ((LongVector) a).values();
            long[] y = ((LongVector) b).values();
            Int128Vector o = new Int128Vector(DataType.INTERVAL, batch.rowCount());
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (a.isNull(r) || b.isNull(r)) {
                    continue;
                }
                Interval v;
                try {
                    v = Interval.between(x[r], y[r]);
                } catch (ArithmeticException e) {
                    throw new QueryDataException(QueryDataException.Kind.OVERFLOW, "interval out of range in " + text);
                }
                o.set(r, v.high(), v.micros());
            }
            out = o;
        }
        out.setValidity(Kernels.and(a, b));
        return out;
    }
}
