package io.troupe.operators.udf;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The Java value of each SQL type, as a function of one's own sees it: what {@code ColumnVector.getObject} gives
 * (Integer for INTEGER, Short for SMALLINT, Byte for TINYINT, Long for BIGINT, Double, Float for REAL, BigDecimal for a DECIMAL at its scale, LocalDate, Boolean,
 * String, LocalDateTime for a TIMESTAMP, Instant for a TIMESTAMP_TZ, LocalTime for a TIME, {@link Interval}): what
 * a {@link RowFunction} is given and must return.
 *
 * <p>Stateless; threadsafe.
 */
public final class JavaValues {

    private JavaValues() {
    }

    /** The class of a value of {@code type}. */
    public static Class<?> classOf(DataType type) {
        return switch (type.id()) {
            case INT32 -> Integer.class;
            case INT64 -> Long.class;
            case FLOAT64 -> Double.class;
            case DECIMAL -> BigDecimal.class;
            case DATE -> LocalDate.class;
            case BOOLEAN -> Boolean.class;
            case VARCHAR -> String.class;
            case TIMESTAMP -> LocalDateTime.class;
            case TIMESTAMP_TZ -> Instant.class;
            case TIME -> LocalTime.class;
            case INTERVAL -> Interval.class;
            case INT16 -> Short.class;
            case INT8 -> Byte.class;
            case FLOAT32 -> Float.class;
            case UUID -> java.util.UUID.class;
            case BLOB -> byte[].class;
        };
    }

    /**
     * {@code value} as a value of {@code type}: itself (null too), or for a DECIMAL the BigDecimal at the type's scale
     * when that needs no rounding.
     *
     * @throws IllegalArgumentException naming the value and its class when it is no value of {@code type}
     */
    public static Object exact(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        if (!classOf(type).isInstance(value)) {
            throw new IllegalArgumentException("a " + type.sqlName() + " is a " + classOf(type).getSimpleName() + ", not "
                    + withClass(value));
        }
        if (value instanceof BigDecimal d) {
            BigDecimal scaled;
            try {
                scaled = d.setScale(type.scale(), RoundingMode.UNNECESSARY);
            } catch (ArithmeticException rounded) {
                throw new IllegalArgumentException(d + " has more digits after the point than " + type.sqlName() + " keeps");
            }
            if (scaled.precision() > type.precision()) {
                throw new IllegalArgumentException(d + " does not fit " + type.sqlName());
            }
            return scaled;
        }
        return value;
    }

    /** Values as a call's text writes them: strings quoted, NULL as NULL. */
    public static String describe(List<?> values) {
        return values.stream().map(JavaValues::describe).collect(Collectors.joining(", "));
    }

    /** A value as a call's text writes it. */
    public static String describe(Object value) {
        if (value == null) {
            return "NULL";
        }
        return value instanceof String || value instanceof LocalDate || value instanceof LocalDateTime
                || value instanceof LocalTime || value instanceof Instant || value instanceof Interval
                ? "'" + value + "'" : value.toString();
    }

    /** A value and its class, for the message of a value of the wrong type: {@code Integer 3}. */
    static String withClass(Object value) {
        return value == null ? "NULL" : value.getClass().getSimpleName() + " " + describe(value);
    }
}
