package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

/**
 * AND and OR with SQL's three-valued logic: FALSE AND anything is FALSE, TRUE OR anything is
 * TRUE, otherwise a NULL side makes the result NULL.
 *
 * <p>The right side is evaluated only at the rows the left side leaves open (not FALSE for AND,
 * not TRUE for OR), through a narrowed selection: it costs less, and a guard such as
 * {@code b <> 0 AND a / b > 1} never divides by zero.
 *
 * <p>Immutable and threadsafe.
 */
final class Conjunction implements Expression {

    private final boolean and;
    private final Expression left;
    private final Expression right;
    private final String text;

    private Conjunction(boolean and, Expression left, Expression right, String text) {
        this.and = and;
        this.left = left;
        this.right = right;
        this.text = text;
    }

    static Expression bind(Function op, Expression left, Expression right, String text) {
        if (!left.type().equals(DataType.BOOLEAN) || !right.type().equals(DataType.BOOLEAN)) {
            throw new ExpressionTypeException(op.symbol() + " needs BOOLEAN operands, got " + left.type() + " and "
                    + right.type() + " in " + text);
        }
        return Functions.fold(new Conjunction(op == Function.AND, left, right, text), left, right);
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
        BooleanVector av = (BooleanVector) left.evaluate(batch);
        byte[] a = av.values();
        long[] aValid = av.validity();
        // The value that decides alone: FALSE for AND, TRUE for OR.
        byte decisive = (byte) (and ? 0 : 1);
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        byte[] o = new byte[rows];
        int[] open = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = decisive;
            if (a[r] != decisive || !Kernels.isValid(aValid, r)) {
                open[m++] = r;
            }
        }
        BooleanVector out = new BooleanVector(o);
        if (m == 0) {
            return out;
        }
        BooleanVector bv = (BooleanVector) right.evaluate(m == n ? batch : batch.withSelection(open, m));
        byte[] b = bv.values();
        long[] bValid = bv.validity();
        long[] valid = null;
        byte other = (byte) (1 - decisive);
        for (int j = 0; j < m; j++) {
            int r = open[j];
            boolean bKnown = Kernels.isValid(bValid, r);
            if (bKnown && b[r] == decisive) {
                continue;
            }
            if (bKnown && Kernels.isValid(aValid, r)) {
                o[r] = other;
            } else {
                valid = Kernels.setNull(valid, rows, r);
            }
        }
        out.setValidity(valid);
        return out;
    }
}
