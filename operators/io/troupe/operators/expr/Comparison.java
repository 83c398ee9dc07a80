package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.TypeId;

import java.util.Arrays;

/**
 * = &lt;&gt; &lt; &lt;= &gt; &gt;= giving BOOLEAN, NULL where either side is NULL.
 *
 * <p>Numbers compare after promotion ({@link TypeRules#comparisonType}): a FLOAT64 side makes
 * both doubles; a DECIMAL side brings both to unscaled longs at the larger scale, the other side
 * multiplied up with saturation ({@link CastExpression#comparable}), which keeps the comparison
 * exact, or to 128-bit words when a side is a DECIMAL of more than 18 digits ({@link WideDecimalCast#comparable}); INT32 against an INT64 literal that fits an int stays INT32. VARCHAR compares by
 * unsigned UTF-8 bytes, which is code point order; DATE, TIMESTAMP, TIMESTAMP_TZ, TIME and BOOLEAN
 * (false &lt; true) compare with themselves, and a DATE with a TIMESTAMP as its midnight; an INTERVAL by its
 * length, a month as 30 days ({@link Interval#compare}: {@code '1 month' = '30 days'}). FLOAT64 follows IEEE: NaN is unequal to everything (DuckDB sorts it above all).
 *
 * <p>One loop per operator and physical type (= and &lt;&gt; of strings select straight into the
 * selection too); a literal side is read as a constant (a literal
 * on the left is mirrored to the right), see {@link Kernels} for the loop shape.
 *
 * <p>Immutable and threadsafe.
 */
final class Comparison implements Expression {

    /** Strings up to this many bytes compare for equality in a plain loop. */
    private static final int SHORT_STRING = 16;

    private final Function op;
    private final Expression left;
    private final Expression right;
    private final LiteralExpression constant;
    /** A VARCHAR constant of at most {@link ShortStringLiteral#MAX_BYTES} bytes, for = and &lt;&gt;; else null. */
    private final ShortStringLiteral shortLiteral;
    private final String text;

    private Comparison(Function op, Expression left, Expression right, String text) {
        boolean swap = left instanceof LiteralExpression && !(right instanceof LiteralExpression);
        this.op = swap ? mirror(op) : op;
        this.left = swap ? right : left;
        this.right = swap ? left : right;
        this.constant = this.right instanceof LiteralExpression lit ? lit : null;
        byte[] utf8 = constant == null ? null : constant.utf8();
        this.shortLiteral = utf8 != null && utf8.length <= ShortStringLiteral.MAX_BYTES
                ? new ShortStringLiteral(utf8) : null;
        this.text = text;
    }

    static Expression bind(Function op, Expression left, Expression right, String text) {
        DataType common = TypeRules.comparisonType(left.type(), right.type());
        if (common == null) {
            throw new ExpressionTypeException("cannot compare " + left.type() + " with " + right.type() + " in " + text);
        }
        Expression[] operands = promote(left, right, common, text);
        return Functions.fold(new Comparison(op, operands[0], operands[1], text), operands);
    }

    /** Both operands converted to the physical form they compare in. */
    private static Expression[] promote(Expression left, Expression right, DataType common, String text) {
        switch (common.id()) {
            case FLOAT64 -> {
                return new Expression[] {CastExpression.of(left, DataType.FLOAT64, text),
                        CastExpression.of(right, DataType.FLOAT64, text)};
            }
            case DECIMAL -> {
                if (common.isWideDecimal()) {
                    return new Expression[] {WideDecimalCast.comparable(left, common.scale(), text),
                            WideDecimalCast.comparable(right, common.scale(), text)};
                }
                return new Expression[] {CastExpression.comparable(left, common.scale(), text),
                        CastExpression.comparable(right, common.scale(), text)};
            }
            case INT64 -> {
                if (fitsInt(right) && left.type().id() == TypeId.INT32) {
                    return new Expression[] {left, CastExpression.of(right, DataType.INT32, text)};
                }
                if (fitsInt(left) && right.type().id() == TypeId.INT32) {
                    return new Expression[] {CastExpression.of(left, DataType.INT32, text), right};
                }
                return new Expression[] {CastExpression.of(left, DataType.INT64, text),
                        CastExpression.of(right, DataType.INT64, text)};
            }
            case TIMESTAMP -> {
                return new Expression[] {CastExpression.of(left, DataType.TIMESTAMP, text),
                        CastExpression.of(right, DataType.TIMESTAMP, text)};
            }
            default -> {
                return new Expression[] {left, right};
            }
        }
    }

    private static boolean fitsInt(Expression e) {
        return e instanceof LiteralExpression lit && !lit.isNull() && lit.longValue() == (int) lit.longValue();
    }

    /** The operator with its operands swapped: a &lt; b is b &gt; a. */
    static Function mirror(Function op) {
        return switch (op) {
            case LT -> Function.GT;
            case LE -> Function.GE;
            case GT -> Function.LT;
            case GE -> Function.LE;
            default -> op;
        };
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
        ColumnVector av = left.evaluate(batch);
        return mask(batch, av, constant == null ? right.evaluate(batch) : null);
    }

