package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.TypeId;

import java.math.BigDecimal;

/**
 * CAST between types, and the implicit conversions of numeric promotion. One {@link Kind} is
 * chosen at bind time; {@link #evaluate} switches on it once per batch and runs one loop.
 *
 * <p>Rounding follows DuckDB: FLOAT64 to an integer rounds half to even ({@code 2.5} is 2: DuckDB
 * uses {@code nearbyint}); FLOAT64 to DECIMAL multiplies by 10^scale in double and rounds half
 * away from zero; DECIMAL to an integer or a smaller scale rounds half away from zero. A value
 * out of the target's range, or text that does not parse (see {@link TextParser}), fails the
 * query naming the value and the expression. DATE converts only to and from VARCHAR.
 *
 * <p>Immutable and threadsafe.
 */
final class CastExpression implements Expression {

    /** The conversion, resolved once at bind time. */
    enum Kind {
        INT_TO_LONG,
        INT_TO_DOUBLE,
        LONG_TO_INT,
        LONG_TO_DOUBLE,
        INTEGER_TO_DECIMAL,
        DOUBLE_TO_INT,
        DOUBLE_TO_LONG,
        DOUBLE_TO_DECIMAL,
        DECIMAL_TO_INT,
        DECIMAL_TO_LONG,
        DECIMAL_TO_DOUBLE,
        DECIMAL_TO_DECIMAL,
        /** Internal: an exact operand multiplied up to a comparison scale, saturating at the long range. */
        RESCALE_SATURATING,
        BOOLEAN_TO_NUMBER,
        NUMBER_TO_BOOLEAN,
        TO_VARCHAR,
        FROM_VARCHAR
    }

    private final Expression input;
    private final DataType target;
    private final Kind kind;
    private final String text;

    private CastExpression(Expression input, DataType target, Kind kind, String text) {
        this.input = input;
        this.target = target;
        this.kind = kind;
        this.text = text;
    }

    /**
     * {@code input} converted to {@code target}: the input itself when the types are equal, a
     * literal when the input is one and converts, otherwise a cast.
     *
     * @param text the expression named in errors (the CAST, or the expression that promotes)
     * @throws ExpressionTypeException when there is no conversion between the types
     */
    static Expression of(Expression input, DataType target, String text) {
        DataType source = input.type();
        if (source.equals(target)) {
            return input;
        }
        Kind kind = kindOf(source, target);
        if (kind == null) {
            throw new ExpressionTypeException("cannot cast " + source + " to " + target + " in " + text);
        }
        return Functions.fold(new CastExpression(input, target, kind, text), input);
    }

    /**
     * An INT32, INT64 or DECIMAL operand as unscaled longs at {@code scale} (at least its own),
     * saturating instead of overflowing: only for comparing with a DECIMAL of that scale, whose
     * values stay below 10^18, so a saturated value still compares correctly.
     */
    static Expression comparable(Expression input, int scale, String text) {
        DataType source = input.type();
        int from = TypeRules.scale(source);
        if (from == scale && source.id() != TypeId.INT32) {
            return input;
        }
        return Functions.fold(new CastExpression(input, DataType.decimal(DataType.MAX_DECIMAL_PRECISION, scale),
                Kind.RESCALE_SATURATING, text), input);
    }

