package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.types.DataType;

import java.util.function.DoubleBinaryOperator;

/**
 * A FLOAT64 function of two FLOAT64 arguments, computed by a {@link DoubleBinaryOperator} at each
 * live row where neither is NULL ({@code power}); NULL where either is. The operator may throw a
 * {@link DomainException}, as in {@link DoubleUnary}.
 *
 * <p>Immutable and threadsafe.
 */
final class DoubleBinary implements Expression {

    private final Expression left;
    private final Expression right;
    private final DoubleBinaryOperator op;
    private final String text;

    private DoubleBinary(Expression left, Expression right, DoubleBinaryOperator op, String text) {
        this.left = left;
        this.right = right;
        this.op = op;
        this.text = text;
    }

    /** The kernel of a signature {@code (DOUBLE, DOUBLE) -> DOUBLE} computing {@code op}. */
    static Signature.Kernel of(DoubleBinaryOperator op) {
        return (args, type, text) -> new DoubleBinary(args.get(0), args.get(1), op, text);
    }

    @Override
    public DataType type() {
        return DataType.FLOAT64;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        DoubleVector av = (DoubleVector) left.evaluate(batch);
        DoubleVector bv = (DoubleVector) right.evaluate(batch);
        double[] a = av.values();
        double[] b = bv.values();
        long[] valid = Kernels.and(av, bv);
        double[] o = new double[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        try {
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (Kernels.isValid(valid, r)) {
                    o[r] = op.applyAsDouble(a[r], b[r]);
                }
            }
        } catch (DomainException e) {
            throw e.failure(text);
        }
        DoubleVector out = new DoubleVector(o);
        out.setValidity(valid);
        return out;
    }
}
