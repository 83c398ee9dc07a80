package io.troupe.jdbc;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.Uuids;
import io.troupe.operators.types.ValueText;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;

/**
 * JDBC's conversions between Troupe's values and the Java types of getters and setters, after the
 * tables of JDBC 4.3 (appendix B): a getter reads any type its table allows (a number as a string, a
 * string holding a number as the number, a date as a timestamp at midnight), and a setter's value is
 * turned into the Java class of its parameter's type where nothing is lost.
 *
 * <p>Values come from {@code ColumnVector.getObject}: Integer, Long, Double, BigDecimal, LocalDate,
 * Boolean, String, LocalDateTime (a TIMESTAMP), Instant (a TIMESTAMP WITH TIME ZONE, shown and read in the
 * session's time zone, {@code zone}), LocalTime (a TIME). What does not convert is a {@link java.sql.SQLDataException} with SQLState 07006
 * naming the value, its column or parameter and the conversion; a number outside the target's range
 * one with 22003. A getter for an integer truncates a fraction toward zero, as a Java cast does.
 */
final class JdbcValues {

    private JdbcValues() {
    }

    // ---------------------------------------------------------------- getters: Troupe's value to JDBC's

    /**
     * {@code v} as {@code getObject} returns it: a date as {@link java.sql.Date}, a timestamp as {@link Timestamp},
     * a time as {@link Time}, an instant as an {@link OffsetDateTime} in {@code zone} (JDBC 4.2's class for
     * TIMESTAMP WITH TIME ZONE), the rest as it is.
     */
    static Object object(Object v, ZoneId zone) {
        if (v instanceof LocalDate d) {
            return java.sql.Date.valueOf(d);
        } else if (v instanceof LocalDateTime t) {
            return Timestamp.valueOf(t);
        } else if (v instanceof LocalTime t) {
            return Time.valueOf(t);
        } else if (v instanceof Instant i) {
            return OffsetDateTime.ofInstant(i, zone);
        }
        return v;
    }