    private static Kind kindOf(DataType source, DataType target) {
        TypeId s = source.id();
        TypeId t = target.id();
        if (s == TypeId.VARCHAR) {
            return Kind.FROM_VARCHAR;
        }
        if (t == TypeId.VARCHAR) {
            return Kind.TO_VARCHAR;
        }
        if (s == TypeId.DATE || t == TypeId.DATE) {
            return null;
        }
        if (s == TypeId.BOOLEAN) {
            return Kind.BOOLEAN_TO_NUMBER;
        }
        if (t == TypeId.BOOLEAN) {
            return Kind.NUMBER_TO_BOOLEAN;
        }
        return switch (s) {
            case INT32 -> t == TypeId.INT64 ? Kind.INT_TO_LONG
                    : t == TypeId.FLOAT64 ? Kind.INT_TO_DOUBLE : Kind.INTEGER_TO_DECIMAL;
            case INT64 -> t == TypeId.INT32 ? Kind.LONG_TO_INT
                    : t == TypeId.FLOAT64 ? Kind.LONG_TO_DOUBLE : Kind.INTEGER_TO_DECIMAL;
            case FLOAT64 -> t == TypeId.INT32 ? Kind.DOUBLE_TO_INT
                    : t == TypeId.INT64 ? Kind.DOUBLE_TO_LONG : Kind.DOUBLE_TO_DECIMAL;
            default -> t == TypeId.INT32 ? Kind.DECIMAL_TO_INT
                    : t == TypeId.INT64 ? Kind.DECIMAL_TO_LONG
                    : t == TypeId.FLOAT64 ? Kind.DECIMAL_TO_DOUBLE : Kind.DECIMAL_TO_DECIMAL;
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
            case INT_TO_LONG, INT_TO_DOUBLE, BOOLEAN_TO_NUMBER -> fromInts(batch, in);
            case LONG_TO_INT, LONG_TO_DOUBLE, INTEGER_TO_DECIMAL, DECIMAL_TO_INT, DECIMAL_TO_LONG,
                    DECIMAL_TO_DOUBLE -> fromLongs(batch, in);
            case DOUBLE_TO_INT, DOUBLE_TO_LONG, DOUBLE_TO_DECIMAL -> fromDoubles(batch, (DoubleVector) in);
            case DECIMAL_TO_DECIMAL -> rescale(batch, (LongVector) in);
            case RESCALE_SATURATING -> saturate(batch, in);
            case NUMBER_TO_BOOLEAN -> toBoolean(batch, in);
            case TO_VARCHAR -> toVarchar(batch, in);
            case FROM_VARCHAR -> fromVarchar(batch, (StringVector) in);
        };
        out.setValidity(Kernels.copy(in));
        return out;
    }

    // ------------------------------------------------------------------ numeric

