package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Int128;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * abs, sign, floor, ceil, round and trunc of a DECIMAL of more than 18 digits ({@link DataType#isWideDecimal}),
 * with the types and rules of their narrow kernels ({@link Round}, {@link DecimalFloorCeil}, {@link Sign}): a value
 * at a time through {@link BigDecimal}, as such values are rare and these functions cheap beside what made them. A
 * result past its type's digits (round of 38 nines to tens) fails naming the value. Registered in
 * {@link NumericFunctions} beside the narrow signatures, which a wide argument would otherwise narrow to 18 digits.
 *
 * <p>Immutable and threadsafe.
 */
final class WideDecimalFunction implements Expression {

    /** The functions. */
    enum Op {
        ABS,
        SIGN,
        FLOOR,
        CEIL,
        ROUND,
        TRUNC
    }

    private final Op op;
    private final Expression value;
    /** round's and trunc's digits after the point (negative: before it). */
    private final int places;
    private final DataType type;
    private final String text;

    private WideDecimalFunction(Op op, Expression value, int places, DataType type, String text) {
        this.op = op;
        this.value = value;
        this.places = places;
        this.type = type;
        this.text = text;
    }

    /**
     * The kernel of {@code op}'s wide signature: round and trunc take their digits as an optional INTEGER constant
     * (NULL digits give NULL), and leave a value of no more digits after the point than asked as it is.
     */
    static Signature.Kernel kernel(Op op) {
        return (args, type, text) -> {
            Expression value = args.get(0);
            if (op != Op.ROUND && op != Op.TRUNC) {
                return new WideDecimalFunction(op, value, 0, type, text);
            }
            LiteralExpression digits = args.size() == 2 ? (LiteralExpression) args.get(1) : null;
            if (digits != null && digits.isNull()) {
                return new LiteralExpression(null, type, text);
            }
            int places = Round.places(digits == null ? 0 : digits.intValue());
            return places >= value.type().scale() ? value : new WideDecimalFunction(op, value, places, type, text);
        };
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
        Int128Vector in = (Int128Vector) value.evaluate(batch);
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        ColumnVector out;
        if (op == Op.SIGN) {
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = in.high(r) < 0 ? -1 : in.high(r) == 0 && in.low(r) == 0 ? 0 : 1;
            }
            out = new IntVector(type, o);
        } else {
            long[] high = new long[rows];
            long[] low = new long[rows];
            int scale = in.type().scale();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (in.isNull(r)) {
                    continue;
                }
                BigInteger unscaled = apply(Int128.toBigDecimal(in.high(r), in.low(r), scale))
                        .setScale(type.scale(), RoundingMode.UNNECESSARY).unscaledValue();
                if (!Int128.set(unscaled, high, low, r) || Int128.hasMoreDigits(high[r], low[r], type.precision())) {
                    throw CastExpression.outOfRange(CastExpression.describe(in, r), type, text);
                }
            }
            out = new Int128Vector(type, high, low);
        }
        out.setValidity(Kernels.copy(in));
        return out;
    }

    private BigDecimal apply(BigDecimal v) {
        return switch (op) {
            case ABS -> v.abs();
            case FLOOR -> v.setScale(0, RoundingMode.FLOOR);
            case CEIL -> v.setScale(0, RoundingMode.CEILING);
            case ROUND -> v.setScale(places, RoundingMode.HALF_UP);
            case TRUNC -> v.setScale(places, RoundingMode.DOWN);
            case SIGN -> throw new IllegalStateException("sign is an INTEGER");
        };
    }
}