    /** Numbers compare straight into the selection; other types through the BOOLEAN vector. */
    @Override
    public int select(Batch batch, int[] out) {
        if (constant != null && constant.isNull()) {
            return 0;
        }
        ColumnVector av = left.evaluate(batch);
        ColumnVector bv = constant == null ? right.evaluate(batch) : null;
        long[] va = av.validity();
        long[] vb = bv == null ? null : bv.validity();
        int n = batch.size();
        int[] sel = batch.selection();
        if (av instanceof IntVector a) {
            return select(a.values(), bv == null ? null : ((IntVector) bv).values(),
                    constant == null ? 0 : constant.intValue(), va, vb, op, out, sel, n);
        }
        if (av instanceof LongVector a) {
            return select(a.values(), bv == null ? null : ((LongVector) bv).values(),
                    constant == null ? 0 : constant.longValue(), va, vb, op, out, sel, n);
        }
        if (av instanceof DoubleVector a) {
            return select(a.values(), bv == null ? null : ((DoubleVector) bv).values(),
                    constant == null ? 0 : constant.doubleValue(), va, vb, op, out, sel, n);
        }
        if (av instanceof StringVector a && (op == Function.EQ || op == Function.NE)) {
            return selectEqualStrings(a, (StringVector) bv, op == Function.EQ ? 1 : 0, va, vb, out, sel, n);
        }
        return Kernels.select(mask(batch, av, bv), batch, out);
    }

