package io.troupe.oracle;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The oracle: one in-memory DuckDB in this JVM. Loads Troupe {@link Table}s through DuckDB's
 * appender, runs SQL, and returns the rows normalised ({@link #normalise}) to the Java values
 * Troupe's {@code QueryResult.rows()} holds, so the two can be compared value by value.
 *
 * <p>Not threadsafe: one connection, used by one test thread. Close it (try-with-resources or
 * {@code @AfterAll}); closing drops the database.
 */
public final class DuckDbOracle implements AutoCloseable {

    /** How long {@link #count} waits for DuckDB. */
    static final int COUNT_LIMIT_SECONDS = 30;

    /** A query's rows and, per column, DuckDB's type name ("INTEGER", "DECIMAL(38,2)" ...). */
    public record Result(List<String> columnTypes, List<List<Object>> rows) {
    }

    private final DuckDBConnection connection;
    /** The tables loaded now, so that loading another world drops the last one's. */
    private final Set<String> loaded = new LinkedHashSet<>();

    public DuckDbOracle() throws SQLException {
        this.connection = DriverManager.getConnection("jdbc:duckdb:").unwrap(DuckDBConnection.class);
    }

    /** Replaces whatever was loaded before by {@code tables}, under the same names and types. */
    public void load(Collection<Table> tables) throws SQLException {
        try (Statement s = connection.createStatement()) {
            for (String name : loaded) {
                s.execute("DROP TABLE IF EXISTS " + name);
            }
            loaded.clear();
            for (Table t : tables) {
                s.execute(ddl(t.name(), t, false));
                loaded.add(t.name());
                if (t.schema().fields().stream().noneMatch(f -> f.type().id() == TypeId.INTERVAL)) {
                    append(t.name(), t);
                    continue;
                }
                // DuckDB's appender takes no INTERVAL: those columns go in as text, and are cast.
                String staging = t.name() + "_as_text";
                s.execute(ddl(staging, t, true));
                append(staging, t);
                s.execute("INSERT INTO " + t.name() + " SELECT * FROM " + staging);
                s.execute("DROP TABLE " + staging);
            }
        }
    }

    /** CREATE TABLE {@code name} of {@code t}'s columns, an INTERVAL one VARCHAR when {@code intervalsAsText}. */
    private static String ddl(String name, Table t, boolean intervalsAsText) {
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(name).append(" (");
        for (int c = 0; c < t.schema().size(); c++) {
            Field f = t.schema().field(c);
            String type = intervalsAsText && f.type().id() == TypeId.INTERVAL ? "VARCHAR" : sqlType(f.type());
            ddl.append(c == 0 ? "" : ", ").append(f.name()).append(' ').append(type)
                    .append(f.nullable() ? "" : " NOT NULL");
        }
        return ddl.append(')').toString();
    }

    private void append(String name, Table t) throws SQLException {
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, name)) {
            for (Batch chunk : t.chunks()) {
                for (int i = 0; i < chunk.size(); i++) {
                    int row = chunk.row(i);
                    appender.beginRow();
                    for (int c = 0; c < chunk.columnCount(); c++) {
                        appendValue(appender, chunk.column(c), row);
                    }
                    appender.endRow();
                }
            }
        }
    }

    private static void appendValue(DuckDBAppender appender, ColumnVector vector, int row) throws SQLException {
        Object v = vector.getObject(row);
        if (v == null) {
            appender.appendNull();
        } else if (v instanceof Integer i) {
            appender.append(i.intValue());
        } else if (v instanceof Long l) {
            appender.append(l.longValue());
        } else if (v instanceof Double d) {
            appender.append(d.doubleValue());
        } else if (v instanceof Short i) {
            appender.append(i.shortValue());
        } else if (v instanceof Byte i) {
            appender.append(i.byteValue());
        } else if (v instanceof Float f) {
            appender.append(f.floatValue());
        } else if (v instanceof BigDecimal d) {
            appender.append(d);
        } else if (v instanceof LocalDate d) {
            appender.append(d);
        } else if (v instanceof Boolean b) {
            appender.append(b.booleanValue());
        } else if (v instanceof String s) {
            appender.append(s);
        } else if (v instanceof LocalDateTime t) {
            appender.append(t);
        } else if (v instanceof Instant i) {
            appender.append(OffsetDateTime.ofInstant(i, ZoneOffset.UTC));
        } else if (v instanceof LocalTime t) {
            appender.append(t);
        } else if (v instanceof Interval i) {
            appender.append(i.toString());
        } else if (v instanceof java.util.UUID u) {
            appender.append(u);
        } else if (v instanceof byte[] b) {
            appender.append(b);
        } else {
            throw new IllegalArgumentException("no DuckDB mapping for " + v.getClass() + " in " + vector.type());
        }
    }

    /** Runs {@code sql}, a statement without rows ({@code SET ...}). */
    public void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    /** Runs {@code sql} and returns its rows, normalised. */
    public Result query(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return result(rs);
        }
    }

    /** Runs {@code sql} as a prepared statement with {@code params} for its {@code ?}, in order. */
    public Result query(String sql, Object... params) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                return result(rs);
            }
        }
    }

    private static Result result(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<String> types = new ArrayList<>(n);
        for (int c = 1; c <= n; c++) {
            types.add(md.getColumnTypeName(c));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            Object[] row = new Object[n];
            for (int c = 1; c <= n; c++) {
                row[c - 1] = normalise(value(rs, c, types.get(c - 1)));
            }
            rows.add(Arrays.asList(row));
        }
        return new Result(types, rows);
    }

    /**
     * Column {@code c} of the current row: a TIMESTAMP as a LocalDateTime, a TIME read from its text (DuckDB's
     * driver cannot return 24:00:00 as a LocalTime), an INTERVAL read from its text, the rest as {@code getObject}
     * returns it.
     */
    private static Object value(ResultSet rs, int c, String type) throws SQLException {
        return switch (type) {
            case "TIMESTAMP" -> rs.getObject(c, LocalDateTime.class);
            case "TIME" -> {
                String text = rs.getString(c);
                yield text == null ? null : Timestamps.toLocalTime(Timestamps.parseTime(text));
            }
            case "INTERVAL" -> {
                String text = rs.getString(c);
                yield text == null ? null : Interval.parse(text);
            }
            default -> rs.getObject(c);
        };
    }

    /**
     * The number of rows {@code sql} returns, without fetching them; {@link Long#MAX_VALUE} when DuckDB
     * cannot count them within {@value #COUNT_LIMIT_SECONDS} s, so that a generated case the oracle
     * cannot answer is regenerated, as one of too many rows is (a join of four scans whose key and
     * residual contradict each other took DuckDB minutes, and Troupe too).
     */
    long count(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.setQueryTimeout(COUNT_LIMIT_SECONDS);
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM (" + sql + ") AS counted")) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLTimeoutException e) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    /** DuckDB's name of a Troupe type: its SQL name. */
    static String sqlType(DataType type) {
        return type.sqlName();
    }

    /**
     * One value, from either engine, in the form both are compared in: every integer as Long
     * (DuckDB's HUGEINT sums as well), decimals as BigDecimal without trailing zeros, floats as
     * Double, dates as LocalDate, timestamps as LocalDateTime, times as LocalTime, timestamps with a time zone
     * as Instant; a BLOB's bytes as {@link Bytes}; Boolean, String, Interval and UUID as they are.
     */
    static Object normalise(Object v) {
        if (v == null || v instanceof Long || v instanceof Double || v instanceof String
                || v instanceof Boolean || v instanceof LocalDate || v instanceof LocalDateTime || v instanceof Instant
                || v instanceof LocalTime || v instanceof Interval || v instanceof java.util.UUID) {
            return v;
        }
        if (v instanceof byte[] b) {
            return new Bytes(java.util.HexFormat.of().formatHex(b));
        }
        if (v instanceof java.sql.Blob b) {
            try {
                return normalise(b.getBytes(1, (int) b.length()));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        if (v instanceof OffsetDateTime t) {
            return t.toInstant();
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : new BigDecimal(b);
        }
        if (v instanceof BigDecimal d) {
            return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        throw new IllegalArgumentException("cannot normalise " + v.getClass().getName() + ": " + v);
    }

    /** A BLOB's bytes as lower-case hex, comparable by content (a byte[] is not). */
    public record Bytes(String hex) {
    }

    /** Normalises every value of {@code rows} (Troupe's result rows). */
    public static List<List<Object>> normalise(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            Object[] values = new Object[row.size()];
            for (int c = 0; c < values.length; c++) {
                values[c] = normalise(row.get(c));
            }
            out.add(Arrays.asList(values));
        }
        return out;
    }
}
