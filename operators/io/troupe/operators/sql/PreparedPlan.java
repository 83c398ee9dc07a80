package io.troupe.operators.sql;

import io.troupe.operators.plan.Literal;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A statement planned once ({@link SqlPlanner#prepare}) with its parameters ({@code ?}) left open: each
 * execution {@link #bind}s values to them, which puts literals where the parameters are in the plan
 * ({@link Plan#withParameters}); nothing is parsed, validated or planned again. A parameter's type is the one
 * Calcite's validator gave it from where it stands ({@code a > ?} takes {@code a}'s), and a value must fit that
 * type exactly; a wrong count of values, or a value of another type, is a {@link SqlException} naming the
 * parameter's position. Immutable and threadsafe.
 */
public final class PreparedPlan {

    private final String sql;
    private final Plan plan;
    private final int parameterCount;
    private final Map<Integer, DataType> types;

    PreparedPlan(String sql, Plan plan, int parameterCount, Map<Integer, DataType> types) {
        this.sql = sql;
        this.plan = plan;
        this.parameterCount = parameterCount;
        this.types = Map.copyOf(types);
    }

    public String sql() {
        return sql;
    }

    /** How many parameters ({@code ?}) the statement has. */
    public int parameterCount() {
        return parameterCount;
    }

    /**
     * The type of parameter {@code position} (1-based), or null when the plan does not use it (the query
     * was rewritten around it, e.g. a column of a subquery that nothing reads): it then takes any value.
     */
    public DataType parameterType(int position) {
        if (position < 1 || position > parameterCount) {
            throw new IllegalArgumentException("PreparedPlan.parameterType: position must be in 1.." + parameterCount
                    + ", got " + position);
        }
        return types.get(position);
    }

    /** The plan with its parameters open ({@link io.troupe.operators.plan.Parameter}), as EXPLAIN shows it. */
    public Plan plan() {
        return plan;
    }

    /**
     * The plan with {@code values} in place of the parameters, in order.
     *
     * @throws SqlException when the count of values is not the statement's, or a value does not fit its
     *                      parameter's type, naming the parameter
     */
    public Plan bind(Object... values) {
        if (values == null) {
            values = new Object[] {null};
        }
        if (values.length != parameterCount) {
            throw new SqlException(SqlException.Kind.PARAMETER, "the statement has " + parameterCount + " parameter"
                    + (parameterCount == 1 ? "" : "s")
                    + " (?), got " + values.length + " value" + (values.length == 1 ? "" : "s") + ": "
                    + Arrays.toString(values), 0, 0, null);
        }
        List<Literal> literals = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            DataType type = types.get(i + 1);
            // A parameter the plan does not use takes any value; an untyped NULL holds its place.
            literals.add(type == null ? new Literal(null, null) : literal(i + 1, type, values[i]));
        }
        return parameterCount == 0 ? plan : plan.withParameters(literals);
    }

    /** {@code value} as a literal of {@code type}, converted only where nothing is lost. */
    private Literal literal(int position, DataType type, Object value) {
        if (value == null) {
            return new Literal(null, type);
        }
        Object converted = switch (type.id()) {
            case INT32 -> value instanceof Integer || value instanceof Short || value instanceof Byte
                    ? ((Number) value).intValue() : null;
            case INT64 -> value instanceof Long || value instanceof Integer || value instanceof Short
                    || value instanceof Byte ? ((Number) value).longValue() : null;
            case FLOAT64 -> value instanceof Double || value instanceof Float ? ((Number) value).doubleValue() : null;
            case DECIMAL -> decimal(position, type, value);
            case DATE -> value instanceof LocalDate ? value : null;
            case BOOLEAN -> value instanceof Boolean ? value : null;
            case VARCHAR -> value instanceof String ? value : null;
            case TIMESTAMP -> value instanceof LocalDateTime || value instanceof LocalDate ? value : null;
            case TIMESTAMP_TZ -> value instanceof Instant || value instanceof OffsetDateTime
                    || value instanceof ZonedDateTime ? value : null;
            case TIME -> value instanceof LocalTime ? value : null;
            case INTERVAL -> value instanceof Interval ? value : null;
            case INT16 -> integer(value, Short.MIN_VALUE, Short.MAX_VALUE) ? (Object) ((Number) value).shortValue() : null;
            case INT8 -> integer(value, Byte.MIN_VALUE, Byte.MAX_VALUE) ? (Object) ((Number) value).byteValue() : null;
            case FLOAT32 -> value instanceof Float || value instanceof Double d && (double) d.floatValue() == d
                    ? (Object) ((Number) value).floatValue() : null;
            case UUID -> value instanceof java.util.UUID ? value : null;
            case BLOB -> value instanceof byte[] ? value : null;
        };
        if (converted == null) {
            throw wrongValue(position, type, value, switch (type.id()) {
                case INT32 -> "an Integer";
                case INT64 -> "a Long or an Integer";
                case FLOAT64 -> "a Double";
                case DECIMAL -> "a BigDecimal, a Long or an Integer";
                case DATE -> "a LocalDate";
                case BOOLEAN -> "a Boolean";
                case VARCHAR -> "a String";
                case TIMESTAMP -> "a LocalDateTime";
                case TIMESTAMP_TZ -> "an Instant, an OffsetDateTime or a ZonedDateTime";
                case TIME -> "a LocalTime";
                case INTERVAL -> "an io.troupe.operators.types.Interval";
                case INT16 -> "a Short, or a Byte, Integer or Long in -32768..32767";
                case INT8 -> "a Byte, or a Short, Integer or Long in -128..127";
                case FLOAT32 -> "a Float, or a Double that is a float exactly";
                case UUID -> "a java.util.UUID";
                case BLOB -> "a byte[]";
            });
        }
        return new Literal(converted, type);
    }

    /** True for an integral Java number in {@code min..max}. */
    private static boolean integer(Object value, long min, long max) {
        return (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)
                && ((Number) value).longValue() >= min && ((Number) value).longValue() <= max;
    }

    /** An exact number at the type's scale, refused when that would round it or it has too many digits. */
    private BigDecimal decimal(int position, DataType type, Object value) {
        BigDecimal exact;
        if (value instanceof BigDecimal d) {
            exact = d;
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            exact = BigDecimal.valueOf(((Number) value).longValue());
        } else {
            return null;
        }
        if (exact.stripTrailingZeros().scale() > type.scale()) {
            throw wrongValue(position, type, value, "a value with at most " + type.scale() + " digits after the point");
        }
        BigDecimal scaled = exact.setScale(type.scale());
        if (scaled.precision() > type.precision()) {
            throw wrongValue(position, type, value, "a value with at most " + (type.precision() - type.scale())
                    + " digits before the point");
        }
        return scaled;
    }

    private SqlException wrongValue(int position, DataType type, Object value, String expected) {
        return new SqlException(SqlException.Kind.PARAMETER, "parameter " + position + " of " + parameterCount + " is "
                + type + ": got "
                + value.getClass().getSimpleName() + " " + value + "; pass " + expected, 0, 0, null);
    }
}
