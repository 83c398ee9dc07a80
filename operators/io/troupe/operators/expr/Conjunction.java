package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * AND and OR with SQL's three-valued logic: FALSE AND anything is FALSE, TRUE OR anything is
 * TRUE, otherwise a NULL side makes the result NULL.
 *
 * <p>The right side is evaluated only at the rows the left side leaves open (not FALSE for AND,
 * not TRUE for OR), through a narrowed selection: it costs less, and a guard such as
 * {@code b <> 0 AND a / b > 1} never divides by zero.
 *
 * <p>As a filter ({@link #select}) no BOOLEAN vector is built: AND selects with the left side and
 * then with the right among those rows; OR selects with the left, then with the right among the
 * rest, and merges the two ascending lists.
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

    @Override
    public int select(Batch batch, int[] out) {
        int n = batch.size();
        if (and) {
            int m = left.select(batch, out);
            if (m == 0) {
                return 0;
            }
            int[] survivors = Arrays.copyOf(out, m);
            return right.select(m == n ? batch : batch.withSelection(survivors, m), out);
        }
        int[] yes = new int[n];
        int a = left.select(batch, yes);
        if (a == n) {
            System.arraycopy(yes, 0, out, 0, n);
            return n;
        }
        // The live rows the left side did not select, in order: both lists ascend.
        int[] sel = batch.selection();
        int[] rest = new int[n - a];
        int m = 0;
        for (int i = 0, y = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (y < a && yes[y] == r) {
                y++;
            } else {
                rest[m++] = r;
            }
        }
        int[] also = new int[m];
        int b = right.select(batch.withSelection(rest, m), also);
        int k = 0;
        int x = 0;
        int y = 0;
        while (x < a || y < b) {
            out[k++] = y == b || (x < a && yes[x] < also[y]) ? yes[x++] : also[y++];
        }
        return k;
    }
}
