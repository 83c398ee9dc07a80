package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.TypeId;

/**
 * + - * / % over longs: INT64 (always overflow-checked) and DECIMAL as unscaled longs. For + - %
 * each decimal operand is first multiplied up to the result scale ({@code ma}, {@code mb}:
 * powers of ten, 1 for INT64). {@code checked} kernels use the {@code Math.*Exact} intrinsics,
 * skip NULL rows (whose slots hold anything) and, for decimals, bound the result by 10^18;
 * unchecked ones are plain loops, used when {@link Arithmetic} proved no overflow possible.
 * A literal right operand is read as a constant (see {@link Kernels} for the loop shape).
 *
 * <p>Immutable and threadsafe.
 */
final class LongArithmetic implements Expression {

    private static final long DECIMAL_LIMIT = Decimals.pow10(DataType.MAX_LONG_PRECISION);

    private final Function op;
    private final Expression left;
    private final Expression right;
    /** The right operand when it is a literal, read once per batch; null otherwise. */
    private final LiteralExpression constant;
    private final long ma;
    private final long mb;
    private final boolean checked;
    /** True for DECIMAL results, which must stay below 10^18 in magnitude. */
    private final boolean bounded;
    private final DataType type;
    private final String text;

    private LongArithmetic(Function op, Expression left, Expression right, long ma, long mb, boolean checked,
                           DataType type, String text) {
        // A literal on the left of a commutative operator moves right, so that it is read as a constant.
        boolean swap = left instanceof LiteralExpression && !(right instanceof LiteralExpression)
                && (op == Function.ADD || op == Function.MULTIPLY);
        this.op = op;
        this.left = swap ? right : left;
        this.right = swap ? left : right;
        this.ma = swap ? mb : ma;
        this.mb = swap ? ma : mb;
        this.constant = this.right instanceof LiteralExpression lit ? lit : null;
        this.checked = checked;
        this.bounded = type.id() == TypeId.DECIMAL;
        this.type = type;
        this.text = text;
    }

    /** INT64 arithmetic; both operands INT64. */
    static Expression integer(Function op, Expression left, Expression right, String text) {
        return new LongArithmetic(op, left, right, 1, 1, true, DataType.INT64, text);
    }

    /** Decimal + - * %; operands are long-backed (DECIMAL or INT64 at scale 0). */
    static Expression decimal(Function op, Expression left, Expression right, long ma, long mb, boolean checked,
                              DataType type, String text) {
        return new LongArithmetic(op, left, right, ma, mb, checked, type, text);
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
        LongVector av = (LongVector) left.evaluate(batch);
        long[] b = null;
        long c = 0;
        long[] valid;
        if (constant != null) {
            c = constant.longValue();
            valid = constant.isNull() ? Kernels.allNull(batch.rowCount()) : Kernels.copy(av);
        } else {
            LongVector bv = (LongVector) right.evaluate(batch);
            b = bv.values();
            valid = Kernels.and(av, bv);
        }
        long[] a = av.values();
        long[] o = new long[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        try {
            switch (op) {
                case ADD, SUBTRACT -> {
                    long sign = op == Function.ADD ? 1 : -1;
                    if (!checked) {
                        addUnchecked(a, b, c, ma, mb * sign, o, sel, n);
                    } else if (ma == 1 && mb == 1) {
                        addExact(a, b, c, op == Function.SUBTRACT, o, sel, n, valid);
                    } else {
                        addScaled(a, b, c, op == Function.SUBTRACT, o, sel, n, valid);
                    }
                }
                case MULTIPLY -> {
                    if (checked) {
                        multiplyExact(a, b, c, o, sel, n, valid);
                    } else {
                        multiplyUnchecked(a, b, c, o, sel, n);
                    }
                }
                case DIVIDE -> divide(a, b, c, o, sel, n, valid);
                case MODULO -> modulo(a, b, c, o, sel, n, valid);
                default -> throw new IllegalStateException("not an arithmetic operator: " + op);
            }
        } catch (ArithmeticException e) {
            throw Kernels.overflow(text, type);
        }
        LongVector out = new LongVector(type, o);
        out.setValidity(valid);
        return out;
    }

    private static void addUnchecked(long[] a, long[] b, long c, long ma, long mb, long[] o, int[] sel, int n) {
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            long y = b == null ? c : b[r];
            o[r] = a[r] * ma + y * mb;
        }
    }

    private void addExact(long[] a, long[] b, long c, boolean subtract, long[] o, int[] sel, int n, long[] valid) {
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            long y = b == null ? c : b[r];
            long v = subtract ? Math.subtractExact(a[r], y) : Math.addExact(a[r], y);
            if (bounded && (v >= DECIMAL_LIMIT || v <= -DECIMAL_LIMIT)) {
                throw new ArithmeticException();
            }
            o[r] = v;
        }
    }

    private void addScaled(long[] a, long[] b, long c, boolean subtract, long[] o, int[] sel, int n, long[] valid) {
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            long x = Math.multiplyExact(a[r], ma);
            long y = Math.multiplyExact(b == null ? c : b[r], mb);
            long v = subtract ? Math.subtractExact(x, y) : Math.addExact(x, y);
            if (v >= DECIMAL_LIMIT || v <= -DECIMAL_LIMIT) {
                throw new ArithmeticException();
            }
            o[r] = v;
        }
    }

    private static void multiplyUnchecked(long[] a, long[] b, long c, long[] o, int[] sel, int n) {
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = a[r] * (b == null ? c : b[r]);
        }
    }

    private void multiplyExact(long[] a, long[] b, long c, long[] o, int[] sel, int n, long[] valid) {
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            long v = Math.multiplyExact(a[r], b == null ? c : b[r]);
            if (bounded && (v >= DECIMAL_LIMIT || v <= -DECIMAL_LIMIT)) {
                throw new ArithmeticException();
            }
            o[r] = v;
        }
    }

    /** INT64 only: truncating division; MIN / -1 overflows. */
    private void divide(long[] a, long[] b, long c, long[] o, int[] sel, int n, long[] valid) {
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            long y = b == null ? c : b[r];
            if (y == 0) {
                throw Kernels.divisionByZero(text);
            }
            if (y == -1 && a[r] == Long.MIN_VALUE) {
                throw new ArithmeticException();
            }
            o[r] = a[r] / y;
        }
    }

    private void modulo(long[] a, long[] b, long c, long[] o, int[] sel, int n, long[] valid) {
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            long y = b == null ? c : b[r];
            if (y == 0) {
                throw Kernels.divisionByZero(text);
            }
            long x = a[r];
            if (ma != 1 || mb != 1) {
                x = checked ? Math.multiplyExact(x, ma) : x * ma;
                y = checked ? Math.multiplyExact(y, mb) : y * mb;
            }
            o[r] = x % y;
        }
    }
}