    /** {@code v} as SQL prints it: a decimal's digits, a time as in CAST(... AS VARCHAR), an instant in {@code zone}. */
    static String string(Object v, ZoneId zone) {
        return ValueText.of(v, zone);
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
            // A float's shortest text, as it prints: 0.1, not the double 0.10000000149011612 it widens to.
            return v instanceof Float f ? new BigDecimal(Float.toString(f)) : BigDecimal.valueOf(d);
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

    static LocalDate date(Object v, String where, ZoneId zone) throws SQLException {
        if (v == null) {
            return null;
        }
        if (v instanceof LocalDate d) {
            return d;
        }
        if (v instanceof LocalDateTime || v instanceof Instant) {
            return timestamp(v, where, zone).toLocalDate();
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

    /** A date at midnight, a timestamp, an instant's local time in {@code zone}, or a timestamp's text. */
    static LocalDateTime timestamp(Object v, String where, ZoneId zone) throws SQLException {
        if (v instanceof LocalDateTime t) {
            return t;
        } else if (v instanceof Instant i) {
            return LocalDateTime.ofInstant(i, zone);
        } else if (v instanceof LocalDate d) {
            return d.atStartOfDay();
        } else if (v instanceof String s) {
            try {
                return Timestamps.toLocalDateTime(Timestamps.parseTimestamp(s));
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw notConvertible(v, "a timestamp (yyyy-mm-dd hh:mm:ss)", where);
            }
        }
        throw notConvertible(v, "a timestamp", where);
    }

    /** An instant; a timestamp, a date or text without an offset reads as the local time in {@code zone}. */
    static Instant instant(Object v, String where, ZoneId zone) throws SQLException {
        if (v instanceof Instant i) {
            return i;
        } else if (v instanceof OffsetDateTime t) {
            return t.toInstant();
        } else if (v instanceof ZonedDateTime t) {
            return t.toInstant();
        } else if (v instanceof Timestamp t) {
            return t.toInstant();
        } else if (v instanceof String s) {
            try {
                return Timestamps.toInstant(Timestamps.parseInstant(s, zone));
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw notConvertible(v, "a timestamp with time zone", where);
            }
        } else if (v instanceof LocalDateTime || v instanceof LocalDate) {
            return Timestamps.toInstant(Timestamps.fromLocal(
                    Timestamps.fromLocalDateTime(timestamp(v, where, zone)), zone.getRules()));
        }
        throw notConvertible(v, "a timestamp with time zone", where);
    }

    /** An interval, a Duration (as microseconds) or a Period (as months and days), or an interval's text. */
    static Interval interval(Object v, String where) throws SQLException {
        if (v instanceof Interval i) {
            return i;
        } else if (v instanceof java.time.Duration d) {
            try {
                return Interval.ofMicros(Math.addExact(Math.multiplyExact(d.getSeconds(), 1_000_000L), d.getNano() / 1000));
            } catch (ArithmeticException e) {
                throw notConvertible(v, "an interval", where);
            }
        } else if (v instanceof java.time.Period p) {
            return new Interval(Math.toIntExact(p.toTotalMonths()), p.getDays(), 0);
        } else if (v instanceof String s) {
            try {
                return Interval.parse(s);
            } catch (IllegalArgumentException e) {
                throw notConvertible(v, "an interval", where);
            }
        }
        throw notConvertible(v, "an interval", where);
    }

    /** A UUID, or a UUID's text. */
    static java.util.UUID uuid(Object v, String where) throws SQLException {
        if (v instanceof java.util.UUID u) {
            return u;
        } else if (v instanceof String s) {
            try {
                return Uuids.parse(s);
            } catch (IllegalArgumentException e) {
                throw notConvertible(v, "a uuid", where);
            }
        }
        throw notConvertible(v, "a uuid", where);
    }

    /** A time, a timestamp's time of day, an instant's in {@code zone}, or a time's text. */
    static LocalTime time(Object v, String where, ZoneId zone) throws SQLException {
        if (v instanceof LocalTime t) {
            return t;
        } else if (v instanceof LocalDateTime || v instanceof Instant) {
            return timestamp(v, where, zone).toLocalTime();
        } else if (v instanceof String s) {
            try {
                return Timestamps.toLocalTime(Timestamps.parseTime(s));
            } catch (IllegalArgumentException e) {
                throw notConvertible(v, "a time (hh:mm:ss)", where);
            }
        }
        throw notConvertible(v, "a time", where);
    }

    /** {@code v} as {@code getObject(column, type)} returns it, times with a zone in {@code zone}. */
    static <T> T as(Object v, Class<T> type, String where, ZoneId zone) throws SQLException {
        if (v == null) {
            return null;
        }
        Object converted;
        if (type == Object.class) {
            converted = object(v, zone);
        } else if (type == String.class) {
            converted = string(v, zone);
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
            converted = date(v, where, zone);
        } else if (type == java.sql.Date.class) {
            converted = java.sql.Date.valueOf(date(v, where, zone));
        } else if (type == LocalDateTime.class) {
            converted = timestamp(v, where, zone);
        } else if (type == Timestamp.class) {
            converted = v instanceof Instant i ? Timestamp.from(i) : Timestamp.valueOf(timestamp(v, where, zone));
        } else if (type == Instant.class) {
            converted = instant(v, where, zone);
        } else if (type == OffsetDateTime.class) {
            converted = OffsetDateTime.ofInstant(instant(v, where, zone), zone);
        } else if (type == ZonedDateTime.class) {
            converted = ZonedDateTime.ofInstant(instant(v, where, zone), zone);
        } else if (type == LocalTime.class) {
            converted = time(v, where, zone);
        } else if (type == Time.class) {
            converted = Time.valueOf(time(v, where, zone));
        } else if (type == Interval.class) {
            converted = interval(v, where);
        } else if (type == java.util.UUID.class) {
            converted = uuid(v, where);
        } else if (type == byte[].class && v instanceof byte[]) {
            converted = v;
        } else if (type == java.time.Duration.class && v instanceof Interval i && i.months() == 0 && i.days() == 0) {
            converted = java.time.Duration.ofNanos(Math.multiplyExact(i.micros(), 1000L));
        } else {
            throw notConvertible(v, type.getName(), where);
        }
        return type.cast(converted);
    }

    // ---------------------------------------------------------------- setters: JDBC's value to Troupe's

    /**
     * {@code value} (a setter's) in the Java class that parameter {@code position} of type {@code type} takes
     * ({@code PreparedPlan.bind}): Integer, Long, Double, BigDecimal, LocalDate, Boolean, String,
     * LocalDateTime, Instant or LocalTime; a timestamp without a zone for a TIMESTAMP WITH TIME ZONE is the
     * local time in {@code zone}. A whole
     * number fits an integer parameter whatever its class; a fraction does not. Null stays null, and a
     * parameter the plan does not use ({@code type} null) takes the value as it is.
     */
    static Object parameter(Object value, DataType type, int position, ZoneId zone) throws SQLException {
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
            case DATE -> value instanceof java.sql.Date d ? d.toLocalDate() : date(value, where, zone);
            case BOOLEAN -> value instanceof Boolean || value instanceof String ? bool(value, where)
                    : notConvertibleValue(value, where);
            case VARCHAR -> value instanceof String || value instanceof Number || value instanceof Boolean
                    || value instanceof LocalDate || value instanceof java.sql.Date ? string(value, zone)
                    : notConvertibleValue(value, where);
            case TIMESTAMP -> value instanceof Timestamp t ? t.toLocalDateTime()
                    : value instanceof java.sql.Date d ? d.toLocalDate().atStartOfDay() : timestamp(value, where, zone);
            case TIMESTAMP_TZ -> instant(value, where, zone);
            case TIME -> value instanceof Time t ? t.toLocalTime() : time(value, where, zone);
            case INTERVAL -> interval(value, where);
            case INT16 -> (short) exact(value, Short.MIN_VALUE, Short.MAX_VALUE, where);
            case INT8 -> (byte) exact(value, Byte.MIN_VALUE, Byte.MAX_VALUE, where);
            case FLOAT32 -> value instanceof Boolean || value instanceof LocalDate || value instanceof java.util.Date
                    ? notConvertibleValue(value, where) : (float) floating(value, where);
            case UUID -> uuid(value, where);
            case BLOB -> value instanceof byte[] ? value : notConvertibleValue(value, where);
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
