package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.Blobs;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Int128;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;
import io.troupe.operators.types.Uuids;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Objects;

/**
 * A constant. {@code value} is the Java form ({@link ColumnVector#getObject}'s types) or null for
 * a typed NULL. Kernels read the primitive form ({@link #intValue()}, {@link #longValue()}, ...)
 * once per batch; {@link #evaluate} yields a vector holding the value at every row.
 *
 * <p>Immutable and threadsafe. The vector built for the last row count is kept and handed out
 * again (vectors are immutable once returned, see {@link Expression#evaluate}); the cache field
 * is volatile, so a vector built by one worker is safely published to the others, and a race
 * only builds an equal vector twice.
 */
public final class LiteralExpression implements Expression {

    private final Object value;
    private final DataType type;
    private final String text;
    /** INT32, INT16, INT8 and DATE (days) values. */
    private final int intValue;
    /**
     * INT64 values, DECIMAL unscaled values (a wide DECIMAL's low word), BOOLEAN as 0/1, TIMESTAMP, TIMESTAMP_TZ and
     * TIME microseconds, an INTERVAL's microseconds.
     */
    private final long longValue;
    /** The high word of a value of two: a wide DECIMAL's, an INTERVAL's months and days. */
    private final long highValue;
    private final double doubleValue;
    /** VARCHAR values as UTF-8. */
    private final byte[] bytes;
    private volatile ColumnVector cached;

    /**
     * @param value a value of {@code type}'s Java form, or null; numbers of another boxed type
     *              are converted when exact, a yyyy-mm-dd String is accepted for DATE
     * @throws ExpressionTypeException when {@code value} is not a value of {@code type}
     */
    public LiteralExpression(Object value, DataType type, String text) {
        this.type = Objects.requireNonNull(type, "type");
        this.text = text;
        Object v = null;
        int i = 0;
        long l = 0;
        long h = 0;
        double d = 0;
        byte[] b = null;
        if (value != null) {
            try {
                switch (type.id()) {
                    case INT32 -> {
                        i = Math.toIntExact(exactLong(value));
                        v = i;
                    }
                    case INT64 -> {
                        l = exactLong(value);
                        v = l;
                    }
                    case INT16 -> {
                        i = Math.toIntExact(exactLong(value));
                        if (i != (short) i) {
                            throw new ArithmeticException();
                        }
                        v = (short) i;
                    }
                    case INT8 -> {
                        i = Math.toIntExact(exactLong(value));
                        if (i != (byte) i) {
                            throw new ArithmeticException();
                        }
                        v = (byte) i;
                    }
                    case FLOAT32 -> {
                        float f = ((Number) value).floatValue();
                        d = f;
                        v = f;
                    }
                    case FLOAT64 -> {
                        d = ((Number) value).doubleValue();
                        v = d;
                    }
                    case DECIMAL -> {
                        BigDecimal big = value instanceof BigDecimal bd ? bd : new BigDecimal(value.toString());
                        BigInteger unscaled = big.setScale(type.scale(), RoundingMode.UNNECESSARY).unscaledValue();
                        if (type.isWideDecimal()) {
                            if (unscaled.bitLength() > 127) {
                                throw new ArithmeticException();
                            }
                            h = Int128.high(unscaled);
                            l = unscaled.longValue();
                        } else {
                            l = unscaled.longValueExact();
                        }
                        v = new BigDecimal(unscaled, type.scale());
                    }
                    case DATE -> {
                        i = value instanceof LocalDate date ? Dates.fromLocalDate(date) : Dates.parse((String) value);
                        v = Dates.toLocalDate(i);
                    }
                    case BOOLEAN -> {
                        l = (Boolean) value ? 1 : 0;
                        v = value;
                    }
                    case VARCHAR -> {
                        b = ((String) value).getBytes(StandardCharsets.UTF_8);
                        v = value;
                    }
                    case TIMESTAMP, TIMESTAMP_TZ, TIME -> {
                        l = Timestamps.valueOf(value, type.id());
                        v = Timestamps.toObject(l, type.id());
                    }
                    case INTERVAL -> {
                        Interval interval = value instanceof String s ? Interval.parse(s) : (Interval) value;
                        l = interval.micros();
                        h = interval.high();
                        v = interval;
                    }
                    case UUID -> {
                        java.util.UUID uuid = value instanceof String s ? Uuids.parse(s) : (java.util.UUID) value;
                        l = Uuids.low(uuid);
                        h = Uuids.high(uuid);
                        v = uuid;
                    }
                    case BLOB -> {
                        b = value instanceof String s ? Blobs.parse(s) : ((byte[]) value).clone();
                        v = b.clone();
                    }
                }
            } catch (ClassCastException | ArithmeticException | IllegalArgumentException e) {
                throw new ExpressionTypeException("the literal " + value + " (" + value.getClass().getSimpleName()
                        + ") is not a value of type " + type);
            }
        }
        this.value = v;
        this.intValue = i;
        this.longValue = l;
        this.highValue = h;
        this.doubleValue = d;
        this.bytes = b;
    }

