package io.troupe.jdbc;

import io.troupe.operators.types.DataType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;

/**
 * JDBC's conversions between Troupe's values and the Java types of getters and setters, after the
 * tables of JDBC 4.3 (appendix B): a getter reads any type its table allows (a number as a string, a
 * string holding a number as the number, a date as a timestamp at midnight), and a setter's value is
 * turned into the Java class of its parameter's type where nothing is lost.
 *
 * <p>Values come from {@code ColumnVector.getObject}: Integer, Long, Double, BigDecimal, LocalDate,
 * Boolean, String. What does not convert is a {@link java.sql.SQLDataException} with SQLState 07006
 * naming the value, its column or parameter and the conversion; a number outside the target's range
 * one with 22003. A getter for an integer truncates a fraction toward zero, as a Java cast does.
 */
final class JdbcValues {

    private JdbcValues() {
    }

    // ---------------------------------------------------------------- getters: Troupe's value to JDBC's

    /** {@code v} as {@code getObject} returns it: a date as {@link java.sql.Date}, the rest as it is. */
    static Object object(Object v) {
        return v instanceof LocalDate d ? java.sql.Date.valueOf(d) : v;
    }

    static String string(Object v) {
        if (v == null) {
            return null;
        }
        return v instanceof BigDecimal d ? d.toPlainString() : v.toString();
    }

    /** {@code v} as an integer in {@code min..max}, its fraction dropped; {@code where} names the column for errors. */
    static long integer(Object v, long min, long max, String where) throws SQLException {
        if (v == null) {
            return 0;
        }
        BigDecimal whole = decimal(v, where).setScale(0, RoundingMode.DOWN);
        if (whole.compareTo(BigDecimal.valueOf(min)) < 0 || whole.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw JdbcErrors.data(where + ": " + v + " is out of the range " + min + ".." + max,
                    JdbcErrors.OUT_OF_RANGE);
        }
        return whole.longValue();
    }

