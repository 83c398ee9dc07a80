package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.types.DataType;

/**
 * + - * / % over two integer operands held in ints (INT32, INT16, INT8), giving the wider of their types. + - *
 * compute in long and fail when the result leaves that type's range; / truncates toward zero; / and % by zero
 * fail; MIN / -1 overflows. NULL rows are skipped (their slots hold anything). A literal right operand is read
 * as a constant (see {@link Kernels} for the loop shape).
 *
 * <p>Immutable and threadsafe.
 */
final class IntArithmetic implements Expression {

    private final Function op;
    private final Expression left;
    private final Expression right;
    private final LiteralExpression constant;
    private final DataType type;
    private final int min;
    private final int max;
    private final String text;

    IntArithmetic(Function op, Expression left, Expression right, DataType type, String text) {
        // A literal on the left of a commutative operator moves right, so that it is read as a constant.
        boolean swap = left instanceof LiteralExpression && !(right instanceof LiteralExpression)
                && (op == Function.ADD || op == Function.MULTIPLY);
        this.op = op;
        this.left = swap ? right : left;
        this.right = swap ? left : right;
        this.constant = this.right instanceof LiteralExpression lit ? lit : null;
        this.type = type;
        this.min = CastExpression.minOf(type);
        this.max = CastExpression.maxOf(type);
        this.text = text;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        IntVector av = (IntVector) left.evaluate(batch);
        int[] b = null;
        int c = 0;
        long[] valid;
        if (constant != null) {
            c = constant.intValue();
            valid = constant.isNull() ? Kernels.allNull(batch.rowCount()) : Kernels.copy(av);
        } else {
            IntVector bv = (IntVector) right.evaluate(batch);
            b = bv.values();
            valid = Kernels.and(av, bv);
        }
        int[] a = av.values();
        int[] o = new int[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        switch (op) {
            case ADD, SUBTRACT, MULTIPLY -> exact(op, a, b, c, o, sel, n, valid);
            case DIVIDE, MODULO -> divide(op == Function.MODULO, a, b, c, o, sel, n, valid);
            default -> throw new IllegalStateException("not an arithmetic operator: " + op);
        }
        IntVector out = new IntVector(type, o);
        out.setValidity(valid);
        return out;
    }

    private void exact(Function op, int[] a, int[] b, int c, int[] o, int[] sel, int n, long[] valid) {
        switch (op) {
            case ADD -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    long v = (long) a[r] + (b == null ? c : b[r]);
                    if ((v < min || v > max) && Kernels.isValid(valid, r)) {
                        throw Kernels.overflow(text, type);
                    }
                    o[r] = (int) v;
                }
            }
            case SUBTRACT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    long v = (long) a[r] - (b == null ? c : b[r]);
                    if ((v < min || v > max) && Kernels.isValid(valid, r)) {
                        throw Kernels.overflow(text, type);
                    }
                    o[r] = (int) v;
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    long v = (long) a[r] * (b == null ? c : b[r]);
                    if ((v < min || v > max) && Kernels.isValid(valid, r)) {
                        throw Kernels.overflow(text, type);
                    }
                    o[r] = (int) v;
                }
            }
        }
    }

    private void divide(boolean modulo, int[] a, int[] b, int c, int[] o, int[] sel, int n, long[] valid) {
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            int y = b == null ? c : b[r];
            if (y == 0) {
                throw Kernels.divisionByZero(text);
            }
            if (modulo) {
                o[r] = a[r] % y;
            } else if (y == -1 && a[r] == -max - 1) {
                throw Kernels.overflow(text, type);
            } else {
                o[r] = a[r] / y;
            }
        }
    }
}
