package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.types.DataType;

/**
 * + - * / % over two FLOAT64 operands (promoted by {@link Arithmetic}). IEEE semantics, except
 * that / and % by zero fail the query (DuckDB returns Infinity or NaN there). + - * are plain
 * loops that vectorise; / and % skip NULL rows so that a NULL's slot cannot fail them. A literal
 * right operand is read as a constant (see {@link Kernels} for the loop shape).
 *
 * <p>Immutable and threadsafe.
 */
final class DoubleArithmetic implements Expression {

    private final Function op;
    private final Expression left;
    private final Expression right;
    private final LiteralExpression constant;
    private final String text;

    DoubleArithmetic(Function op, Expression left, Expression right, String text) {
        // A literal on the left of a commutative operator moves right, so that it is read as a constant.
        boolean swap = left instanceof LiteralExpression && !(right instanceof LiteralExpression)
                && (op == Function.ADD || op == Function.MULTIPLY);
        this.op = op;
        this.left = swap ? right : left;
        this.right = swap ? left : right;
        this.constant = this.right instanceof LiteralExpression lit ? lit : null;
        this.text = text;
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
        double[] b = null;
        double c = 0;
        long[] valid;
        if (constant != null) {
            c = constant.doubleValue();
            valid = constant.isNull() ? Kernels.allNull(batch.rowCount()) : Kernels.copy(av);
        } else {
            DoubleVector bv = (DoubleVector) right.evaluate(batch);
            b = bv.values();
            valid = Kernels.and(av, bv);
        }
        double[] a = av.values();
        double[] o = new double[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        switch (op) {
            case ADD -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = a[r] + (b == null ? c : b[r]);
                }
            }
            case SUBTRACT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = a[r] - (b == null ? c : b[r]);
                }
            }
            case MULTIPLY -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = a[r] * (b == null ? c : b[r]);
                }
            }
            case DIVIDE, MODULO -> {
                boolean modulo = op == Function.MODULO;
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    if (!Kernels.isValid(valid, r)) {
                        continue;
                    }
                    double y = b == null ? c : b[r];
                    if (y == 0) {
                        throw Kernels.divisionByZero(text);
                    }
                    o[r] = modulo ? a[r] % y : a[r] / y;
                }
            }
            default -> throw new IllegalStateException("not an arithmetic operator: " + op);
        }
        DoubleVector out = new DoubleVector(o);
        out.setValidity(valid);
        return out;
    }
}
