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
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.Int128;
import io.troupe.operators.types.TypeId;

import java.math.BigDecimal;

/**
 * CAST to or from a DECIMAL of more than 18 digits ({@link DataType#isWideDecimal}), with the rules of
 * {@link CastExpression}: exact numbers (integers, decimals of any width, a BOOLEAN as 0 or 1) move to the target's
 * scale as 128-bit integers, rounding half away from zero when the scale drops, and must fit its precision (an
 * integer's range); a DOUBLE is multiplied by 10^scale in double precision and rounded half away from zero, as
 * a narrow decimal's cast does and DuckDB does; text reads as {@link TextParser} reads numbers. A value that does
 * not fit fails naming it and the expression, in PostgreSQL's words.
 *
 * <p>Also the internal conversion of an exact operand to a wide decimal of a comparison's scale
 * ({@link #comparable}), which saturates instead of failing.
 *
 * <p>Immutable and threadsafe.
 */
final class WideDecimalCast implements Expression {

    private enum Kind {
        /** Between exact numbers: at least one side a wide DECIMAL. */
        EXACT,
        /** Internal: an exact operand at a comparison's scale, saturating at the 128-bit range. */
        SATURATING,
        TO_DOUBLE,
        FROM_DOUBLE,
        TO_BOOLEAN,
        TO_VARCHAR,
        FROM_VARCHAR
    }

    private final Expression input;
    private final DataType target;
    private final Kind kind;
    private final String text;

    private WideDecimalCast(Expression input, DataType target, Kind kind, String text) {
        this.input = input;
        this.target = target;
        this.kind = kind;
        this.text = text;
    }

    /** True when a cast from {@code source} to {@code target} is one of this class's. */
    static boolean applies(DataType source, DataType target) {
        return source.isWideDecimal() || target.isWideDecimal();
    }

    /**
     * The cast of {@code input} to {@code target}, one side a wide DECIMAL ({@link #applies}).
     *
     * @throws ExpressionTypeException when there is no conversion between the types
     */
    static Expression of(Expression input, DataType target, String text) {
        DataType source = input.type();
        Kind kind = kindOf(source.id(), target.id());
        if (kind == null) {
            throw new ExpressionTypeException("cannot cast " + source.sqlName() + " to " + target.sqlName()
                    + " in " + text);
        }
        return Functions.fold(new WideDecimalCast(input, target, kind, text), input);
    }

    /**
     * An INT32, INT64 or DECIMAL operand as DECIMAL(38, {@code scale}) words, {@code scale} at least its own,
     * saturating instead of overflowing: only for comparing with a value of that scale, whose magnitude stays
     * below 10^38, so a saturated value still compares correctly.
     */
    static Expression comparable(Expression input, int scale, String text) {
        DataType wide = DataType.decimal(DataType.MAX_DECIMAL_PRECISION, scale);
        if (input.type().equals(wide)) {
            return input;
        }
        return Functions.fold(new WideDecimalCast(input, wide, Kind.SATURATING, text), input);
    }

    private static Kind kindOf(TypeId s, TypeId t) {
        boolean exactSource = s == TypeId.DECIMAL || s == TypeId.INT32 || s == TypeId.INT64 || s == TypeId.BOOLEAN;
        if (t == TypeId.DECIMAL) {
            return exactSource ? Kind.EXACT : s == TypeId.FLOAT64 ? Kind.FROM_DOUBLE
                    : s == TypeId.VARCHAR ? Kind.FROM_VARCHAR : null;
        }
        return switch (t) {
            case INT32, INT64 -> Kind.EXACT;
            case FLOAT64 -> Kind.TO_DOUBLE;
            case BOOLEAN -> Kind.TO_BOOLEAN;
            case VARCHAR -> Kind.TO_VARCHAR;
            default -> null;
        };
    }

    @Override
    public DataType type() {
        return target;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector in = input.evaluate(batch);
        ColumnVector out = switch (kind) {
            case EXACT, SATURATING -> exact(batch, in);
            case TO_DOUBLE -> toDouble(batch, (Int128Vector) in);
            case FROM_DOUBLE -> fromDouble(batch, (DoubleVector) in);
            case TO_BOOLEAN -> toBoolean(batch, (Int128Vector) in);
            case TO_VARCHAR -> toVarchar(batch, (Int128Vector) in);
            case FROM_VARCHAR -> fromVarchar(batch, (StringVector) in);
        };
        out.setValidity(Kernels.copy(in));
        return out;
    }

