package io.troupe.operators.agg;

import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * DuckDB in the same JVM as the oracle: loads the rows a test gave Troupe, runs the equivalent
 * SQL, and compares results as multisets (both sides sorted), doubles within 1e-9 relative.
 * Exact numbers of any Java class compare by value (DuckDB's sum of integers is a HUGEINT).
 *
 * <p>Not threadsafe: one per test class.
 */
final class DuckDbOracle implements AutoCloseable {

    private final DuckDBConnection connection;

    DuckDbOracle() throws SQLException {
        connection = DriverManager.getConnection("jdbc:duckdb:").unwrap(DuckDBConnection.class);
    }

    /** Creates table {@code name} with {@code schema} and inserts {@code rows}. */
    void load(String name, Schema schema, List<Object[]> rows) throws SQLException {
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + name + " (");
        for (int c = 0; c < schema.size(); c++) {
            Field f = schema.field(c);
            ddl.append(c == 0 ? "" : ", ").append(f.name()).append(' ').append(sqlType(f));
        }
        try (Statement st = connection.createStatement()) {
            st.execute(ddl.append(')').toString());
        }
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA,
                name)) {
            for (Object[] row : rows) {
                appender.beginRow();
                for (Object v : row) {
                    append(appender, v);
                }
                appender.endRow();
            }
        }
    }

    private static void append(DuckDBAppender appender, Object v) throws SQLException {
        if (v == null) {
            appender.appendNull();
        } else if (v instanceof Integer i) {
            appender.append(i.intValue());
        } else if (v instanceof Long l) {
            appender.append(l.longValue());
        } else if (v instanceof Double d) {
            appender.append(d.doubleValue());
        } else if (v instanceof BigDecimal d) {
            appender.append(d);
        } else if (v instanceof LocalDate d) {
            appender.append(d);
        } else if (v instanceof Boolean b) {
            appender.append(b.booleanValue());
        } else if (v instanceof String str) {
            appender.append(str);
        } else {
            throw new IllegalArgumentException("no DuckDB mapping for " + v.getClass());
        }
    }

    private static String sqlType(Field f) {
        return f.type().sqlName();
    }

    /** The rows of {@code sql}, as Java objects. */
    List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] row = new Object[columns];
                for (int c = 0; c < columns; c++) {
                    row[c] = rs.getObject(c + 1);
                }
                rows.add(Arrays.asList(row));
            }
        }
        return rows;
    }

    /** Asserts that {@code actual} (Troupe's rows) equals DuckDB's rows for {@code sql}, as multisets. */
    void assertSameRows(String sql, List<List<Object>> actual) throws SQLException {
        assertSameRows(sql, canonical(query(sql)), actual);
    }

    /** As {@link #assertSameRows(String, List)}, with DuckDB's rows for {@code sql} already {@link #canonical}. */
    static void assertSameRows(String sql, List<List<Object>> expected, List<List<Object>> actual) {
        List<List<Object>> got = canonical(actual);
        assertEquals(expected.size(), got.size(), () -> "row count of " + sql + "\nexpected " + expected + "\ngot " + got);
        for (int r = 0; r < expected.size(); r++) {
            List<Object> e = expected.get(r);
            List<Object> a = got.get(r);
            assertEquals(e.size(), a.size(), "column count of " + sql);
            for (int c = 0; c < e.size(); c++) {
                if (!same(e.get(c), a.get(c))) {
                    fail("row " + r + ", column " + c + " of " + sql + ": expected " + e + " but got " + a);
                }
            }
        }
    }

    private static boolean same(Object e, Object a) {
        if (e == null || a == null) {
            return e == a;
        }
        if (e instanceof Double x && a instanceof Double y) {
            if (x.isNaN() || y.isNaN()) {
                return x.isNaN() && y.isNaN();
            }
            return x.doubleValue() == y.doubleValue() || Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
        }
        if (e instanceof BigDecimal x && a instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        return e.equals(a);
    }

    /** Exact numbers as BigDecimal, dates as LocalDate; rows sorted. */
    static List<List<Object>> canonical(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> c = new ArrayList<>();
            for (Object v : row) {
                c.add(canonical(v));
            }
            out.add(c);
        }
        out.sort(ROW_ORDER);
        return out;
    }

    private static Object canonical(Object v) {
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        return v;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final Comparator<List<Object>> ROW_ORDER = (x, y) -> {
        for (int c = 0; c < Math.min(x.size(), y.size()); c++) {
            Object a = x.get(c);
            Object b = y.get(c);
            if (a == null || b == null) {
                if (a != b) {
                    return a == null ? -1 : 1;
                }
                continue;
            }
            int cmp = a.getClass() == b.getClass()
                    ? ((Comparable) a).compareTo(b)
                    : a.getClass().getName().compareTo(b.getClass().getName());
            if (cmp != 0) {
                return cmp;
            }
        }
        return Integer.compare(x.size(), y.size());
    };

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