    static double floating(Object v, String where) throws SQLException {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                throw notConvertible(v, "a double", where);
            }
        }
        throw notConvertible(v, "a double", where);
    }

    static BigDecimal decimal(Object v, String where) throws SQLException {
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw notConvertible(v, "a decimal", where);
            }
            return BigDecimal.valueOf(d);
        }
        if (v instanceof Boolean b) {
            return b ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        if (v instanceof String s) {
            try {
                return new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw notConvertible(v, "a number", where);
            }
        }
        throw notConvertible(v, "a number", where);
    }

    /**
     * A number is true unless 0; a string is true for {@code true}, {@code t} or {@code 1}, false for
     * {@code false}, {@code f} or {@code 0}.
     */
    static boolean bool(Object v, String where) throws SQLException {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number) {
            return decimal(v, where).signum() != 0;
        }
        if (v instanceof String s) {
            switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "true", "t", "1":
                    return true;
                case "false", "f", "0":
                    return false;
                default:
                    break;
            }
        }
        throw notConvertible(v, "a boolean", where);
    }

    static LocalDate date(Object v, String where) throws SQLException {
        if (v == null) {
            return null;
        }
        if (v instanceof LocalDate d) {
            return d;
        }
        if (v instanceof String s) {
            try {
                return LocalDate.parse(s.trim());
            } catch (DateTimeParseException e) {
                throw notConvertible(v, "a date (yyyy-mm-dd)", where);
            }
        }
        throw notConvertible(v, "a date", where);
    }

    /** {@code v} as {@code getObject(column, type)} returns it. */
    static <T> T as(Object v, Class<T> type, String where) throws SQLException {
        if (v == null) {
            return null;
        }
        Object converted;
        if (type == Object.class) {
            converted = object(v);
        } else if (type == String.class) {
            converted = string(v);
        } else if (type == Integer.class) {
            converted = (int) integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE, where);
        } else if (type == Long.class) {
            converted = integer(v, Long.MIN_VALUE, Long.MAX_VALUE, where);
        } else if (type == Short.class) {
            converted = (short) integer(v, Short.MIN_VALUE, Short.MAX_VALUE, where);
        } else if (type == Byte.class) {
            converted = (byte) integer(v, Byte.MIN_VALUE, Byte.MAX_VALUE, where);
        } else if (type == Double.class) {
            converted = floating(v, where);
        } else if (type == Float.class) {
            converted = (float) floating(v, where);
        } else if (type == BigDecimal.class) {
            converted = decimal(v, where);
        } else if (type == BigInteger.class) {
            converted = decimal(v, where).toBigInteger();
        } else if (type == Boolean.class) {
            converted = bool(v, where);
        } else if (type == LocalDate.class) {
            converted = date(v, where);
        } else if (type == java.sql.Date.class) {
            converted = java.sql.Date.valueOf(date(v, where));
        } else if (type == LocalDateTime.class) {
            converted = date(v, where).atStartOfDay();
        } else if (type == Timestamp.class) {
            converted = Timestamp.valueOf(date(v, where).atStartOfDay());
        } else {
            throw notConvertible(v, type.getName(), where);
        }
        return type.cast(converted);
    }

    // ---------------------------------------------------------------- setters: JDBC's value to Troupe's

    /**
     * {@code value} (a setter's) in the Java class that parameter {@code position} of type {@code type} takes
     * ({@code PreparedPlan.bind}): Integer, Long, Double, BigDecimal, LocalDate, Boolean or String. A whole
     * number fits an integer parameter whatever its class; a fraction does not. Null stays null, and a
     * parameter the plan does not use ({@code type} null) takes the value as it is.
     */
    static Object parameter(Object value, DataType type, int position) throws SQLException {
        if (value == null || type == null) {
            return value;
        }
        String where = "parameter " + position + " (" + type + ")";
        return switch (type.id()) {
            case INT32 -> (int) exact(value, Integer.MIN_VALUE, Integer.MAX_VALUE, where);
            case INT64 -> exact(value, Long.MIN_VALUE, Long.MAX_VALUE, where);
            case FLOAT64 -> value instanceof Boolean || value instanceof LocalDate || value instanceof java.util.Date
                    ? notConvertibleValue(value, where) : floating(value, where);
            case DECIMAL -> value instanceof Boolean ? notConvertibleValue(value, where) : decimal(value, where);
            case DATE -> value instanceof java.sql.Date d ? d.toLocalDate() : date(value, where);
            case BOOLEAN -> value instanceof Boolean || value instanceof String ? bool(value, where)
                    : notConvertibleValue(value, where);
            case VARCHAR -> value instanceof String || value instanceof Number || value instanceof Boolean
                    || value instanceof LocalDate || value instanceof java.sql.Date ? string(value)
                    : notConvertibleValue(value, where);
        };
    }

    /** A whole number in {@code min..max}; a fraction is an error here, where a getter would drop it. */
    private static long exact(Object value, long min, long max, String where) throws SQLException {
        if (value instanceof Boolean || value instanceof java.util.Date || value instanceof LocalDate) {
            throw notConvertible(value, "an integer", where);
        }
        BigDecimal d = decimal(value, where);
        if (d.stripTrailingZeros().scale() > 0) {
            throw JdbcErrors.data(where + ": " + value + " has a fraction", JdbcErrors.INVALID_PARAMETER);
        }
        if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw JdbcErrors.data(where + ": " + value + " is out of the range " + min + ".." + max,
                    JdbcErrors.OUT_OF_RANGE);
        }
        return d.longValue();
    }

    private static Object notConvertibleValue(Object value, String where) throws SQLException {
        throw notConvertible(value, "its type", where);
    }

    private static SQLException notConvertible(Object v, String target, String where) {
        return JdbcErrors.data(where + ": " + v.getClass().getSimpleName() + " " + v + " does not convert to "
                + target, JdbcErrors.NOT_CONVERTIBLE);
    }
}