    /** The live rows where the strings are equal ({@code match} 1) or unequal (0), neither NULL. */
    private int selectEqualStrings(StringVector av, StringVector bv, int match, long[] va, long[] vb, int[] out,
                                   int[] sel, int n) {
        if (bv == null && shortLiteral != null) {
            return shortLiteral.select(av, va, match, out, sel, n);
        }
        byte[] ad = av.data();
        int[] ao = av.offsets();
        byte[] bd = bv == null ? constant.utf8() : bv.data();
        int[] bo = bv == null ? null : bv.offsets();
        int k = 0;
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            int bs = bo == null ? 0 : bo[r];
            int be = bo == null ? bd.length : bo[r + 1];
            out[k] = r;
            k += ((equal(ad, ao[r], ao[r + 1], bd, bs, be) ? 1 : 0) ^ match ^ 1)
                    & Kernels.bit(va, r) & Kernels.bit(vb, r);
        }
        return k;
    }

    /**
     * {@code a[aFrom..aTo)} equals {@code b[bFrom..bTo)}: lengths first, then a plain loop for short
     * strings (most are, and the bulk compare's setup costs more than it saves there).
     */
    private static boolean equal(byte[] a, int aFrom, int aTo, byte[] b, int bFrom, int bTo) {
        int len = aTo - aFrom;
        if (len != bTo - bFrom) {
            return false;
        }
        if (len > SHORT_STRING) {
            return Arrays.equals(a, aFrom, aTo, b, bFrom, bTo);
        }
        for (int j = 0; j < len; j++) {
            if (a[aFrom + j] != b[bFrom + j]) {
                return false;
            }
        }
        return true;
    }

    /** The comparison of {@code av} with {@code bv}, or with the constant when {@code bv} is null. */
    private BooleanVector mask(Batch batch, ColumnVector av, ColumnVector bv) {
        long[] valid;
        if (bv != null) {
            valid = Kernels.and(av, bv);
        } else {
            valid = constant.isNull() ? Kernels.allNull(batch.rowCount()) : Kernels.copy(av);
        }
        byte[] o = new byte[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        if (av instanceof IntVector a) {
            compare(a.values(), bv == null ? null : ((IntVector) bv).values(),
                    constant == null ? 0 : constant.intValue(), op, o, sel, n);
        } else if (av instanceof LongVector a) {
            compare(a.values(), bv == null ? null : ((LongVector) bv).values(),
                    constant == null ? 0 : constant.longValue(), op, o, sel, n);
        } else if (av instanceof DoubleVector a) {
            compare(a.values(), bv == null ? null : ((DoubleVector) bv).values(),
                    constant == null ? 0 : constant.doubleValue(), op, o, sel, n);
        } else if (av instanceof BooleanVector a) {
            compare(a.values(), bv == null ? null : ((BooleanVector) bv).values(),
                    constant == null ? 0 : (byte) constant.longValue(), op, o, sel, n);
        } else if (av instanceof Int128Vector a) {
            compareWide(a, (Int128Vector) bv, constant == null ? 0 : constant.highValue(),
                    constant == null ? 0 : constant.longValue(), op, o, sel, n);
        } else {
            compareStrings((StringVector) av, (StringVector) bv, constant == null ? null : constant.utf8(), op, o, sel, n);
        }
        BooleanVector out = new BooleanVector(o);
        out.setValidity(valid);
        return out;
    }

    /**
     * Values of two words as their type orders them ({@link Int128Vector#compareWords}: an INTERVAL by its length,
     * a DECIMAL as a number), {@code bv} or else the constant's words {@code lh}, {@code ll} on the right.
     */
    private static void compareWide(Int128Vector av, Int128Vector bv, long lh, long ll, Function op, byte[] o,
                                    int[] sel, int n) {
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            int c = bv == null ? av.compareWords(av.high(r), av.low(r), lh, ll)
                    : av.compareWords(av.high(r), av.low(r), bv.high(r), bv.low(r));
            boolean holds = switch (op) {
                case EQ -> c == 0;
                case NE -> c != 0;
                case LT -> c < 0;
                case LE -> c <= 0;
                case GT -> c > 0;
                default -> c >= 0;
            };
            o[r] = (byte) (holds ? 1 : 0);
        }
    }

    private void compareStrings(StringVector av, StringVector bv, byte[] literal, Function op, byte[] o, int[] sel,
                                int n) {
        byte[] ad = av.data();
        int[] ao = av.offsets();
        if (shortLiteral != null && bv == null && (op == Function.EQ || op == Function.NE)) {
            shortLiteral.compare(av, op == Function.EQ ? 1 : 0, o, sel, n);
            return;
        }
        // A missing right vector means the literal; its bytes stand in for the right data at 0..length.
        byte[] bd = bv == null ? (literal == null ? new byte[0] : literal) : bv.data();
        int[] bo = bv == null ? null : bv.offsets();
        int litLen = bd.length;
        if (op == Function.EQ || op == Function.NE) {
            int match = op == Function.EQ ? 1 : 0;
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                int bs = bo == null ? 0 : bo[r];
                int be = bo == null ? litLen : bo[r + 1];
                boolean eq = equal(ad, ao[r], ao[r + 1], bd, bs, be);
                o[r] = (byte) (eq ? match : 1 - match);
            }
            return;
        }
        // The outcome for each sign of the comparison, fixed per batch.
        byte less = (byte) (op == Function.LT || op == Function.LE ? 1 : 0);
        byte equal = (byte) (op == Function.LE || op == Function.GE ? 1 : 0);
        byte greater = (byte) (op == Function.GT || op == Function.GE ? 1 : 0);
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            int bs = bo == null ? 0 : bo[r];
            int be = bo == null ? litLen : bo[r + 1];
            int cmp = Arrays.compareUnsigned(ad, ao[r], ao[r + 1], bd, bs, be);
            o[r] = cmp < 0 ? less : cmp == 0 ? equal : greater;
        }
    }

    private static void compare(int[] a, int[] b, int c, Function op, byte[] o, int[] sel, int n) {
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] == (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] != (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] < (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] <= (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] > (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] >= (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            default -> throw new IllegalStateException("not a comparison: " + op);
        }
    }

    private static void compare(long[] a, long[] b, long c, Function op, byte[] o, int[] sel, int n) {
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] == (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] != (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] < (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] <= (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] > (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] >= (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            default -> throw new IllegalStateException("not a comparison: " + op);
        }
    }

    private static void compare(double[] a, double[] b, double c, Function op, byte[] o, int[] sel, int n) {
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] == (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] != (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] < (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] <= (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] > (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] >= (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            default -> throw new IllegalStateException("not a comparison: " + op);
        }
    }

    private static void compare(byte[] a, byte[] b, byte c, Function op, byte[] o, int[] sel, int n) {
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] == (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] != (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] < (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] <= (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] > (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (byte) (a[r] >= (b == null ? c : b[r]) ? 1 : 0);
                }
            }
            default -> throw new IllegalStateException("not a comparison: " + op);
        }
    }

    private static int select(int[] a, int[] b, int c, long[] va, long[] vb, Function op, int[] out,
                              int[] sel, int n) {
        int k = 0;
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] == (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] != (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] < (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] <= (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] > (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] >= (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            default -> throw new IllegalStateException("not a comparison: " + op);
        }
        return k;
    }

    private static int select(long[] a, long[] b, long c, long[] va, long[] vb, Function op, int[] out,
                              int[] sel, int n) {
        int k = 0;
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] == (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] != (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] < (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] <= (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] > (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] >= (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            default -> throw new IllegalStateException("not a comparison: " + op);
        }
        return k;
    }

    private static int select(double[] a, double[] b, double c, long[] va, long[] vb, Function op, int[] out,
                              int[] sel, int n) {
        int k = 0;
        switch (op) {
            case EQ -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] == (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case NE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] != (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case LT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] < (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case LE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] <= (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case GT -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] > (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            case GE -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    out[k] = r;
                    k += (a[r] >= (b == null ? c : b[r]) ? 1 : 0) & Kernels.bit(va, r) & Kernels.bit(vb, r);
                }
            }
            default -> throw new IllegalStateException("not a comparison: " + op);
        }
        return k;
    }
}
