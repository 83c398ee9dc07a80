package io.troupe.operators.sort;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
import java.util.stream.Collectors;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ORDER BY and top-N through the public API, compared in exact order with DuckDB on the same
 * data. Where rows may tie, the keys end with the unique {@code id} (so the order is total), or
 * only the key columns are compared.
 */
class SortQueryTest {

    private static final int[] BATCH_SIZES = {1, 3, 2048};
    private static final String[] KEY_COLUMNS = {"i", "l", "d", "m", "dt", "b", "s"};
    private static final Schema SCHEMA = Schema.of(Field.of("id", DataType.INT32), Field.of("i", DataType.INT32),
            Field.of("l", DataType.INT64), Field.of("d", DataType.FLOAT64), Field.of("m", DataType.decimal(12, 3)),
            Field.of("dt", DataType.DATE), Field.of("b", DataType.BOOLEAN), Field.of("s", DataType.VARCHAR));
    private static final String DUCK_COLUMNS = "id INTEGER, i INTEGER, l BIGINT, d DOUBLE, m DECIMAL(12,3), "
            + "dt DATE, b BOOLEAN, s VARCHAR";

    private static Connection duck;
    private static Table small;
    private static Table large;
    private static Table empty;

    @BeforeAll
    static void load() throws SQLException, IOException {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        small = load("t", rows(300, new Random(11)), 7);
        large = load("big", rows(20_000, new Random(12)), 1000);
        empty = load("e", List.of(), 7);
    }

    @AfterAll
    static void close() throws SQLException {
        duck.close();
    }

    @Test
    void shouldSortEveryTypeInEveryDirectionLikeDuckDb() throws SQLException {
        for (String c : KEY_COLUMNS) {
            for (int dir = 0; dir < 4; dir++) {
                SortKey key = key(c, dir < 2, dir % 2 == 0);
                List<List<Object>> exact = duck("SELECT * FROM t ORDER BY " + sql(key) + ", id");
                List<List<Object>> keysOnly = column(duck("SELECT " + c + " FROM t ORDER BY " + sql(key)), 0);
                for (int batchSize : BATCH_SIZES) {
                    String what = key + ", batch size " + batchSize;
                    assertRows(exact, run(batchSize, Plan.scan("t").sort(key, col("id").asc())), what);
                    List<List<Object>> ours = run(batchSize, Plan.scan("t").sort(key));
                    assertRows(keysOnly, column(ours, SCHEMA.resolve(c)), what + " (ties in any order)");
                }
            }
        }
    }

    @Test
    void shouldSortByMultipleKeysLikeDuckDb() throws SQLException {
        List<SortKey[]> orders = List.of(
                new SortKey[] {col("b").asc().withNullsFirst(), col("s").desc().withNullsLast(),
                    col("d").asc(), col("id").asc()},
                new SortKey[] {col("dt").desc(), col("m").asc().withNullsFirst(), col("id").desc()},
                new SortKey[] {col("i").asc(), col("l").desc().withNullsLast(), col("t.s").asc(), col("id").asc()},
                new SortKey[] {col("s").asc().withNullsFirst(), col("b").desc(), col("dt").asc().withNullsFirst(),
                    col("m").desc().withNullsLast(), col("id").asc()});
        for (SortKey[] order : orders) {
            String sqlOrder = Arrays.stream(order).map(SortQueryTest::sql).collect(Collectors.joining(", "));
            List<List<Object>> expected = duck("SELECT * FROM t ORDER BY " + sqlOrder);
            for (int batchSize : BATCH_SIZES) {
                assertRows(expected, run(batchSize, Plan.scan("t").sort(order)), sqlOrder + ", batch size " + batchSize);
            }
        }
    }

