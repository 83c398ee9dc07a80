package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.TypeId;

/**
 * {@code round(x, digits)}, halves away from zero, and {@code trunc(x, digits)}, toward zero;
 * {@code digits} is an INTEGER constant, 0 when left out. Registered in {@link NumericFunctions}.
 * <ul>
 *   <li>DECIMAL(p,s): digits &gt;= s is the value unchanged; 0 &lt;= digits &lt; s gives
 *       DECIMAL(p, digits); digits &lt; 0 gives DECIMAL(p, 0), or for round DECIMAL(p+1, 0) when s
 *       is 0 (rounding up can add a digit), rounded to tens, hundreds... in one step (DuckDB's
 *       types).</li>
 *   <li>FLOAT64: as DuckDB, {@code round(x * 10^d) / 10^d} (or {@code round(x / 10^-d) * 10^-d}),
 *       keeping x when that overflows to Infinity (or 0 for negative digits); NaN and the infinities
 *       stay as they are.</li>
 *   <li>INT32, INT64: unchanged for digits &gt;= 0, else rounded to tens, hundreds...; past the
 *       type's range that is an overflow (which truncation cannot reach).</li>
 * </ul>
 *
 * <p>Immutable and threadsafe.
 */
final class Round implements Expression {

    private final Expression value;
    private final int digits;
    /** trunc: toward zero; round: halves away from zero. */
    private final boolean truncate;
    private final DataType type;
    private final String text;

    private Round(Expression value, int digits, boolean truncate, DataType type, String text) {
        this.value = value;
        this.digits = digits;
        this.truncate = truncate;
        this.type = type;
        this.text = text;
    }

    /**
     * The kernel of round's ({@code truncate} false) or trunc's signatures: {@code round(x)} rounds to 0
     * digits, {@code round(x, NULL)} is NULL.
     */
    static Signature.Kernel kernel(boolean truncate) {
        return (args, type, text) -> {
            Expression value = args.get(0);
            LiteralExpression digits = args.size() == 2 ? (LiteralExpression) args.get(1) : null;
            if (digits != null && digits.isNull()) {
                return new LiteralExpression(null, type, text);
            }
            int places = places(digits == null ? 0 : digits.intValue());
            boolean unchanged = value.type().id() == TypeId.DECIMAL ? places >= value.type().scale()
                    : TypeRules.isInteger(value.type()) && places >= 0;
            return unchanged ? value : new Round(value, places, truncate, type, text);
        };
    }

    /**
     * The type of {@code round(x, digits)} or {@code trunc(x, digits)} for an {@code x} of type {@code value}: see
     * the class comment.
     */
    static DataType type(DataType value, long digits, boolean truncate) {
        int places = places(digits);
        if (value.id() != TypeId.DECIMAL || places >= value.scale()) {
            return value;
        }
        return places >= 0 ? DataType.decimal(value.precision(), places)
                : DataType.decimal(value.scale() > 0 || truncate ? value.precision()
                        : Math.min(value.isWideDecimal() ? DataType.MAX_DECIMAL_PRECISION : DataType.MAX_LONG_PRECISION,
                        value.precision() + 1), 0);
    }

    /** Digits past 1000 either way round as 1000 do: to the value itself, or to 0. */
    static int places(long digits) {
        return (int) Math.max(-1000, Math.min(1000, digits));
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
        ColumnVector in = value.evaluate(batch);
        int n = batch.size();
        int[] sel = batch.selection();
        int rows = batch.rowCount();
        long[] valid = in.validity();
        ColumnVector out;
        if (in instanceof DoubleVector dv) {
            out = new DoubleVector(roundDoubles(dv.values(), sel, n, rows));
        } else if (in instanceof IntVector iv) {
            int[] a = iv.values();
            int[] o = new int[rows];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                long v = toPowerOfTen(a[r], -digits) * Decimals.pow10(Math.min(18, -digits));
                if (v != (int) v && Kernels.isValid(valid, r)) {
                    throw Kernels.overflow(text, type);
                }
                o[r] = (int) v;
            }
            out = new IntVector(type, o);
        } else {
            long[] a = ((LongVector) in).values();
            long[] o = new long[rows];
            int scale = TypeRules.scale(in.type());
            long limit = type.id() == TypeId.DECIMAL ? Decimals.pow10(type.precision()) : Long.MAX_VALUE;
            try {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    if (!Kernels.isValid(valid, r)) {
                        continue;
                    }
                    // One rounding step, straight to the target unit: rounding to scale 0 first
                    // and then to tens would round 4884.5 to 4885 and then to 4890.
                    long v = digits >= 0 ? toPowerOfTen(a[r], scale - digits)
                            : Math.multiplyExact(toPowerOfTen(a[r], scale - digits),
                                    Decimals.pow10(Math.min(18, -digits)));
                    if (v >= limit || v <= -limit) {
                        throw new ArithmeticException();
                    }
                    o[r] = v;
                }
            } catch (ArithmeticException e) {
                throw Kernels.overflow(text, type);
            }
            out = new LongVector(type, o);
        }
        out.setValidity(Kernels.copy(in));
        return out;
    }

    private double[] roundDoubles(double[] a, int[] sel, int n, int rows) {
        double[] o = new double[rows];
        if (digits >= 0) {
            double m = Math.pow(10, digits);
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                double v = toInteger(a[r] * m) / m;
                o[r] = Double.isInfinite(v) || Double.isNaN(v) ? a[r] : v;
            }
        } else {
            double m = Math.pow(10, -digits);
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                double v = toInteger(a[r] / m) * m;
                o[r] = Double.isFinite(v) || !Double.isFinite(a[r]) ? v : 0;
            }
        }
        return o;
    }

    private double toInteger(double v) {
        return truncate ? (v < 0 ? Math.ceil(v) : Math.floor(v)) : CastExpression.roundHalfAway(v);
    }

    /**
     * {@code v} divided by 10^{@code power} (power &gt;= 0), rounded half away from zero or truncated.
     */
    private long toPowerOfTen(long v, int power) {
        if (power > 18) {
            return 0; // |v| < 9.3e18, below half of 10^19
        }
        long unit = Decimals.pow10(power);
        long q = v / unit;
        long rem = Math.abs(v % unit);
        if (!truncate && rem >= unit - rem) {
            q += v < 0 ? -1 : 1;
        }
        return q;
    }
}
