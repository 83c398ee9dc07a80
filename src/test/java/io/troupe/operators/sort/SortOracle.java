package io.troupe.operators.sort;

import io.troupe.operators.plan.SortKey;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * DuckDB beside the sort's query tests: tables of one schema with every type ({@link #SCHEMA}: NULLs,
 * duplicates and each type's edge values), loaded into a Troupe table and into DuckDB alike, and
 * DuckDB's rows in the form Troupe's results take. Close it after the tests.
 */
final class SortOracle implements AutoCloseable {

    static final Schema SCHEMA = Schema.of(Field.of("id", DataType.INT32), Field.of("i", DataType.INT32),
            Field.of("l", DataType.INT64), Field.of("d", DataType.FLOAT64), Field.of("m", DataType.decimal(12, 3)),
            Field.of("dt", DataType.DATE), Field.of("b", DataType.BOOLEAN), Field.of("s", DataType.VARCHAR));
    /** The columns a test sorts by, one of each type. */
    static final String[] KEY_COLUMNS = {"i", "l", "d", "m", "dt", "b", "s"};
    private static final String DUCK_COLUMNS = "id INTEGER, i INTEGER, l BIGINT, d DOUBLE, m DECIMAL(12,3), "
            + "dt DATE, b BOOLEAN, s VARCHAR";

    private final Connection duck;

    SortOracle() throws SQLException {
        this.duck = DriverManager.getConnection("jdbc:duckdb:");
    }

    @Override
    public void close() throws SQLException {
        duck.close();
    }

    /** Rows of (id, i, l, d, m, dt, b, s) with NULLs, duplicates and the edge values of each type; id unique. */
    static List<Object[]> rows(int n, Random random) {
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < n; id++) {
            Object[] row = new Object[8];
            row[0] = id;
            for (int c = 1; c < 8; c++) {
                row[c] = RunSorterTest.values(SCHEMA.type(c), 1, random).get(0);
            }
            rows.add(row);
        }
        return rows;
    }

    /** Builds the Troupe table and loads the same rows into DuckDB through a CSV file (fast, exact). */
    Table load(String name, List<Object[]> rows, int chunkRows) throws SQLException, IOException {
        TableBuilder builder = new TableBuilder(name, SCHEMA, chunkRows);
        StringBuilder csv = new StringBuilder();
        for (Object[] row : rows) {
            builder.addRow(row);
            for (int c = 0; c < row.length; c++) {
                csv.append(c == 0 ? "" : ",").append(csvField(row[c]));
            }
            csv.append('\n');
        }
        try (Statement st = duck.createStatement()) {
            st.execute("CREATE TABLE " + name + " (" + DUCK_COLUMNS + ")");
            if (!rows.isEmpty()) {
                Path file = Files.createTempFile("troupe-sort-" + name, ".csv");
                try {
                    Files.writeString(file, csv, StandardCharsets.UTF_8);
                    st.execute("COPY " + name + " FROM '" + file + "' (FORMAT csv, HEADER false, NULLSTR '\\N', "
                            + "QUOTE '\"', ESCAPE '\"')");
                } finally {
                    Files.delete(file);
                }
            }
        }
        return builder.build();
    }

    /** DuckDB's rows for {@code sql}, normalised as {@link #normalise} does Troupe's. */
    List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= meta.getColumnCount(); c++) {
                    Object v = meta.getColumnTypeName(c).equals("DATE")
                            ? rs.getObject(c, LocalDate.class) : rs.getObject(c);
                    row.add(v);
                }
                rows.add(row);
            }
        }
        return normalise(rows);
    }

    /** Rows with decimals as plain strings of scale 3, so that both sides compare equal. */
    static List<List<Object>> normalise(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> values = new ArrayList<>();
            for (Object v : row) {
                values.add(v instanceof BigDecimal d ? d.setScale(3).toPlainString() : v);
            }
            out.add(values);
        }
        return out;
    }

    /** Equal lists of rows; on a difference, names the first position that differs (not the whole lists). */
    static <T> void assertRows(List<T> expected, List<T> actual, String what) {
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                throw new AssertionError(what + ": row " + i + " differs: expected " + expected.get(i)
                        + " but was " + actual.get(i) + " (previous: " + (i == 0 ? "none" : expected.get(i - 1)) + ")");
            }
        }
        assertEquals(expected.size(), actual.size(), what + ": row count");
    }

    static SortKey key(String column, boolean ascending, boolean nullsFirst) {
        SortKey k = ascending ? col(column).asc() : col(column).desc();
        return nullsFirst ? k.withNullsFirst() : k.withNullsLast();
    }

    /** The key in SQL, for DuckDB. */
    static String sql(SortKey key) {
        String column = key.expr().toString();
        return column.substring(column.lastIndexOf('.') + 1) + (key.ascending() ? " ASC" : " DESC")
                + (key.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
    }

    /** Column {@code c} of every row. */
    static List<List<Object>> column(List<List<Object>> rows, int c) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            out.add(Arrays.asList(row.get(c)));
        }
        return out;
    }

    /** A CSV field DuckDB reads back as {@code v}: NULL as \\N, strings quoted, doubles as Java prints them. */
    private static String csvField(Object v) {
        if (v == null) {
            return "\\N";
        }
        if (v instanceof String s) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return v.toString();
    }
}