    @Test
    void shouldReturnTopNWithOffsetsAcrossBatchBoundaries() throws SQLException {
        SortKey[] order = {col("s").desc().withNullsFirst(), col("d").asc(), col("id").asc()};
        String sqlOrder = Arrays.stream(order).map(SortQueryTest::sql).collect(Collectors.joining(", "));
        long[][] limits = {{5, 0}, {5, 2}, {7, 4}, {3, 299}, {10, 295}, {1, 0}, {4, 300}, {4, 1000},
            {1000, 0}, {100, 50}, {Long.MAX_VALUE, 7}};
        for (long[] limit : limits) {
            String sqlLimit = " LIMIT " + Math.min(limit[0], Integer.MAX_VALUE) + " OFFSET " + limit[1];
            List<List<Object>> expected = duck("SELECT * FROM t ORDER BY " + sqlOrder + sqlLimit);
            for (int batchSize : BATCH_SIZES) {
                assertRows(expected, run(batchSize, Plan.scan("t").sort(order).limit(limit[0], limit[1])),
                        sqlOrder + sqlLimit + ", batch size " + batchSize);
            }
        }
    }

    @Test
    void shouldTruncateTopNOverALargeInput() throws SQLException {
        SortKey[] order = {col("l").desc().withNullsLast(), col("id").asc()};
        long[][] limits = {{10, 0}, {10, 5}, {3000, 100}, {9000, 0}, {20, 19_990}};
        for (long[] limit : limits) {
            String sqlLimit = " LIMIT " + limit[0] + " OFFSET " + limit[1];
            List<List<Object>> expected = duck("SELECT * FROM big ORDER BY l DESC NULLS LAST, id" + sqlLimit);
            for (int batchSize : new int[] {3, 2048}) {
                assertRows(expected, run(batchSize, Plan.scan("big").sort(order).limit(limit[0], limit[1])),
                        sqlLimit + ", batch size " + batchSize);
            }
        }
        assertRows(duck("SELECT * FROM big ORDER BY s ASC NULLS FIRST, dt DESC NULLS LAST, id"),
                run(2048, Plan.scan("big").sort(col("s").asc().withNullsFirst(), col("dt").desc().withNullsLast(),
                        col("id").asc())), "full sort of big");
    }

    @Test
    void shouldSortAndLimitEmptyInput() {
        for (int batchSize : BATCH_SIZES) {
            assertEquals(List.of(), run(batchSize, Plan.scan("e").sort(col("s").asc())));
            assertEquals(List.of(), run(batchSize, Plan.scan("e").sort(col("d").desc(), col("id").asc()).limit(3, 1)));
            assertEquals(List.of(), run(batchSize, Plan.scan("e").limit(3)));
        }
    }

    @Test
    void shouldReturnNoRowsForLimitZero() {
        for (int batchSize : BATCH_SIZES) {
            assertEquals(List.of(), run(batchSize, Plan.scan("t").sort(col("i").asc()).limit(0)));
            assertEquals(List.of(), run(batchSize, Plan.scan("t").sort(col("i").asc()).limit(0, 5)));
            assertEquals(List.of(), run(batchSize, Plan.scan("t").limit(0)));
            assertEquals(List.of(), run(batchSize, Plan.scan("t").limit(0, 5)));
        }
    }

    @Test
    void shouldLimitWithoutSortAndWithHugeCounts() throws SQLException {
        // The scan reads the table in insertion (id) order, so a plain limit is deterministic here;
        // it passes the scan's chunks on, so its batches are not cut to the batch size.
        for (int batchSize : BATCH_SIZES) {
            assertRows(duck("SELECT * FROM t ORDER BY id LIMIT 17 OFFSET 5"),
                    normalise(execute(batchSize, Plan.scan("t").limit(17, 5)).rows()), "limit 17 offset 5");
            assertRows(duck("SELECT * FROM t ORDER BY id OFFSET 290"),
                    normalise(execute(batchSize, Plan.scan("t").limit(Long.MAX_VALUE, 290)).rows()), "offset 290");
        }
    }

