package io.troupe.operators.sql;

import io.troupe.operators.types.Blobs;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;
import io.troupe.operators.types.Uuids;
import io.troupe.operators.types.ValueText;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * A value that INSERT stores, cast to its column's type as an assignment casts it in DuckDB and PostgreSQL:
 * numbers to any number type when they fit (a fraction into an integer column rounds, a decimal half away from
 * zero, a double to the nearest even; a decimal rounds half away from zero to its column's scale), a string
 * holding a number, date or boolean to that type, and anything to VARCHAR as its SQL text. What does not fit
 * is an {@link IllegalArgumentException} saying why, which the caller puts beside the row and column.
 */
final class StoredValues {

    private StoredValues() {
    }

    /**
     * {@code value} (a Java value of any Troupe type, or null) as a value of {@code type}; null stays null. A
     * TIMESTAMP WITH TIME ZONE converts to and from the others in the session's zone {@code zone}.
     */
    static Object cast(Object value, DataType type, ZoneId zone) {
        if (value == null) {
            return null;
        }
        return switch (type.id()) {
            case INT32 -> (int) integral(value, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case INT16 -> (short) integral(value, type, Short.MIN_VALUE, Short.MAX_VALUE);
            case INT8 -> (byte) integral(value, type, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case INT64 -> integral(value, type, Long.MIN_VALUE, Long.MAX_VALUE);
            case FLOAT64 -> float64(value, type);
            case FLOAT32 -> float32(value, type);
            case DECIMAL -> decimal(value, type);
            case DATE -> value instanceof LocalDate d ? d : date(text(value, type));
            case BOOLEAN -> bool(value, type);
            case VARCHAR -> ValueText.of(value, zone);
            case TIMESTAMP -> Timestamps.toLocalDateTime(temporal(value, type, zone));
            case TIMESTAMP_TZ -> Timestamps.toInstant(temporal(value, type, zone));
            case TIME -> Timestamps.toLocalTime(temporal(value, type, zone));
            case INTERVAL -> interval(value, type);
            case UUID -> value instanceof java.util.UUID u ? u : Uuids.parse(text(value, type));
            case BLOB -> value instanceof byte[] b ? b : Blobs.parse(text(value, type));
        };
    }

    /** An interval, or its text. */
    private static Interval interval(Object value, DataType type) {
        if (value instanceof Interval i) {
            return i;
        }
        try {
            return Interval.parse(text(value, type));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(describe(value) + " is not " + article(type));
        }
    }

    /**
     * The microseconds of a TIMESTAMP, TIMESTAMP_TZ or TIME from a value of one of them, a DATE (its midnight) or
     * text, as CAST converts them.
     */
    private static long temporal(Object value, DataType type, ZoneId zone) {
        long micros;
        DataType from;
        if (value instanceof LocalDateTime t) {
            micros = Timestamps.fromLocalDateTime(t);
            from = DataType.TIMESTAMP;
        } else if (value instanceof Instant i) {
            micros = Timestamps.fromInstant(i);
            from = DataType.TIMESTAMP_TZ;
        } else if (value instanceof LocalDate d) {
            micros = Timestamps.ofDay(Dates.fromLocalDate(d));
            from = DataType.TIMESTAMP;
        } else if (value instanceof LocalTime t && type.id() == TypeId.TIME) {
            return Timestamps.fromLocalTime(t);
        } else if (value instanceof String s) {
            try {
                return switch (type.id()) {
                    case TIMESTAMP -> Timestamps.parseTimestamp(s);
                    case TIMESTAMP_TZ -> Timestamps.parseInstant(s, zone);
                    default -> Timestamps.parseTime(s);
                };
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new IllegalArgumentException(describe(value) + " is not " + article(type));
            }
        } else {
            throw new IllegalArgumentException(describe(value) + " is not " + article(type));
        }
        if (from.id() == TypeId.TIMESTAMP && type.id() == TypeId.TIMESTAMP_TZ) {
            return Timestamps.fromLocal(micros, zone.getRules());
        }
        long local = from.id() == TypeId.TIMESTAMP_TZ && type.id() != TypeId.TIMESTAMP_TZ
                ? Timestamps.toLocal(micros, zone.getRules()) : micros;
        return type.id() == TypeId.TIME ? Timestamps.timeOfDay(local) : local;
    }

    /** An integer in {@code min..max}: a fraction rounds. */
    private static long integral(Object value, DataType type, long min, long max) {
        long v = integral(value, type);
        if (v < min || v > max) {
            throw new IllegalArgumentException(describe(value) + " is out of the range of " + type.sqlName());
        }
        return v;
    }

    private static long integral(Object value, DataType type) {
        try {
            if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
                return ((Number) value).longValue();
            }
            if (value instanceof BigDecimal d) {
                return d.setScale(0, RoundingMode.HALF_UP).longValueExact();
            }
            if (value instanceof Double || value instanceof Float) {
                double d = ((Number) value).doubleValue();
                double rounded = Math.rint(d);
                if (Double.isNaN(d) || rounded < Long.MIN_VALUE || rounded >= 0x1p63) {
                    throw new ArithmeticException();
                }
                return (long) rounded;
            }
            return new BigDecimal(text(value, type).trim()).setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(describe(value) + " is out of the range of " + type.sqlName());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(describe(value) + " is not " + article(type));
        }
    }

    private static double float64(Object value, DataType type) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        try {
            return Double.parseDouble(text(value, type).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(describe(value) + " is not a DOUBLE");
        }
    }

    /** The nearest float; a finite value past the floats does not fit. */
    private static float float32(Object value, DataType type) {
        double d = float64(value, type);
        float f = (float) d;
        if (Float.isInfinite(f) && !Double.isInfinite(d)) {
            throw new IllegalArgumentException(describe(value) + " is out of the range of REAL");
        }
        return f;
    }

    private static BigDecimal decimal(Object value, DataType type) {
        BigDecimal exact;
        try {
            if (value instanceof BigDecimal d) {
                exact = d;
            } else if (value instanceof Double d) {
                exact = BigDecimal.valueOf(d);
            } else if (value instanceof Float f) {
                exact = new BigDecimal(f.toString());
            } else if (value instanceof Integer || value instanceof Long || value instanceof Short
                    || value instanceof Byte) {
                exact = BigDecimal.valueOf(((Number) value).longValue());
            } else {
                exact = new BigDecimal(text(value, type).trim());
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(describe(value) + " is not " + article(type));
        }
        BigDecimal scaled = exact.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
            throw new IllegalArgumentException(describe(value) + " has more digits before the point than "
                    + type.sqlName() + " holds");
        }
        return scaled;
    }

    private static LocalDate date(String text) {
        try {
            return LocalDate.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a DATE (yyyy-mm-dd)");
        }
    }

    private static boolean bool(Object value, DataType type) {
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue() != 0;
        }
        return switch (text(value, type).trim().toLowerCase(Locale.ROOT)) {
            case "true", "t", "1" -> true;
            case "false", "f", "0" -> false;
            default -> throw new IllegalArgumentException(describe(value) + " is not a BOOLEAN");
        };
    }

    /** The text of a string value; any other kind of value does not convert to {@code type}. */
    private static String text(Object value, DataType type) {
        if (value instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException(describe(value) + " is not " + article(type));
    }

    /** The value as SQL would write it: a string in quotes, a date or time as its literal. */
    private static String describe(Object value) {
        if (value instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        return new io.troupe.operators.plan.Literal(value, null).toString();
    }

    private static String article(DataType type) {
        String name = type.sqlName();
        return (name.startsWith("INT") ? "an " : "a ") + name;
    }
}
