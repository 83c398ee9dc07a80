package io.troupe.operators.batch;

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
import java.time.LocalDate;

/**
 * Appends values of one type row by row, then yields a dense {@link ColumnVector}. For loading
 * data (tables built from Java, files) and for operators that emit rows one at a time; kernels
 * write vectors directly.
 *
 * <p>Not threadsafe.
 */
public final class VectorBuilder {

    private final DataType type;
    private final int capacity;
    private ColumnVector vector;
    private int size;

    /** A builder of vectors of at most {@code capacity} rows. */
    public VectorBuilder(DataType type, int capacity) {
        this.type = type;
        this.capacity = capacity;
        this.vector = ColumnVector.allocate(type, capacity);
    }

    public DataType type() {
        return type;
    }

    public int size() {
        return size;
    }

    public boolean isFull() {
        return size == capacity;
    }

    public void appendNull() {
        if (vector instanceof StringVector s) {
            s.putNull(size);
        } else {
            vector.setNull(size);
        }
        size++;
    }

    public void appendInt(int value) {
        ((IntVector) vector).set(size++, value);
    }

    public void appendLong(long value) {
        ((LongVector) vector).set(size++, value);
    }

    public void appendDouble(double value) {
        ((DoubleVector) vector).set(size++, value);
    }

    public void appendInt128(long high, long low) {
        ((Int128Vector) vector).set(size++, high, low);
    }

    public void appendBoolean(boolean value) {
        ((BooleanVector) vector).set(size++, value);
    }

    public void appendBytes(byte[] utf8, int offset, int length) {
        ((StringVector) vector).put(size++, utf8, offset, length);
    }

    public void appendString(String value) {
        ((StringVector) vector).put(size++, value);
    }

    /** Copies row {@code row} of {@code source} (a vector of the same type). */
    public void appendFrom(ColumnVector source, int row) {
        if (source.isNull(row)) {
            appendNull();
            return;
        }
        if (source instanceof IntVector v) {
            appendInt(v.get(row));
        } else if (source instanceof LongVector v) {
            appendLong(v.get(row));
        } else if (source instanceof DoubleVector v) {
            appendDouble(v.get(row));
        } else if (source instanceof BooleanVector v) {
            appendBoolean(v.get(row));
        } else if (source instanceof Int128Vector v) {
            appendInt128(v.high(row), v.low(row));
        } else {
            StringVector v = (StringVector) source;
            appendBytes(v.data(), v.start(row), v.length(row));
        }
    }

    /**
     * Appends a Java value: Integer/Short/Byte, Long, Double/Float, BigDecimal (or any Number for
     * DECIMAL), LocalDate (or a yyyy-mm-dd String for DATE), Boolean, String, LocalDateTime for a
     * TIMESTAMP, Instant (or an OffsetDateTime or ZonedDateTime) for a TIMESTAMP_TZ, LocalTime for a TIME
     * (each also as its text), {@link Interval} (or its text) for an INTERVAL, or null.
     *
     * @throws IllegalArgumentException when the value does not fit this builder's type
     */
    public void appendObject(Object value) {
        if (value == null) {
            appendNull();
            return;
        }
        switch (type.id()) {
            case INT32 -> {
                if (!(value instanceof Integer || value instanceof Short || value instanceof Byte)) {
                    throw mismatch(value);
                }
                appendInt(((Number) value).intValue());
            }
            case INT64 -> {
                if (!(value instanceof Long || value instanceof Integer || value instanceof Short
                        || value instanceof Byte)) {
                    throw mismatch(value);
                }
                appendLong(((Number) value).longValue());
            }
            case FLOAT64 -> {
                if (!(value instanceof Number n)) {
                    throw mismatch(value);
                }
                appendDouble(n.doubleValue());
            }
            case INT16, INT8 -> {
                long max = type.id() == TypeId.INT16 ? Short.MAX_VALUE : Byte.MAX_VALUE;
                if (!(value instanceof Long || value instanceof Integer || value instanceof Short
                        || value instanceof Byte) || ((Number) value).longValue() > max
                        || ((Number) value).longValue() < -max - 1) {
                    throw mismatch(value);
                }
                appendInt(((Number) value).intValue());
            }
            case FLOAT32 -> {
                if (!(value instanceof Number n)) {
                    throw mismatch(value);
                }
                appendDouble(n.floatValue());
            }
            case DECIMAL -> {
                BigDecimal d = toDecimal(value);
                if (type.isWideDecimal()) {
                    BigInteger unscaled = d.unscaledValue();
                    appendInt128(Int128.high(unscaled), unscaled.longValue());
                } else {
                    appendLong(d.unscaledValue().longValueExact());
                }
            }
            case DATE -> {
                if (value instanceof LocalDate d) {
                    appendInt(Dates.fromLocalDate(d));
                } else if (value instanceof String s) {
                    appendInt(Dates.parse(s));
                } else {
                    throw mismatch(value);
                }
            }
            case BOOLEAN -> {
                if (!(value instanceof Boolean b)) {
                    throw mismatch(value);
                }
                appendBoolean(b);
            }
            case VARCHAR -> {
                if (!(value instanceof String s)) {
                    throw mismatch(value);
                }
                appendString(s);
            }
            case TIMESTAMP, TIMESTAMP_TZ, TIME -> appendLong(Timestamps.valueOf(value, type.id()));
            case INTERVAL -> {
                Interval v = value instanceof Interval i ? i : value instanceof String s ? Interval.parse(s) : null;
                if (v == null) {
                    throw mismatch(value);
                }
                appendInt128(v.high(), v.micros());
            }
            case UUID -> {
                java.util.UUID v = value instanceof java.util.UUID u ? u
                        : value instanceof String s ? Uuids.parse(s) : null;
                if (v == null) {
                    throw mismatch(value);
                }
                appendInt128(Uuids.high(v), Uuids.low(v));
            }
            case BLOB -> {
                if (!(value instanceof byte[] b)) {
                    throw mismatch(value);
                }
                appendBytes(b, 0, b.length);
            }
        }
    }

    /** {@code value} at this builder's scale, rounded half away from zero, and checked against its precision. */
    private BigDecimal toDecimal(Object value) {
        BigDecimal d;
        if (value instanceof BigDecimal b) {
            d = b;
        } else if (value instanceof BigInteger b) {
            d = new BigDecimal(b);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short) {
            d = BigDecimal.valueOf(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            d = BigDecimal.valueOf(((Number) value).doubleValue());
        } else {
            throw mismatch(value);
        }
        BigDecimal scaled = d.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
            throw new IllegalArgumentException("value " + d + " does not fit " + type);
        }
        return scaled;
    }

    private IllegalArgumentException mismatch(Object value) {
        return new IllegalArgumentException("expected a value of type " + type + ", got "
                + value.getClass().getSimpleName() + " '" + value + "'");
    }

    /** The vector built so far (dense, {@link #size()} rows); the builder starts afresh. */
    public ColumnVector build() {
        ColumnVector built = vector;
        if (built instanceof StringVector s) {
            s.seal();
        }
        ColumnVector result = size == capacity ? built : built.gather(identity(size), size);
        vector = ColumnVector.allocate(type, capacity);
        size = 0;
        return result;
    }

    private static int[] identity(int n) {
        int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            rows[i] = i;
        }
        return rows;
    }
}
