package io.troupe.operators.sql;

import io.troupe.operators.types.DataType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
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

    /** {@code value} (a Java value of any Troupe type, or null) as a value of {@code type}; null stays null. */
    static Object cast(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        return switch (type.id()) {
            case INT32 -> {
                long v = integral(value, type);
                if (v != (int) v) {
                    throw new IllegalArgumentException(describe(value) + " is out of the range of INTEGER");
                }
                yield (int) v;
            }
            case INT64 -> integral(value, type);
            case FLOAT64 -> float64(value, type);
            case DECIMAL -> decimal(value, type);
            case DATE -> value instanceof LocalDate d ? d : date(text(value, type));
            case BOOLEAN -> bool(value, type);
            case VARCHAR -> value.toString();
        };
    }

    private static long integral(Object value, DataType type) {
        try {
            if (value instanceof Integer || value instanceof Long) {
                return ((Number) value).longValue();
            }
            if (value instanceof BigDecimal d) {
                return d.setScale(0, RoundingMode.HALF_UP).longValueExact();
            }
            if (value instanceof Double d) {
                double rounded = Math.rint(d);
                if (Double.isNaN(d) || rounded < Long.MIN_VALUE || rounded >= 0x1p63) {
                    throw new ArithmeticException();
                }
                return (long) rounded;
            }
            return new BigDecimal(text(value, type).trim()).setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(describe(value) + " is out of the range of " + name(type));
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

    private static BigDecimal decimal(Object value, DataType type) {
        BigDecimal exact;
        try {
            if (value instanceof BigDecimal d) {
                exact = d;
            } else if (value instanceof Double d) {
                exact = BigDecimal.valueOf(d);
            } else if (value instanceof Integer || value instanceof Long) {
                exact = BigDecimal.valueOf(((Number) value).longValue());
            } else {
                exact = new BigDecimal(text(value, type).trim());
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(describe(value) + " is not " + article(type));
        }
        BigDecimal scaled = exact.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
            throw new IllegalArgumentException(describe(value) + " has more digits before the point than " + name(type)
                    + " holds");
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
        if (value instanceof Integer || value instanceof Long) {
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

    /** The value as SQL would write it: a string in quotes, a date as a DATE literal. */
    private static String describe(Object value) {
        if (value instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        return value instanceof LocalDate d ? "DATE '" + d + "'" : value.toString();
    }

    private static String article(DataType type) {
        String name = name(type);
        return (name.startsWith("INT") ? "an " : "a ") + name;
    }

    /** The SQL name of a Troupe type, as CREATE TABLE declares it. */
    static String name(DataType type) {
        return switch (type.id()) {
            case INT32 -> "INTEGER";
            case INT64 -> "BIGINT";
            case FLOAT64 -> "DOUBLE";
            default -> type.toString();
        };
    }
}