    @Test
    void shouldSortRowsThatArriveWithASelection() throws SQLException {
        // The limit below the sort hands on batches with selection vectors, which the sort compacts.
        List<List<Object>> expected = duck("SELECT * FROM (SELECT * FROM t ORDER BY id LIMIT 250 OFFSET 13) "
                + "ORDER BY s DESC NULLS LAST, id");
        for (int batchSize : BATCH_SIZES) {
            assertRows(expected, run(batchSize,
                    Plan.scan("t").limit(250, 13).sort(col("s").desc().withNullsLast(), col("id").asc())),
                    "batch size " + batchSize);
        }
    }

    @Test
    void shouldSortByAComputedKeyAndProjectAfterwards() throws SQLException {
        List<List<Object>> expected = column(duck("SELECT id FROM t ORDER BY id DESC"), 0);
        for (int batchSize : BATCH_SIZES) {
            assertRows(expected, run(batchSize, Plan.scan("t").sort(lit(1).asc(), col("id").desc()).project(col("id"))),
                    "batch size " + batchSize);
        }
        List<List<Object>> top = run(3, Plan.series("x", 1, 10_000).sort(col("x").desc()).limit(4, 1));
        assertEquals(List.of(List.of(9999L), List.of(9998L), List.of(9997L), List.of(9996L)), top);
    }

    @Test
    void shouldExplainASortAndKeepItsSchema() {
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0))) {
            troupe.register(small);
            String plan = troupe.explain(Plan.scan("t").sort(col("s").desc(), col("id").asc()).limit(5, 2));
            assertTrue(plan.contains("Limit 5 Offset 2"), plan);
            assertTrue(plan.contains("Sort s DESC NULLS FIRST, id ASC NULLS LAST"), plan);
            QueryResult r = troupe.execute(Plan.scan("t").sort(col("s").desc()).limit(1));
            assertEquals(SCHEMA.withQualifier("t"), r.schema());
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Equal lists of rows; on a difference, names the first position that differs (not the whole lists). */
    private static void assertRows(List<List<Object>> expected, List<List<Object>> actual, String what) {
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                throw new AssertionError(what + ": row " + i + " differs: expected " + expected.get(i)
                        + " but was " + actual.get(i) + " (previous: " + (i == 0 ? "none" : expected.get(i - 1)) + ")");
            }
        }
        assertEquals(expected.size(), actual.size(), what + ": row count");
    }

    private static SortKey key(String column, boolean ascending, boolean nullsFirst) {
        SortKey k = ascending ? col(column).asc() : col(column).desc();
        return nullsFirst ? k.withNullsFirst() : k.withNullsLast();
    }

    private static String sql(SortKey key) {
        String column = key.expr().toString();
        return column.substring(column.lastIndexOf('.') + 1) + (key.ascending() ? " ASC" : " DESC")
                + (key.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
    }

    /** Runs {@code plan} and checks that it emitted batches of at most {@code batchSize} rows. */
    private static List<List<Object>> run(int batchSize, Plan plan) {
        QueryResult result = execute(batchSize, plan);
        for (int b = 0; b < result.batches().size(); b++) {
            int size = result.batches().get(b).size();
            assertTrue(size <= batchSize, "a batch of " + size + " rows at batch size " + batchSize);
        }
        return normalise(result.rows());
    }

    private static QueryResult execute(int batchSize, Plan plan) {
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(batchSize))) {
            troupe.register(small).register(large).register(empty);
            return troupe.execute(plan);
        }
    }

    private static List<List<Object>> column(List<List<Object>> rows, int c) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            out.add(Arrays.asList(row.get(c)));
        }
        return out;
    }

    private static List<List<Object>> normalise(List<List<Object>> rows) {
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

    private static List<List<Object>> duck(String sql) throws SQLException {
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

    // ------------------------------------------------------------------ data

    /** Rows of (id, i, l, d, m, dt, b, s) with NULLs, duplicates and the edge values of each type. */
    private static List<Object[]> rows(int n, Random random) {
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
    private static Table load(String name, List<Object[]> rows, int chunkRows) throws SQLException, IOException {
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
