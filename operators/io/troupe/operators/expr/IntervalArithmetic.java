package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;

/**
 * Arithmetic of INTERVAL values, field by field as PostgreSQL does it: {@code a + b} and {@code a - b} add or
 * subtract months, days and microseconds apart (no field borrows from another: {@code '1 month' - '1 day'} is
 * {@code 1 month -1 day}); {@code -a} negates each; {@code a * x} and {@code a / x} (x a number, as a DOUBLE) scale
 * each field and cascade a fraction of a month down as 30 days and of a day as 24 hours ({@link Interval#multiply}).
 * A field past its range fails, naming the expression. NULL where an operand is.
 *
 * <p>Immutable and threadsafe.
 */
final class IntervalArithmetic implements Expression {

    /** What the kernel computes. */
    enum Op {
        ADD,
        SUBTRACT,
        NEGATE,
        MULTIPLY,
        DIVIDE
    }

    private final Op op;
    private final Expression left;
    /** The other interval (ADD, SUBTRACT), the factor as a FLOAT64 (MULTIPLY, DIVIDE), or null (NEGATE). */
    private final Expression right;
    private final String text;

    IntervalArithmetic(Op op, Expression left, Expression right, String text) {
        this.op = op;
        this.left = left;
        this.right = right;
        this.text = text;
    }

    @Override
    public DataType type() {
        return DataType.INTERVAL;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        Int128Vector a = (Int128Vector) left.evaluate(batch);
        ColumnVector b = right == null ? null : right.evaluate(batch);
        int n = batch.size();
        int[] sel = batch.selection();
        Int128Vector out = new Int128Vector(DataType.INTERVAL, batch.rowCount());
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (a.isNull(r) || b != null && b.isNull(r)) {
                continue;
            }
            Interval x = Interval.of(a.high(r), a.low(r));
            Interval v;
            try {
                v = switch (op) {
                    case ADD -> x.plus(interval(b, r));
                    case SUBTRACT -> x.plus(interval(b, r).negate());
                    case NEGATE -> x.negate();
                    case MULTIPLY -> x.multiply(((DoubleVector) b).get(r));
                    case DIVIDE -> divide(x, ((DoubleVector) b).get(r));
                };
            } catch (ArithmeticException e) {
                throw new QueryDataException(QueryDataException.Kind.OVERFLOW, "interval out of range in " + text);
            }
            out.set(r, v.high(), v.micros());
        }
        out.setValidity(b == null ? Kernels.copy(a) : Kernels.and(a, b));
        return out;
    }

    private static Interval interval(ColumnVector v, int r) {
        Int128Vector w = (Int128Vector) v;
        return Interval.of(w.high(r), w.low(r));
    }

    private Interval divide(Interval x, double divisor) {
        if (divisor == 0) {
            throw Kernels.divisionByZero(text);
        }
        return x.divide(divisor);
    }
}