    /** A literal of {@code vector}'s value at {@code row}, typed {@code type} (the vector's type, or a wider one). */
    static LiteralExpression of(ColumnVector vector, int row, DataType type, String text) {
        if (vector.isNull(row)) {
            return new LiteralExpression(null, type, text);
        }
        if (type.id() == TypeId.DECIMAL && vector instanceof LongVector lv) {
            // Unscaled values beyond the type's precision occur in internal comparison operands.
            return new LiteralExpression(BigDecimal.valueOf(lv.get(row), type.scale()), type, text);
        }
        if (type.isWideDecimal() && vector instanceof Int128Vector wide) {
            return new LiteralExpression(Int128.toBigDecimal(wide.high(row), wide.low(row), type.scale()), type, text);
        }
        return new LiteralExpression(vector.getObject(row), type, text);
    }

    private static long exactLong(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigDecimal bd) {
            return bd.longValueExact();
        }
        if (value instanceof BigInteger bi) {
            return bi.longValueExact();
        }
        throw new ClassCastException();
    }

    /** The Java value, or null. */
    public Object value() {
        return value;
    }

    @Override
    public DataType type() {
        return type;
    }

    public String text() {
        return text;
    }

    public boolean isNull() {
        return value == null;
    }

    /** INT32, INT16 or INT8 value, or DATE as days since the epoch. */
    public int intValue() {
        return intValue;
    }

    /**
     * INT64 value, DECIMAL unscaled value (a wide one's low word), BOOLEAN as 0/1, TIMESTAMP, TIMESTAMP_TZ or TIME
     * microseconds, or an INTERVAL's microseconds.
     */
    public long longValue() {
        return longValue;
    }

    /** The high word of a wide DECIMAL's unscaled value or of an INTERVAL ({@link Int128Vector}). */
    public long highValue() {
        return highValue;
    }

    /** FLOAT64 or FLOAT32 value. */
    public double doubleValue() {
        return doubleValue;
    }

    /** VARCHAR value as UTF-8 (do not modify). */
    public byte[] utf8() {
        return bytes;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        int n = batch.rowCount();
        ColumnVector c = cached;
        if (c != null && c.capacity() == n) {
            return c;
        }
        c = fill(n);
        cached = c;
        return c;
    }

    private ColumnVector fill(int n) {
        ColumnVector out;
        if (value == null) {
            out = ColumnVector.allocate(type, n);
            if (out instanceof StringVector s) {
                s.seal();
            }
            out.setValidity(new long[Math.max(1, Validity.words(n))]);
            return out;
        }
        switch (type.physical()) {
            case INT -> {
                int[] values = new int[n];
                Arrays.fill(values, intValue);
                out = new IntVector(type, values);
            }
            case LONG -> {
                long[] values = new long[n];
                Arrays.fill(values, longValue);
                out = new LongVector(type, values);
            }
            case DOUBLE -> {
                double[] values = new double[n];
                Arrays.fill(values, doubleValue);
                out = new DoubleVector(type, values);
            }
            case BOOLEAN -> {
                byte[] values = new byte[n];
                Arrays.fill(values, (byte) longValue);
                out = new BooleanVector(values);
            }
            case INT128 -> {
                long[] high = new long[n];
                long[] low = new long[n];
                Arrays.fill(high, highValue);
                Arrays.fill(low, longValue);
                out = new Int128Vector(type, high, low);
            }
            default -> {
                StringVector s = new StringVector(type, n, Math.max(16, n * bytes.length));
                for (int r = 0; r < n; r++) {
                    s.put(r, bytes, 0, bytes.length);
                }
                out = s.seal();
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LiteralExpression other && Objects.equals(value, other.value)
                && type.equals(other.type) && Objects.equals(text, other.text);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value, type, text);
    }

    @Override
    public String toString() {
        return text;
    }
}
