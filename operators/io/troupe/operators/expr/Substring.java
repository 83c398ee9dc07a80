package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

/**
 * {@code substring(s, start, length)} in characters (code points), start counting from 1.
 * Like DuckDB: start 0 is the position before the first character, a negative start counts from
 * the end ({@code -1} is the last character), a negative length takes the characters before
 * the start; the range is then clipped to the string. NULL in any argument gives NULL. Of a BLOB, in bytes
 * (PostgreSQL's {@code substring(bytea)}), with the same rules.
 *
 * <p>start and length are INT32 or INT64 expressions; literals (the usual case) are read once
 * per batch. The result's bytes are copied straight from the input, in row order.
 *
 * <p>Immutable and threadsafe.
 */
final class Substring implements Expression {

    private final Expression value;
    private final Expression start;
    private final Expression length;
    private final String text;

    private Substring(Expression value, Expression start, Expression length, String text) {
        this.value = value;
        this.start = start;
        this.length = length;
        this.text = text;
    }

    static Expression bind(Expression value, Expression start, Expression length, String text) {
        if (value.type().id() != TypeId.VARCHAR && value.type().id() != TypeId.BLOB
                || !TypeRules.isInteger(start.type()) || !TypeRules.isInteger(length.type())) {
            throw new ExpressionTypeException("substring needs (VARCHAR or BLOB, integer, integer), got ("
                    + value.type() + ", "
                    + start.type() + ", " + length.type() + ") in " + text);
        }
        return Functions.fold(new Substring(value, start, length, text), value, start, length);
    }

    @Override
    public DataType type() {
        return value.type();
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        StringVector v = (StringVector) value.evaluate(batch);
        ColumnVector startVector = start instanceof LiteralExpression ? null : start.evaluate(batch);
        ColumnVector lengthVector = length instanceof LiteralExpression ? null : length.evaluate(batch);
        long startConstant = constant(start);
        long lengthConstant = constant(length);
        long[] valid = v.validity() == null ? null : v.validity().clone();
        if (startVector != null || lengthVector != null || isNullLiteral(start) || isNullLiteral(length)) {
            valid = nulls(batch, valid, startVector, start);
            valid = nulls(batch, valid, lengthVector, length);
        }
        int[] startInts = startVector instanceof IntVector iv ? iv.values() : null;
        long[] startLongs = startVector instanceof LongVector lv ? lv.values() : null;
        int[] lengthInts = lengthVector instanceof IntVector iv ? iv.values() : null;
        long[] lengthLongs = lengthVector instanceof LongVector lv ? lv.values() : null;
        byte[] d = v.data();
        int[] off = v.offsets();
        int n = batch.size();
        int[] sel = batch.selection();
        StringVector out = new StringVector(value.type(), batch.rowCount(), Math.max(16, off[v.capacity()]));
        boolean bytes = value.type().id() == TypeId.BLOB;
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            long s = startInts != null ? startInts[r] : startLongs != null ? startLongs[r] : startConstant;
            long len = lengthInts != null ? lengthInts[r] : lengthLongs != null ? lengthLongs[r] : lengthConstant;
            int from = off[r];
            int to = off[r + 1];
            // The 0-based character range [lo, hi) before clipping.
            long first = s > 0 ? s - 1 : s == 0 ? -1 : s + (bytes ? to - from : Utf8.count(d, from, to));
            long lo = len >= 0 ? first : first + len;
            long hi = len >= 0 ? first + len : first;
            lo = Math.max(lo, 0);
            if (hi <= lo) {
                out.put(r, d, from, 0);
                continue;
            }
            int begin = bytes ? (int) Math.min(to, from + lo) : Utf8.advance(d, from, to, lo);
            int end = bytes ? (int) Math.min(to, begin + (hi - lo)) : Utf8.advance(d, begin, to, hi - lo);
            out.put(r, d, begin, end - begin);
        }
        out.seal();
        out.setValidity(valid);
        return out;
    }

    private static long constant(Expression e) {
        if (e instanceof LiteralExpression lit && !lit.isNull()) {
            return lit.type().isIntBacked() ? lit.intValue() : lit.longValue();
        }
        return 0;
    }

    private static boolean isNullLiteral(Expression e) {
        return e instanceof LiteralExpression lit && lit.isNull();
    }

    private static long[] nulls(Batch batch, long[] valid, ColumnVector vector, Expression e) {
        if (isNullLiteral(e)) {
            return Kernels.allNull(batch.rowCount());
        }
        if (vector == null || vector.validity() == null) {
            return valid;
        }
        long[] other = vector.validity();
        long[] out = valid == null ? other.clone() : valid;
        for (int w = 0; w < out.length && w < other.length; w++) {
            out[w] &= other[w];
        }
        return out;
    }
}
