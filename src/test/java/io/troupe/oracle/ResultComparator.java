package io.troupe.oracle;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compares Troupe's rows with DuckDB's, both normalised by {@link DuckDbOracle#normalise}.
 * Integers, decimals, strings, dates and booleans must be equal exactly (numbers by value, so 1.50
 * equals 1.5 and Long 3 equals BigDecimal 3); doubles within {@value #RELATIVE} relative or
 * {@value #ABSOLUTE} absolute. Rows compare as multisets, or in order when the plan fixes the order.
 * A mismatch comes back as a readable diff; a match as null.
 *
 * <p>Stateless and threadsafe.
 */
public final class ResultComparator {

    static final double RELATIVE = 1e-9;
    static final double ABSOLUTE = 1e-12;
    /** Rows listed per side in a diff. */
    private static final int SHOWN = 10;
    /** Above this many unmatched rows per side, the quadratic tolerant pass is not tried. */
    private static final int TOLERANT_PASS_LIMIT = 4000;

    private ResultComparator() {
    }

    /**
     * Checks that each column holds the same kind of value in both engines (exact number, double,
     * string, date, boolean): values alone would let 3.0 pass for 3.
     */
    static String compareTypes(List<String> duckTypes, List<DataType> troupeTypes) {
        if (duckTypes.size() != troupeTypes.size()) {
            return "column count differs: DuckDB " + duckTypes + ", Troupe " + troupeTypes;
        }
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < duckTypes.size(); c++) {
            String duck = kind(duckTypes.get(c));
            String troupe = kind(troupeTypes.get(c));
            if (!duck.equals(troupe)) {
                sb.append("column ").append(c + 1).append(": Troupe ").append(troupeTypes.get(c))
                        .append(" (").append(troupe).append(") but DuckDB ").append(duckTypes.get(c))
                        .append(" (").append(duck).append(")\n");
            }
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    private static String kind(DataType type) {
        return switch (type.id()) {
            case INT32, INT64, DECIMAL, INT16, INT8 -> "exact number";
            case FLOAT64, FLOAT32 -> "double";
            case DATE -> "date";
            case BOOLEAN -> "boolean";
            case VARCHAR -> "string";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMP_TZ -> "timestamp with time zone";
            case TIME -> "time";
            case INTERVAL -> "interval";
            case UUID -> "uuid";
            case BLOB -> "blob";
        };
    }

    private static String kind(String duckType) {
        String t = duckType.toUpperCase(Locale.ROOT);
        if (t.startsWith("DECIMAL") || t.endsWith("INT") || t.equals("INTEGER") || t.equals("UINTEGER")) {
            return "exact number";
        }
        return switch (t) {
            case "DOUBLE", "FLOAT" -> "double";
            case "DATE" -> "date";
            case "BOOLEAN" -> "boolean";
            case "VARCHAR" -> "string";
            case "TIMESTAMP" -> "timestamp";
            case "TIMESTAMP WITH TIME ZONE" -> "timestamp with time zone";
            case "TIME" -> "time";
            case "INTERVAL" -> "interval";
            case "UUID" -> "uuid";
            case "BLOB" -> "blob";
            default -> "other (" + duckType + ")";
        };
    }

    /**
     * @param expected DuckDB's rows
     * @param actual   Troupe's rows
     * @param ordered  compare in order (the plan sorts on every output column), else as multisets
     * @return null when equal, else the diff
     */
    public static String compare(List<List<Object>> expected, List<List<Object>> actual, boolean ordered) {
        return ordered ? compareOrdered(expected, actual) : compareMultisets(expected, actual, false);
    }

    /**
     * For a LIMIT without ORDER BY, where any rows may come back: {@code actual} must hold
     * {@code expectedSize} rows, all drawn from {@code superset} (as a multiset).
     */
    static String compareSubset(List<List<Object>> superset, List<List<Object>> actual, long expectedSize) {
        if (actual.size() != expectedSize) {
            return "LIMIT without ORDER BY: expected " + expectedSize + " rows (of " + superset.size()
                    + " before the limit), Troupe returned " + actual.size() + "\n" + render("Troupe's rows", actual);
        }
        return compareMultisets(superset, actual, true);
    }

    private static String compareOrdered(List<List<Object>> expected, List<List<Object>> actual) {
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!rowsEqual(expected.get(i), actual.get(i))) {
                int from = Math.max(0, i - 2);
                return "ordered results differ first at row " + (i + 1) + " (DuckDB " + expected.size()
                        + " rows, Troupe " + actual.size() + ")\n"
                        + render("DuckDB rows " + (from + 1) + "..", window(expected, from, i))
                        + render("Troupe rows " + (from + 1) + "..", window(actual, from, i))
                        + (compareMultisets(expected, actual, false) == null ? "(same rows, different order)\n" : "");
            }
        }
        if (expected.size() != actual.size()) {
            return "ordered results agree on the first " + n + " rows, but DuckDB has " + expected.size()
                    + " rows and Troupe " + actual.size() + "\n"
                    + render("rest of DuckDB's", expected.subList(n, expected.size()))
                    + render("rest of Troupe's", actual.subList(n, actual.size()));
        }
        return null;
    }

    /** Rows from..i+2 (as far as there are). */
    private static List<List<Object>> window(List<List<Object>> rows, int from, int i) {
        return rows.subList(from, Math.min(rows.size(), i + 3));
    }

    /**
     * Multiset comparison: first by exact keys (doubles rounded to 9 significant digits), then
     * the leftovers pairwise with the tolerant comparison. With {@code subset}, expected rows may
     * remain unmatched.
     */
    private static String compareMultisets(List<List<Object>> expected, List<List<Object>> actual, boolean subset) {
        Map<String, List<List<Object>>> byKey = new HashMap<>();
        for (List<Object> row : expected) {
            byKey.computeIfAbsent(key(row), k -> new ArrayList<>()).add(row);
        }
        List<List<Object>> extra = new ArrayList<>();
        for (List<Object> row : actual) {
            List<List<Object>> candidates = byKey.get(key(row));
            if (candidates == null || candidates.isEmpty()) {
                extra.add(row);
            } else {
                candidates.remove(candidates.size() - 1);
            }
        }
        List<List<Object>> missing = new ArrayList<>();
        for (List<List<Object>> rows : byKey.values()) {
            missing.addAll(rows);
        }
        if (!extra.isEmpty() && extra.size() <= TOLERANT_PASS_LIMIT && missing.size() <= TOLERANT_PASS_LIMIT) {
            List<List<Object>> stillExtra = new ArrayList<>();
            for (List<Object> row : extra) {
                int match = -1;
                for (int i = 0; i < missing.size() && match < 0; i++) {
                    if (rowsEqual(missing.get(i), row)) {
                        match = i;
                    }
                }
                if (match >= 0) {
                    missing.remove(match);
                } else {
                    stillExtra.add(row);
                }
            }
            extra = stillExtra;
        }
        if (extra.isEmpty() && (subset || missing.isEmpty())) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        sb.append(subset ? "rows not drawn from the input of the LIMIT" : "results differ as multisets")
                .append(": DuckDB ").append(expected.size()).append(" rows, Troupe ").append(actual.size())
                .append(" rows\n");
        if (!subset) {
            sb.append(render("missing (DuckDB has them, Troupe not): " + missing.size(), missing));
        }
        sb.append(render("extra (Troupe has them, DuckDB not): " + extra.size(), extra));
        return sb.toString();
    }

    static boolean rowsEqual(List<Object> a, List<Object> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int c = 0; c < a.size(); c++) {
            if (!valuesEqual(a.get(c), b.get(c))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Exact equality, except numbers compare by value, doubles within tolerance, and intervals by their length
     * (SQL's equality: a group or DISTINCT of '1 month' and '30 days' shows either, in both engines).
     */
    static boolean valuesEqual(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Number x && b instanceof Number y) {
            if (x instanceof Double || y instanceof Double) {
                return doublesClose(x.doubleValue(), y.doubleValue());
            }
            return exact(x).compareTo(exact(y)) == 0;
        }
        if (a instanceof Interval x && b instanceof Interval y) {
            return x.compareTo(y) == 0;
        }
        return a.equals(b);
    }

    static boolean doublesClose(double a, double b) {
        if (a == b || (Double.isNaN(a) && Double.isNaN(b))) {
            return true;
        }
        double diff = Math.abs(a - b);
        return diff <= ABSOLUTE || diff <= RELATIVE * Math.max(Math.abs(a), Math.abs(b));
    }

    private static BigDecimal exact(Number n) {
        return n instanceof BigDecimal d ? d : BigDecimal.valueOf(n.longValue());
    }

    private static String key(List<Object> row) {
        StringBuilder sb = new StringBuilder();
        for (Object v : row) {
            sb.append(keyOf(v)).append('\u0001');
        }
        return sb.toString();
    }

    private static String keyOf(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Double d) {
            if (d == 0.0 || d.isNaN() || d.isInfinite()) {
                return "D" + Math.abs(d);
            }
            return "D" + new BigDecimal(d).round(new MathContext(9)).stripTrailingZeros().toPlainString();
        }
        if (v instanceof Number n) {
            return "N" + exact(n).stripTrailingZeros().toPlainString();
        }
        if (v instanceof Interval i) {
            return "I" + Interval.sortDays(i.high(), i.micros()) + "/" + Interval.sortMicros(i.micros());
        }
        return v.getClass().getSimpleName() + v;
    }

    private static String render(String title, List<List<Object>> rows) {
        StringBuilder sb = new StringBuilder("  ").append(title).append('\n');
        for (int i = 0; i < Math.min(SHOWN, rows.size()); i++) {
            sb.append("    ").append(renderRow(rows.get(i))).append('\n');
        }
        if (rows.size() > SHOWN) {
            sb.append("    ... ").append(rows.size() - SHOWN).append(" more\n");
        }
        return sb.toString();
    }

    static String renderRow(List<Object> row) {
        StringBuilder sb = new StringBuilder("(");
        for (int c = 0; c < row.size(); c++) {
            Object v = row.get(c);
            sb.append(c == 0 ? "" : ", ");
            if (v == null) {
                sb.append("NULL");
            } else if (v instanceof String s) {
                sb.append('\'').append(s.replace("'", "''")).append('\'');
            } else if (v instanceof BigDecimal d) {
                sb.append(d.toPlainString());
            } else {
                sb.append(v);
            }
        }
        return sb.append(')').toString();
    }
}