    /** Exact numbers to the target's scale, checked against its precision or range (or saturated). */
    private ColumnVector exact(Batch batch, ColumnVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        long[] high = new long[rows];
        long[] low = new long[rows];
        WideDecimals.widen(in, sel, n, high, low);
        int from = TypeRules.scale(in.type());
        int to = TypeRules.scale(target);
        long[] valid = in.validity();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            boolean negative = high[r] < 0;
            boolean fits = Int128.rescale(high[r], low[r], from, to, high, low, r);
            if (kind == Kind.SATURATING) {
                if (!fits) {
                    high[r] = negative ? Long.MIN_VALUE : Long.MAX_VALUE;
                    low[r] = negative ? 0 : -1L;
                }
            } else if (!fits || !fitsTarget(high[r], low[r])) {
                throw CastExpression.outOfRange(CastExpression.describe(in, r), target, text);
            }
        }
        return switch (target.physical()) {
            case INT -> {
                int[] o = new int[rows];
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = (int) low[r];
                }
                yield new IntVector(target, o);
            }
            case LONG -> new LongVector(target, low);
            default -> new Int128Vector(target, high, low);
        };
    }

    private boolean fitsTarget(long high, long low) {
        return switch (target.id()) {
            case INT32 -> Int128.isLong(high, low) && low == (int) low;
            case INT64 -> Int128.isLong(high, low);
            default -> !Int128.hasMoreDigits(high, low, target.precision());
        };
    }

    private ColumnVector toDouble(Batch batch, Int128Vector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        double unit = Decimals.pow10Double(in.type().scale());
        double[] o = new double[batch.rowCount()];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = Int128.toDouble(in.high(r), in.low(r)) / unit;
        }
        return new DoubleVector(o);
    }

    private ColumnVector fromDouble(Batch batch, DoubleVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        long[] high = new long[rows];
        long[] low = new long[rows];
        double unit = Decimals.pow10Double(target.scale());
        long[] valid = in.validity();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            double t = CastExpression.roundHalfAway(in.get(r) * unit);
            if (!Double.isFinite(t) || !Int128.set(new BigDecimal(t).toBigInteger(), high, low, r)
                    || Int128.hasMoreDigits(high[r], low[r], target.precision())) {
                throw CastExpression.outOfRange(Double.toString(in.get(r)), target, text);
            }
        }
        return new Int128Vector(target, high, low);
    }

    private ColumnVector toBoolean(Batch batch, Int128Vector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        byte[] o = new byte[batch.rowCount()];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = (byte) (in.high(r) != 0 || in.low(r) != 0 ? 1 : 0);
        }
        return new BooleanVector(o);
    }

    private ColumnVector toVarchar(Batch batch, Int128Vector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        StringVector out = new StringVector(batch.rowCount(), Math.max(16, n * 24));
        byte[] buf = new byte[TextFormat.MAX_LENGTH];
        int scale = in.type().scale();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!in.isNull(r)) {
                out.put(r, buf, 0, TextFormat.formatDecimal(in.high(r), in.low(r), scale, buf, 0));
            }
        }
        return out.seal();
    }

    private ColumnVector fromVarchar(Batch batch, StringVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        long[] high = new long[rows];
        long[] low = new long[rows];
        byte[] data = in.data();
        int[] offsets = in.offsets();
        long[] valid = in.validity();
        TextParser parser = new TextParser();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            if (parser.parseScaledWide(data, offsets[r], offsets[r + 1], target.scale())
                    && !Int128.hasMoreDigits(parser.highValue, parser.longValue, target.precision())) {
                high[r] = parser.highValue;
                low[r] = parser.longValue;
            } else if (parser.parseDouble(data, offsets[r], offsets[r + 1])) {
                throw CastExpression.outOfRange("\"" + in.getString(r) + "\"", target, text);
            } else {
                throw CastExpression.invalidText(in.getString(r), target, text);
            }
        }
        return new Int128Vector(target, high, low);
    }
}
