package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.types.Blobs;
import io.troupe.operators.types.ByteChars;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;
import io.troupe.operators.types.Uuids;

import java.math.BigDecimal;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * CAST between types, and the implicit conversions of numeric promotion. One {@link Kind} is
 * chosen at bind time; {@link #evaluate} switches on it once per batch and runs one loop.
 *
 * <p>Rounding follows DuckDB: FLOAT64 to an integer rounds half to even ({@code 2.5} is 2: DuckDB
 * uses {@code nearbyint}); FLOAT64 to DECIMAL multiplies by 10^scale in double and rounds half
 * away from zero; DECIMAL to an integer or a smaller scale rounds half away from zero. A value
 * out of the target's range, or text that does not parse (see {@link TextParser}), fails the
 * query naming the value and the expression.
 *
 * <p>SMALLINT and TINYINT (INT16, INT8) convert as INT32 does, checked against their own range; a REAL (FLOAT32)
 * converts as a FLOAT64 does and is then rounded to the nearest float, failing where the value is finite and the
 * float is not, or the value is not zero and the float is (PostgreSQL's overflow and underflow).
 *
 * <p>Dates and times convert among themselves as PostgreSQL converts them: DATE to TIMESTAMP is its
 * midnight, TIMESTAMP to DATE and TIME its day and time of day; TIMESTAMP_TZ to and from the others goes
 * through the local time in a zone, which the cast carries (the SQL session's zone; UTC when a plan names
 * none). No number converts to or from them.
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
        /** Among INT32, INT16 and INT8 (and BOOLEAN to them), checked when narrower. */
        INT_TO_INT,
        /** Between FLOAT64 and FLOAT32. */
        DOUBLE_TO_DOUBLE,
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
        FROM_VARCHAR,
        DATE_TO_TIMESTAMP,
        TIMESTAMP_TO_DATE,
        TIMESTAMP_TO_TIME,
        /** TIMESTAMP to TIMESTAMP_TZ: the local time in the cast's zone. */
        LOCAL_TO_INSTANT,
        /** TIMESTAMP_TZ to TIMESTAMP: the local time in the cast's zone. */
        INSTANT_TO_LOCAL,
        /** BLOB to its text, PostgreSQL's hex form ({@link Blobs}). */
        BLOB_TO_VARCHAR,
        /** Text to a BLOB: PostgreSQL's hex or escape form ({@link Blobs#parse}). */
        VARCHAR_TO_BLOB
    }

    private final Expression input;
    private final DataType target;
    private final Kind kind;
    /** The zone of a conversion between local and absolute times, and of an instant's text. */
    private final ZoneId zone;
    private final String text;

    private CastExpression(Expression input, DataType target, Kind kind, ZoneId zone, String text) {
        this.input = input;
        this.target = target;
        this.kind = kind;
        this.zone = zone;
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
        return of(input, target, ZoneOffset.UTC, text);
    }

    /**
     * As {@link #of(Expression, DataType, String)}, with the zone that a conversion between TIMESTAMP_TZ and
     * the local types (or text) reads its local time in.
     */
    static Expression of(Expression input, DataType target, ZoneId zone, String text) {
        DataType source = input.type();
        if (source.equals(target)) {
            return input;
        }
        if (WideDecimalCast.applies(source, target)) {
            // A SMALLINT, TINYINT or REAL goes to and from a wide decimal through INTEGER or DOUBLE.
            if (wide(source.id()) != source.id()) {
                return of(of(input, peer(source), zone, text), target, zone, text);
            }
            if (wide(target.id()) != target.id()) {
                return of(of(input, peer(target), zone, text), target, zone, text);
            }
            return WideDecimalCast.of(input, target, text);
        }
        TypeId s = source.id();
        TypeId t = target.id();
        // Between the instants and DATE or TIME: through the local TIMESTAMP in the zone.
        if (s == TypeId.TIMESTAMP_TZ && (t == TypeId.DATE || t == TypeId.TIME)
                || t == TypeId.TIMESTAMP_TZ && s == TypeId.DATE) {
            return of(of(input, DataType.TIMESTAMP, zone, text), target, zone, text);
        }
        Kind kind = kindOf(source, target);
        if (kind == null) {
            throw new ExpressionTypeException("cannot cast " + source.sqlName() + " to " + target.sqlName()
                    + " in " + text);
        }
        return Functions.fold(new CastExpression(input, target, kind, zone, text), input);
    }

    /**
     * An INT32, INT64 or DECIMAL operand as unscaled longs at {@code scale} (at least its own),
     * saturating instead of overflowing: only for comparing with a DECIMAL of that scale, whose
     * values stay below 10^18, so a saturated value still compares correctly.
     */
    static Expression comparable(Expression input, int scale, String text) {
        DataType source = input.type();
        int from = TypeRules.scale(source);
        if (from == scale && !source.isIntBacked()) {
            return input;
        }
        return Functions.fold(new CastExpression(input, DataType.decimal(DataType.MAX_LONG_PRECISION, scale),
                Kind.RESCALE_SATURATING, ZoneOffset.UTC, text), input);
    }

    private static Kind kindOf(DataType source, DataType target) {
        TypeId s = wide(source.id());
        TypeId t = wide(target.id());
        if (s == TypeId.BLOB || t == TypeId.BLOB) {
            return s == TypeId.BLOB && t == TypeId.VARCHAR ? Kind.BLOB_TO_VARCHAR
                    : s == TypeId.VARCHAR ? Kind.VARCHAR_TO_BLOB : null;
        }
        if (s == TypeId.VARCHAR) {
            return Kind.FROM_VARCHAR;
        }
        if (t == TypeId.VARCHAR) {
            return Kind.TO_VARCHAR;
        }
        if (s.isTemporal() || t.isTemporal()) {
            return temporalKind(s, t);
        }
        if (!(s.isNumeric() || s == TypeId.BOOLEAN) || !(t.isNumeric() || t == TypeId.BOOLEAN)) {
            return null; // INTERVAL, UUID and BLOB convert to and from text only
        }
        if (s == TypeId.BOOLEAN) {
            return Kind.BOOLEAN_TO_NUMBER;
        }
        if (t == TypeId.BOOLEAN) {
            return Kind.NUMBER_TO_BOOLEAN;
        }
        return switch (s) {
            case INT32 -> t == TypeId.INT32 ? Kind.INT_TO_INT : t == TypeId.INT64 ? Kind.INT_TO_LONG
                    : t == TypeId.FLOAT64 ? Kind.INT_TO_DOUBLE : Kind.INTEGER_TO_DECIMAL;
            case INT64 -> t == TypeId.INT32 ? Kind.LONG_TO_INT
                    : t == TypeId.FLOAT64 ? Kind.LONG_TO_DOUBLE : Kind.INTEGER_TO_DECIMAL;
            case FLOAT64 -> t == TypeId.FLOAT64 ? Kind.DOUBLE_TO_DOUBLE : t == TypeId.INT32 ? Kind.DOUBLE_TO_INT
                    : t == TypeId.INT64 ? Kind.DOUBLE_TO_LONG : Kind.DOUBLE_TO_DECIMAL;
            default -> t == TypeId.INT32 ? Kind.DECIMAL_TO_INT
                    : t == TypeId.INT64 ? Kind.DECIMAL_TO_LONG
                    : t == TypeId.FLOAT64 ? Kind.DECIMAL_TO_DOUBLE : Kind.DECIMAL_TO_DECIMAL;
        };
    }

    /** The type whose conversions a narrow one shares: INT32 for INT16 and INT8, FLOAT64 for FLOAT32. */
    private static TypeId wide(TypeId t) {
        return switch (t) {
            case INT16, INT8 -> TypeId.INT32;
            case FLOAT32 -> TypeId.FLOAT64;
            default -> t;
        };
    }

    /** INT32 or FLOAT64: the type a narrow one converts through where a conversion has no narrow form. */
    private static DataType peer(DataType t) {
        return wide(t.id()) == TypeId.INT32 ? DataType.INT32 : DataType.FLOAT64;
    }

    /** The least value of an integer type held in an int (INT32, INT16, INT8). */
    static int minOf(DataType t) {
        return t.id() == TypeId.INT16 ? Short.MIN_VALUE : t.id() == TypeId.INT8 ? Byte.MIN_VALUE : Integer.MIN_VALUE;
    }

    /** The greatest value of an integer type held in an int (INT32, INT16, INT8). */
    static int maxOf(DataType t) {
        return t.id() == TypeId.INT16 ? Short.MAX_VALUE : t.id() == TypeId.INT8 ? Byte.MAX_VALUE : Integer.MAX_VALUE;
    }

    /** A conversion among DATE, TIMESTAMP, TIMESTAMP_TZ and TIME in one step, or null. */
    private static Kind temporalKind(TypeId s, TypeId t) {
        return switch (s) {
            case DATE -> t == TypeId.TIMESTAMP ? Kind.DATE_TO_TIMESTAMP : null;
            case TIMESTAMP -> t == TypeId.DATE ? Kind.TIMESTAMP_TO_DATE
                    : t == TypeId.TIME ? Kind.TIMESTAMP_TO_TIME
                    : t == TypeId.TIMESTAMP_TZ ? Kind.LOCAL_TO_INSTANT : null;
            case TIMESTAMP_TZ -> t == TypeId.TIMESTAMP ? Kind.INSTANT_TO_LOCAL : null;
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
            case INT_TO_INT, INT_TO_LONG, INT_TO_DOUBLE, BOOLEAN_TO_NUMBER -> fromInts(batch, in);
            case LONG_TO_INT, LONG_TO_DOUBLE, INTEGER_TO_DECIMAL, DECIMAL_TO_INT, DECIMAL_TO_LONG,
                    DECIMAL_TO_DOUBLE -> fromLongs(batch, in);
            case DOUBLE_TO_DOUBLE, DOUBLE_TO_INT, DOUBLE_TO_LONG, DOUBLE_TO_DECIMAL ->
                    fromDoubles(batch, (DoubleVector) in);
            case DECIMAL_TO_DECIMAL -> rescale(batch, (LongVector) in);
            case RESCALE_SATURATING -> saturate(batch, in);
            case NUMBER_TO_BOOLEAN -> toBoolean(batch, in);
            case TO_VARCHAR -> toVarchar(batch, in);
            case FROM_VARCHAR -> fromVarchar(batch, (StringVector) in);
            case BLOB_TO_VARCHAR -> blobToVarchar(batch, (StringVector) in);
            case VARCHAR_TO_BLOB -> varcharToBlob(batch, (StringVector) in);
            case DATE_TO_TIMESTAMP, TIMESTAMP_TO_DATE, TIMESTAMP_TO_TIME, LOCAL_TO_INSTANT, INSTANT_TO_LOCAL ->
                    temporal(batch, in);
        };
        if (target.id() == TypeId.FLOAT32) {
            out = toFloat(batch, (DoubleVector) out, in.validity());
        }
        out.setValidity(Kernels.copy(in));
        return out;
    }

    // ------------------------------------------------------------------ numeric

    /**
     * Doubles rounded to the nearest float, as FLOAT32; a finite value past the floats, or a tiny one, fails where
     * {@code valid} (the cast's input's validity) has a value.
     */
    private ColumnVector toFloat(Batch batch, DoubleVector in, long[] valid) {
        int n = batch.size();
        int[] sel = batch.selection();
        double[] a = in.values();
        double[] o = new double[batch.rowCount()];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            float f = (float) a[r];
            if ((Float.isInfinite(f) && !Double.isInfinite(a[r]) || f == 0 && a[r] != 0) && Kernels.isValid(valid, r)) {
                throw outOfRange(Double.toString(a[r]), target, text);
            }
            o[r] = f;
        }
        return new DoubleVector(target, o);
    }

    /** INT32, INT16 or INT8 (or BOOLEAN as 0/1) to INT64, FLOAT64, DECIMAL or one another. */
    private ColumnVector fromInts(Batch batch, ColumnVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        int[] ints = in instanceof IntVector iv ? iv.values() : null;
        byte[] bools = in instanceof BooleanVector bv ? bv.values() : null;
        long[] valid = in.validity();
        if (target.physical() == PhysicalType.DOUBLE) {
            double[] o = new double[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = ints == null ? bools[r] : ints[r];
            }
            return new DoubleVector(o);
        }
        if (TypeRules.isIntInteger(target)) {
            int min = minOf(target);
            int max = maxOf(target);
            if (ints != null && min <= minOf(in.type()) && max >= maxOf(in.type())) {
                return new IntVector(target, ints); // same values, a wider type: share the array
            }
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                int x = ints == null ? bools[r] : ints[r];
                if ((x < min || x > max) && Kernels.isValid(valid, r)) {
                    throw outOfRange(Integer.toString(x), target, text);
                }
                o[r] = x;
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
                throw outOfRange(ints == null ? "true" : Integer.toString(x), target, text);
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
        if (target.physical() == PhysicalType.DOUBLE) {
            double unit = Decimals.pow10(scale);
            double[] o = new double[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = ints64[r] / unit;
            }
            return new DoubleVector(o);
        }
        if (TypeRules.isIntInteger(target)) {
            int min = minOf(target);
            int max = maxOf(target);
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (!Kernels.isValid(valid, r)) {
                    continue;
                }
                long x = scale == 0 ? ints64[r] : Decimals.rescale(ints64[r], scale, 0);
                if (x < min || x > max) {
                    throw outOfRange(describe(in, r), target, text);
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
                throw outOfRange(Long.toString(x), target, text);
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
        if (target.physical() == PhysicalType.DOUBLE) {
            return new DoubleVector(target, a); // FLOAT32 to FLOAT64 shares; the other way evaluate rounds
        }
        if (TypeRules.isIntInteger(target)) {
            int min = minOf(target);
            int max = maxOf(target);
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                double t = Math.rint(a[r]);
                if (!(t >= min && t <= max) && Kernels.isValid(valid, r)) {
                    throw outOfRange(Double.toString(a[r]), target, text);
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
                    throw outOfRange(Double.toString(a[r]), target, text);
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
                throw outOfRange(Double.toString(a[r]), target, text);
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
                    throw outOfRange(describe(in, r), target, text);
                }
                v = x * unit;
            } else {
                v = Decimals.rescale(x, from, to);
                if ((v >= limit || v <= -limit) && Kernels.isValid(valid, r)) {
                    throw outOfRange(describe(in, r), target, text);
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

    // ------------------------------------------------------------------ dates and times

    private ColumnVector temporal(Batch batch, ColumnVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        if (kind == Kind.DATE_TO_TIMESTAMP) {
            int[] a = ((IntVector) in).values();
            long[] o = new long[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = Timestamps.ofDay(a[r]);
            }
            return new LongVector(target, o);
        }
        long[] a = ((LongVector) in).values();
        if (kind == Kind.TIMESTAMP_TO_DATE) {
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = Timestamps.day(a[r]);
            }
            return new IntVector(target, o);
        }
        long[] o = new long[rows];
        ZoneRules rules = zone.getRules();
        long[] valid = in.validity();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = switch (kind) {
                case TIMESTAMP_TO_TIME -> Timestamps.timeOfDay(a[r]);
                case LOCAL_TO_INSTANT -> Kernels.isValid(valid, r) ? Timestamps.fromLocal(a[r], rules) : 0;
                default -> Kernels.isValid(valid, r) ? Timestamps.toLocal(a[r], rules) : 0;
            };
        }
        return new LongVector(target, o);
    }

    // ------------------------------------------------------------------ text

    private ColumnVector toVarchar(Batch batch, ColumnVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        StringVector out = new StringVector(batch.rowCount(), Math.max(16, n * 12));
        byte[] buf = new byte[Math.max(TextFormat.MAX_LENGTH, Timestamps.MAX_TEXT_LENGTH)];
        ZoneRules rules = zone.getRules();
        TypeId source = in.type().id();
        int scale = TypeRules.scale(in.type());
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (in.isNull(r)) {
                continue;
            }
            int len = switch (source) {
                case INT32, INT16, INT8 -> TextFormat.formatLong(((IntVector) in).get(r), buf, 0);
                case INT64 -> TextFormat.formatLong(((LongVector) in).get(r), buf, 0);
                case DECIMAL -> TextFormat.formatDecimal(((LongVector) in).get(r), scale, buf, 0);
                case FLOAT64 -> TextFormat.formatDouble(((DoubleVector) in).get(r), buf, 0);
                case FLOAT32 -> TextFormat.formatFloat(((DoubleVector) in).get(r), buf, 0);
                case DATE -> Dates.format(((IntVector) in).get(r), buf, 0);
                case BOOLEAN -> TextFormat.formatBoolean(((BooleanVector) in).get(r), buf, 0);
                case TIMESTAMP -> Timestamps.formatTimestamp(((LongVector) in).get(r), buf, 0);
                case TIMESTAMP_TZ -> Timestamps.formatInstant(((LongVector) in).get(r), rules, buf, 0);
                case TIME -> Timestamps.formatTime(((LongVector) in).get(r), buf, 0);
                case INTERVAL, UUID -> put(in.getObject(r).toString(), buf);
                case VARCHAR, BLOB -> throw new IllegalStateException(source + " to VARCHAR is another loop's");
            };
            out.put(r, buf, 0, len);
        }
        return out.seal();
    }

    private ColumnVector blobToVarchar(Batch batch, StringVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        StringVector out = new StringVector(batch.rowCount(), Math.max(16, 2 * in.offsets()[in.capacity()] + 2 * n));
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!in.isNull(r)) {
                out.put(r, Blobs.text(in.data(), in.start(r), in.start(r) + in.length(r)));
            }
        }
        return out.seal();
    }

    /** Text without a backslash is its own bytes; one with a backslash is read in PostgreSQL's forms. */
    private ColumnVector varcharToBlob(Batch batch, StringVector in) {
        int n = batch.size();
        int[] sel = batch.selection();
        byte[] data = in.data();
        StringVector out = new StringVector(DataType.BLOB, batch.rowCount(), Math.max(16, in.offsets()[in.capacity()]));
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (in.isNull(r)) {
                continue;
            }
            int from = in.start(r);
            int to = from + in.length(r);
            boolean plain = true;
            for (int k = from; k < to && plain; k++) {
                plain = data[k] != '\\';
            }
            if (plain) {
                out.put(r, data, from, to - from);
            } else {
                try {
                    byte[] bytes = Blobs.parse(in.getString(r));
                    out.put(r, bytes, 0, bytes.length);
                } catch (IllegalArgumentException e) {
                    throw new QueryDataException(QueryDataException.Kind.INVALID_CAST, e.getMessage() + " in " + text);
                }
            }
        }
        return out.seal();
    }

    /** Writes ASCII {@code text} into {@code buf}; returns its length. */
    private static int put(String text, byte[] buf) {
        for (int i = 0; i < text.length(); i++) {
            buf[i] = (byte) text.charAt(i);
        }
        return text.length();
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
        int[] ints = target.isIntBacked() ? new int[rows] : null;
        long[] longs = target.isLongBacked() ? new long[rows] : null;
        ByteChars chars = new ByteChars();
        double[] doubles = target.physical() == PhysicalType.DOUBLE ? new double[rows] : null;
        byte[] bools = t == TypeId.BOOLEAN ? new byte[rows] : null;
        long[] highs = target.physical() == PhysicalType.INT128 ? new long[rows] : null;
        long[] lows = target.physical() == PhysicalType.INT128 ? new long[rows] : null;
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
                case INT32, INT16, INT8 -> {
                    ok = parser.parseScaled(data, from, to, 0) && parser.longValue >= minOf(target)
                            && parser.longValue <= maxOf(target);
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
                case FLOAT32 -> {
                    // The text's nearest float, not the float nearest its nearest double.
                    ok = parser.parseDouble(data, from, to);
                    doubles[r] = ok && Double.isFinite(parser.doubleValue)
                            ? Float.parseFloat(in.getString(r).trim()) : parser.doubleValue;
                }
                case DATE -> {
                    ok = parser.parseDate(data, from, to);
                    ints[r] = parser.intValue;
                }
                case BOOLEAN -> {
                    ok = parser.parseBoolean(data, from, to);
                    bools[r] = (byte) parser.longValue;
                }
                case INTERVAL -> {
                    ok = true;
                    try {
                        Interval v = Interval.parse(chars.of(data, from, to));
                        highs[r] = v.high();
                        lows[r] = v.micros();
                    } catch (IllegalArgumentException e) {
                        throw invalidText(in.getString(r), target, text);
                    }
                }
                case UUID -> {
                    ok = true;
                    try {
                        java.util.UUID v = Uuids.parse(chars.of(data, from, to));
                        highs[r] = Uuids.high(v);
                        lows[r] = Uuids.low(v);
                    } catch (IllegalArgumentException e) {
                        throw invalidText(in.getString(r), target, text);
                    }
                }
                case TIMESTAMP, TIMESTAMP_TZ, TIME -> {
                    ok = true;
                    try {
                        chars.of(data, from, to);
                        longs[r] = t == TypeId.TIMESTAMP ? Timestamps.parseTimestamp(chars)
                                : t == TypeId.TIME ? Timestamps.parseTime(chars) : Timestamps.parseInstant(chars, zone);
                    } catch (IllegalArgumentException | ArithmeticException e) {
                        throw invalidText(in.getString(r), target, text);
                    }
                }
                default -> throw new IllegalStateException("VARCHAR to VARCHAR is no cast");
            }
            if (!ok) {
                throw t.isNumeric() && parser.parseDouble(data, from, to)
                        ? outOfRange("\"" + in.getString(r) + "\"", target, text)
                        : invalidText(in.getString(r), target, text);
            }
        }
        return switch (t) {
            case INT32, INT16, INT8, DATE -> new IntVector(target, ints);
            case FLOAT64, FLOAT32 -> new DoubleVector(target, doubles);
            case BOOLEAN -> new BooleanVector(bools);
            case INTERVAL, UUID -> new Int128Vector(target, highs, lows);
            default -> new LongVector(target, longs);
        };
    }

    // ------------------------------------------------------------------ errors

    /** The value at {@code row} as text, for errors: a decimal as {@code 12.50}. */
    static String describe(ColumnVector in, int row) {
        Object v = in.getObject(row);
        return v instanceof BigDecimal d ? d.toPlainString() : String.valueOf(v);
    }

    /** PostgreSQL's words for a value past the target's range (SQLSTATE 22003). */
    static QueryFailedException outOfRange(String value, DataType target, String text) {
        return new QueryDataException(QueryDataException.Kind.OVERFLOW,
                "value " + value + " is out of range for type " + typeName(target) + " in " + text);
    }

    /** PostgreSQL's words for text that is no value of the target type (SQLSTATE 22P02). */
    static QueryFailedException invalidText(String value, DataType target, String text) {
        return new QueryDataException(QueryDataException.Kind.INVALID_CAST,
                "invalid input syntax for type " + typeName(target) + ": \"" + value + "\" in " + text);
    }

    private static String typeName(DataType target) {
        return target.sqlName().toLowerCase(java.util.Locale.ROOT);
    }
}
