package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.types.DataType;

import java.util.function.DoubleUnaryOperator;

/**
 * A FLOAT64 function of one FLOAT64 argument, computed by a {@link DoubleUnaryOperator} at each
 * live row that is not NULL ({@code sqrt}, {@code ln}, {@code ceil}): the kernel of most of the
 * numeric library. The operator may throw a {@link DomainException} for a value it does not take;
 * NULL rows are skipped, so that a NULL's slot cannot fail it.
 *
 * <p>Immutable and threadsafe.
 */
final class DoubleUnary implements Expression {

    private final Expression value;
    private final DoubleUnaryOperator op;
    private final String text;

    private DoubleUnary(Expression value, DoubleUnaryOperator op, String text) {
        this.value = value;
        this.op = op;
        this.text = text;
    }

    /** The kernel of a signature {@code (DOUBLE) -> DOUBLE} computing {@code op}. */
    static Signature.Kernel of(DoubleUnaryOperator op) {
        return (args, type, text) -> new DoubleUnary(args.get(0), op, text);
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
        DoubleVector in = (DoubleVector) value.evaluate(batch);
        double[] a = in.values();
        long[] valid = in.validity();
        double[] o = new double[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        try {
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (Kernels.isValid(valid, r)) {
                    o[r] = op.applyAsDouble(a[r]);
                }
            }
        } catch (DomainException e) {
            throw e.failure(text);
        }
        DoubleVector out = new DoubleVector(o);
        out.setValidity(Kernels.copy(in));
        return out;
    }
}
