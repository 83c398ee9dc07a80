package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Int128;

/**
 * + - * % and unary minus whose result is a DECIMAL of more than 18 digits ({@link DataType#isWideDecimal}), on
 * signed 128-bit unscaled values ({@link Int128}). The operands are exact numbers of any width, read as 128-bit
 * words ({@link WideDecimals#widen}); for + - % each is first brought to the result's scale. Every result is
 * checked against the type's precision: one that passes it fails naming the operands and the type, as DuckDB's
 * "Overflow in addition of DECIMAL(38)" does. A remainder by zero fails as the narrow kernels' does.
 *
 * <p>Immutable and threadsafe.
 */
final class WideDecimalArithmetic implements Expression {

    private final Function op;
    private final Expression left;
    /** The right operand; null for unary minus. */
    private final Expression right;
    private final DataType type;
    private final String text;

    private WideDecimalArithmetic(Function op, Expression left, Expression right, DataType type, String text) {
        this.op = op;
        this.left = left;
        this.right = right;
        this.type = type;
        this.text = text;
    }

    /** {@code left op right} of the wide DECIMAL {@code type}; op is ADD, SUBTRACT, MULTIPLY or MODULO. */
    static Expression binary(Function op, Expression left, Expression right, DataType type, String text) {
        return new WideDecimalArithmetic(op, left, right, type, text);
    }

    /** {@code -value} of a wide DECIMAL. */
    static Expression negate(Expression value, String text) {
        return new WideDecimalArithmetic(Function.SUBTRACT, null, value, value.type(), text);
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
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        long[] ah = new long[rows];
        long[] al = new long[rows];
        long[] bh = new long[rows];
        long[] bl = new long[rows];
        ColumnVector b = right.evaluate(batch);
        WideDecimals.widen(b, sel, n, bh, bl);
        ColumnVector a = null;
        long[] valid;
        if (left == null) {
            valid = Kernels.copy(b);
        } else {
            a = left.evaluate(batch);
            WideDecimals.widen(a, sel, n, ah, al);
            valid = Kernels.and(a, b);
        }
        boolean rescaled = op != Function.MULTIPLY;
        int sa = left == null ? type.scale() : TypeRules.scale(left.type());
        int sb = TypeRules.scale(right.type());
        long[] oh = new long[rows];
        long[] ol = new long[rows];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            boolean fits = !rescaled || (Int128.rescale(ah[r], al[r], sa, type.scale(), ah, al, r)
                    && Int128.rescale(bh[r], bl[r], sb, type.scale(), bh, bl, r));
            fits = fits && switch (op) {
                case ADD -> Int128.add(ah[r], al[r], bh[r], bl[r], oh, ol, r);
                case SUBTRACT -> Int128.subtract(ah[r], al[r], bh[r], bl[r], oh, ol, r);
                case MULTIPLY -> Int128.multiply(ah[r], al[r], bh[r], bl[r], oh, ol, r);
                case MODULO -> remainder(ah[r], al[r], bh[r], bl[r], oh, ol, r);
                default -> throw new IllegalStateException("not a decimal operator: " + op);
            };
            if (!fits || Int128.hasMoreDigits(oh[r], ol[r], type.precision())) {
                throw overflow(a, b, r);
            }
        }
        Int128Vector out = new Int128Vector(type, oh, ol);
        out.setValidity(valid);
        return out;
    }

    private boolean remainder(long xh, long xl, long yh, long yl, long[] oh, long[] ol, int r) {
        if (yh == 0 && yl == 0) {
            throw Kernels.divisionByZero(text);
        }
        return Int128.set(Int128.toBigInteger(xh, xl).remainder(Int128.toBigInteger(yh, yl)), oh, ol, r);
    }

    /** The error for a result past the type, naming the operands' values. */
    private RuntimeException overflow(ColumnVector a, ColumnVector b, int row) {
        String operands = a == null ? "-" + CastExpression.describe(b, row)
                : CastExpression.describe(a, row) + " " + symbol() + " " + CastExpression.describe(b, row);
        return new QueryDataException(QueryDataException.Kind.OVERFLOW, "overflow in " + text + ": " + operands
                + " does not fit " + type);
    }

    private String symbol() {
        return switch (op) {
            case ADD -> "+";
            case SUBTRACT -> "-";
            case MULTIPLY -> "*";
            default -> "%";
        };
    }
}
