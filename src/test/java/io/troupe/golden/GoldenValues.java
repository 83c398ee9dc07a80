package io.troupe.golden;

import io.troupe.operators.types.Blobs;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.Uuids;
import io.troupe.operators.types.ValueText;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.ValueText;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * The text form of values in golden files: how table cells are read, and the one canonical
 * spelling that Troupe's results, DuckDB's results and the expected rows are all compared in.
 *
 * <ul>
 *   <li>{@code NULL} is null; {@code (empty)} is the empty string (as in sqllogictest).</li>
 *   <li>Integers of any width print as plain digits; DECIMAL prints with its scale ({@code 1.50}).</li>
 *   <li>FLOAT64 prints rounded to {@value #DOUBLE_DIGITS} significant digits, trailing zeros
 *       dropped, always with a point ({@code 2.5}, {@code 3.0}), because two engines may add the same
 *       doubles in a different order and differ in the last bits.</li>
 *   <li>DATE prints as {@code yyyy-mm-dd}; BOOLEAN as {@code true}/{@code false}.</li>
 * </ul>
 *
 * <p>Stateless and threadsafe.
 */
final class GoldenValues {

    /** Significant digits kept for FLOAT64: well inside a double's 15.9, so summation order does not show. */
    static final int DOUBLE_DIGITS = 12;

    static final String NULL = "NULL";
    static final String EMPTY = "(empty)";

    private GoldenValues() {
    }

    /**
     * Reads a table cell as the Java value {@code TableBuilder.addRow} takes for {@code type}.
     *
     * @throws IllegalArgumentException when the text is not a value of the type
     */
    static Object parseCell(String text, DataType type) {
        if (text.equals(NULL)) {
            return null;
        }
        try {
            return switch (type.id()) {
                case INT32 -> Integer.parseInt(text);
                case INT64 -> Long.parseLong(text);
                case FLOAT64 -> Double.parseDouble(text);
                case DECIMAL -> new BigDecimal(text);
                case DATE -> LocalDate.parse(text);
                case BOOLEAN -> parseBoolean(text);
                case VARCHAR -> text.equals(EMPTY) ? "" : text;
                case TIMESTAMP, TIMESTAMP_TZ, TIME -> Timestamps.toObject(Timestamps.valueOf(text, type.id()), type.id());
                case INTERVAL -> Interval.parse(text);
                case INT16 -> Short.parseShort(text);
                case INT8 -> Byte.parseByte(text);
                case FLOAT32 -> Float.parseFloat(text);
                case UUID -> Uuids.parse(text);
                case BLOB -> Blobs.parse(text);
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a " + type + " value");
        }
    }

    private static Boolean parseBoolean(String text) {
        if (text.equals("true")) {
            return Boolean.TRUE;
        }
        if (text.equals("false")) {
            return Boolean.FALSE;
        }
        throw new IllegalArgumentException("'" + text + "' is not a BOOLEAN value (true or false)");
    }

    /** The canonical text of a value from Troupe ({@code QueryResult.rows()}) or from DuckDB's JDBC driver. */
    static String format(Object value) {
        if (value == null) {
            return NULL;
        }
        if (value instanceof String s) {
            return s.isEmpty() ? EMPTY : s;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return value.toString();
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof Double || value instanceof Float) {
            return formatDouble(((Number) value).doubleValue());
        }
        if (value instanceof LocalDate d) {
            return d.toString();
        }
        if (value instanceof java.sql.Date d) {
            return d.toLocalDate().toString();
        }
        if (value instanceof Boolean b) {
            return b.toString();
        }
        if (value instanceof java.sql.Timestamp t) {
            return ValueText.of(t.toLocalDateTime(), ZoneOffset.UTC);
        }
        if (value instanceof OffsetDateTime t) {
            return ValueText.of(t.toInstant(), ZoneOffset.UTC);
        }
        if (value instanceof LocalDateTime || value instanceof Instant || value instanceof LocalTime
                || value instanceof Interval || value instanceof java.util.UUID || value instanceof byte[]) {
            return ValueText.of(value, ZoneOffset.UTC);
        }
        throw new IllegalArgumentException("no golden text for a " + value.getClass().getName() + ": " + value);
    }

    static String formatDouble(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return Double.toString(d);
        }
        String s = new BigDecimal(d).round(new MathContext(DOUBLE_DIGITS, RoundingMode.HALF_EVEN))
                .stripTrailingZeros().toPlainString();
        return s.indexOf('.') < 0 ? s + ".0" : s;
    }

    /** One result row as a golden line: canonical cells joined by tabs. */
    static String formatRow(List<?> row) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < row.size(); i++) {
            if (i > 0) {
                sb.append('\t');
            }
            sb.append(format(row.get(i)));
        }
        return sb.toString();
    }

    /** The single-letter code of a type in a {@code query} header (see the README). */
    static char typeCode(DataType type) {
        return switch (type.id()) {
            case INT32, INT16, INT8 -> 'I';
            case INT64 -> 'L';
            case FLOAT64, FLOAT32 -> 'R';
            case DECIMAL -> 'N';
            case DATE -> 'D';
            case BOOLEAN -> 'B';
            case VARCHAR -> 'T';
            case TIMESTAMP -> 'S';
            case TIMESTAMP_TZ -> 'Z';
            case TIME -> 'C';
            case INTERVAL -> 'V';
            case UUID -> 'U';
            case BLOB -> 'X';
        };
    }

    /** The DuckDB spelling of a Troupe column type: its SQL name. */
    static String duckDbType(DataType type) {
        return type.sqlName();
    }
}