    /** INT32 (or BOOLEAN as 0/1) to INT64, FLOAT64, DECIMAL or INT32. */
    private ColumnVector fromInts(Batch batch, ColumnVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        int[] ints = in instanceof IntVector iv ? iv.values() : null;
        byte[] bools = in instanceof BooleanVector bv ? bv.values() : null;
        long[] valid = in.validity();
        if (target.id() == TypeId.FLOAT64) {
            double[] o = new double[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = ints == null ? bools[r] : ints[r];
            }
            return new DoubleVector(o);
        }
        if (target.id() == TypeId.INT32) {
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = bools[r];
            }
            return new IntVector(target, o);
        }
        long unit = Decimals.pow10(TypeRules.scale(target));
        boolean fits = target.id() != TypeId.DECIMAL || target.precision() > target.scale();
        long[] o = new long[rows];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            int x = ints == null ? bools[r] : ints[r];
            if (!fits && x != 0 && Kernels.isValid(valid, r)) {
                throw cannotCast(ints == null ? "true" : Integer.toString(x));
            }
            o[r] = x * unit;
        }
        return new LongVector(target, o);
    }

    /** INT64 or DECIMAL to INT32, INT64, FLOAT64 or DECIMAL (INT64 to DECIMAL included). */
    private ColumnVector fromLongs(Batch batch, ColumnVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        long[] valid = in.validity();
        long[] ints64 = in instanceof LongVector lv ? lv.values() : null;
        int[] ints32 = in instanceof IntVector iv ? iv.values() : null;
        int scale = TypeRules.scale(in.type());
        if (target.id() == TypeId.FLOAT64) {
            double unit = Decimals.pow10(scale);
            double[] o = new double[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = ints64[r] / unit;
            }
            return new DoubleVector(o);
        }
        if (target.id() == TypeId.INT32) {
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (!Kernels.isValid(valid, r)) {
                    continue;
                }
                long x = scale == 0 ? ints64[r] : Decimals.rescale(ints64[r], scale, 0);
                if (x != (int) x) {
                    throw cannotCast(describe(in, r));
                }
                o[r] = (int) x;
            }
            return new IntVector(target, o);
        }
        if (target.id() == TypeId.INT64) {
            long[] o = new long[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = Decimals.rescale(ints64[r], scale, 0);
            }
            return new LongVector(target, o);
        }
        // An integer (INT32 or INT64) to DECIMAL(p, s): it must have at most p - s digits.
        long limit = Decimals.pow10(target.precision() - target.scale());
        long unit = Decimals.pow10(target.scale());
        long[] o = new long[rows];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            long x = ints32 != null ? ints32[r] : ints64[r];
            if ((x >= limit || x <= -limit) && Kernels.isValid(valid, r)) {
                throw cannotCast(Long.toString(x));
            }
            o[r] = x * unit;
        }
        return new LongVector(target, o);
    }

    private ColumnVector fromDoubles(Batch batch, DoubleVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        double[] a = in.values();
        long[] valid = in.validity();
        if (target.id() == TypeId.INT32) {
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                double t = Math.rint(a[r]);
                if (!(t >= Integer.MIN_VALUE && t <= Integer.MAX_VALUE) && Kernels.isValid(valid, r)) {
                    throw cannotCast(Double.toString(a[r]));
                }
                o[r] = (int) t;
            }
            return new IntVector(target, o);
        }
        if (target.id() == TypeId.INT64) {
            long[] o = new long[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                double t = Math.rint(a[r]);
                if (!(t >= -0x1p63 && t < 0x1p63) && Kernels.isValid(valid, r)) {
                    throw cannotCast(Double.toString(a[r]));
                }
                o[r] = (long) t;
            }
            return new LongVector(target, o);
        }
        double unit = Decimals.pow10(target.scale());
        double limit = Decimals.pow10(target.precision());
        long[] o = new long[rows];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            double t = roundHalfAway(a[r] * unit);
            if (!(Math.abs(t) < limit) && Kernels.isValid(valid, r)) {
                throw cannotCast(Double.toString(a[r]));
            }
            o[r] = (long) t;
        }
        return new LongVector(target, o);
    }

    /** Rounds to an integral double, halves away from zero. Exact: {@code |x| - floor(|x|)} loses nothing. */
    static double roundHalfAway(double x) {
        double abs = Math.abs(x);
        double floor = Math.floor(abs);
        return Math.copySign(abs - floor >= 0.5 ? floor + 1 : floor, x);
    }

    private ColumnVector rescale(Batch batch, LongVector in) {
        int from = in.type().scale();
        int to = target.scale();
        long limit = Decimals.pow10(target.precision());
        long[] a = in.values();
        if (from == to && target.precision() >= in.type().precision()) {
            return new LongVector(target, a); // same values, a wider type: share the array
        }
        int n = batch.size();
        int[] sel = batch.selection();
        long[] valid = in.validity();
        long[] o = new long[batch.rowCount()];
        // Scaling up by 10^k cannot overflow a long: |x| < 10^18 and the result is checked
        // against 10^precision first, on the unscaled side.
        long unit = to > from ? Decimals.pow10(to - from) : 1;
        long upLimit = to > from ? Decimals.pow10(Math.max(0, target.precision() - (to - from))) : limit;
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            long x = a[r];
            long v;
            if (to > from) {
                if ((x >= upLimit || x <= -upLimit) && Kernels.isValid(valid, r)) {
                    throw cannotCast(describe(in, r));
                }
                v = x * unit;
            } else {
                v = Decimals.rescale(x, from, to);
                if ((v >= limit || v <= -limit) && Kernels.isValid(valid, r)) {
                    throw cannotCast(describe(in, r));
                }
            }
            o[r] = v;
        }
        return new LongVector(target, o);
    }

    private ColumnVector saturate(Batch batch, ColumnVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        long[] longs = in instanceof LongVector lv ? lv.values() : null;
        int[] ints = in instanceof IntVector iv ? iv.values() : null;
        long unit = Decimals.pow10(target.scale() - TypeRules.scale(in.type()));
        long[] o = new long[batch.rowCount()];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            long x = longs == null ? ints[r] : longs[r];
            long lo = x * unit;
            o[r] = Math.multiplyHigh(x, unit) == (lo >> 63) ? lo : (x < 0 ? Long.MIN_VALUE : Long.MAX_VALUE);
        }
        return new LongVector(target, o);
    }

    private ColumnVector toBoolean(Batch batch, ColumnVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        byte[] o = new byte[batch.rowCount()];
        if (in instanceof IntVector iv) {
            int[] a = iv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (a[r] != 0 ? 1 : 0);
            }
        } else if (in instanceof LongVector lv) {
            long[] a = lv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (a[r] != 0 ? 1 : 0);
            }
        } else {
            double[] a = ((DoubleVector) in).values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = (byte) (a[r] != 0 ? 1 : 0);
            }
        }
        return new BooleanVector(o);
    }

    // ------------------------------------------------------------------ text

    private ColumnVector toVarchar(Batch batch, ColumnVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        StringVector out = new StringVector(batch.rowCount(), Math.max(16, n * 12));
        byte[] buf = new byte[TextFormat.MAX_LENGTH];
        TypeId source = in.type().id();
        int scale = TypeRules.scale(in.type());
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (in.isNull(r)) {
                continue;
            }
            int len = switch (source) {
                case INT32 -> TextFormat.formatLong(((IntVector) in).get(r), buf, 0);
                case INT64 -> TextFormat.formatLong(((LongVector) in).get(r), buf, 0);
                case DECIMAL -> TextFormat.formatDecimal(((LongVector) in).get(r), scale, buf, 0);
                case FLOAT64 -> TextFormat.formatDouble(((DoubleVector) in).get(r), buf, 0);
                case DATE -> TextFormat.formatDate(((IntVector) in).get(r), buf, 0);
                case BOOLEAN -> TextFormat.formatBoolean(((BooleanVector) in).get(r), buf, 0);
                case VARCHAR -> throw new IllegalStateException("VARCHAR to VARCHAR is no cast");
            };
            out.put(r, buf, 0, len);
        }
        return out.seal();
    }

    private ColumnVector fromVarchar(Batch batch, StringVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        byte[] data = in.data();
        int[] offsets = in.offsets();
        long[] valid = in.validity();
        TextParser parser = new TextParser();
        TypeId t = target.id();
        int[] ints = t == TypeId.INT32 || t == TypeId.DATE ? new int[rows] : null;
        long[] longs = t == TypeId.INT64 || t == TypeId.DECIMAL ? new long[rows] : null;
        double[] doubles = t == TypeId.FLOAT64 ? new double[rows] : null;
        byte[] bools = t == TypeId.BOOLEAN ? new byte[rows] : null;
        int scale = TypeRules.scale(target);
        long limit = t == TypeId.DECIMAL ? Decimals.pow10(target.precision()) : 0;
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            int from = offsets[r];
            int to = offsets[r + 1];
            boolean ok;
            switch (t) {
                case INT32 -> {
                    ok = parser.parseScaled(data, from, to, 0) && parser.longValue == (int) parser.longValue;
                    if (ok) {
                        ints[r] = (int) parser.longValue;
                    }
                }
                case INT64, DECIMAL -> {
                    ok = parser.parseScaled(data, from, to, scale)
                            && (t == TypeId.INT64 || (parser.longValue < limit && parser.longValue > -limit));
                    if (ok) {
                        longs[r] = parser.longValue;
                    }
                }
                case FLOAT64 -> {
                    ok = parser.parseDouble(data, from, to);
                    doubles[r] = parser.doubleValue;
                }
                case DATE -> {
                    ok = parser.parseDate(data, from, to);
                    ints[r] = parser.intValue;
                }
                case BOOLEAN -> {
                    ok = parser.parseBoolean(data, from, to);
                    bools[r] = (byte) parser.longValue;
                }
                default -> throw new IllegalStateException("VARCHAR to VARCHAR is no cast");
            }
            if (!ok) {
                throw cannotCast("'" + in.getString(r) + "'");
            }
        }
        return switch (t) {
            case INT32, DATE -> new IntVector(target, ints);
            case INT64, DECIMAL -> new LongVector(target, longs);
            case FLOAT64 -> new DoubleVector(doubles);
            default -> new BooleanVector(bools);
        };
    }

    // ------------------------------------------------------------------ errors

    private static String describe(ColumnVector in, int row) {
        Object v = in.getObject(row);
        return v instanceof BigDecimal d ? d.toPlainString() : String.valueOf(v);
    }

    private QueryFailedException cannotCast(String value) {
        return new QueryDataException(QueryDataException.Kind.INVALID_CAST,
                "cannot cast " + value + " to " + target + " in " + text);
    }
}
