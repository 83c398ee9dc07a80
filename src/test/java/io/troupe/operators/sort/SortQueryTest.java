package io.troupe.operators.sort;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.table.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.sort.SortOracle.KEY_COLUMNS;
import static io.troupe.operators.sort.SortOracle.SCHEMA;
import static io.troupe.operators.sort.SortOracle.assertRows;
import static io.troupe.operators.sort.SortOracle.column;
import static io.troupe.operators.sort.SortOracle.key;
import static io.troupe.operators.sort.SortOracle.normalise;
import static io.troupe.operators.sort.SortOracle.rows;
import static io.troupe.operators.sort.SortOracle.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ORDER BY and top-N through the public API, compared in exact order with DuckDB on the same
 * data. Where rows may tie, the keys end with the unique {@code id} (so the order is total), or
 * only the key columns are compared.
 */
class SortQueryTest {

    private static final int[] BATCH_SIZES = {1, 3, 2048};

    private static SortOracle oracle;
    private static Table small;
    private static Table large;
    private static Table empty;

    @BeforeAll
    static void load() throws SQLException, IOException {
        oracle = new SortOracle();
        small = oracle.load("t", rows(300, new Random(11)), 7);
        large = oracle.load("big", rows(20_000, new Random(12)), 1000);
        empty = oracle.load("e", List.of(), 7);
    }

    @AfterAll
    static void close() throws SQLException {
        oracle.close();
    }

    @Test
    void shouldSortEveryTypeInEveryDirectionLikeDuckDb() throws SQLException {
        for (String c : KEY_COLUMNS) {
            for (int dir = 0; dir < 4; dir++) {
                SortKey key = key(c, dir < 2, dir % 2 == 0);
                List<List<Object>> exact = oracle.query("SELECT * FROM t ORDER BY " + sql(key) + ", id");
                List<List<Object>> keysOnly = column(oracle.query("SELECT " + c + " FROM t ORDER BY " + sql(key)), 0);
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
            String sqlOrder = Arrays.stream(order).map(SortOracle::sql).collect(Collectors.joining(", "));
            List<List<Object>> expected = oracle.query("SELECT * FROM t ORDER BY " + sqlOrder);
            for (int batchSize : BATCH_SIZES) {
                assertRows(expected, run(batchSize, Plan.scan("t").sort(order)), sqlOrder + ", batch size " + batchSize);
            }
        }
    }

    @Test
    void shouldReturnTopNWithOffsetsAcrossBatchBoundaries() throws SQLException {
        SortKey[] order = {col("s").desc().withNullsFirst(), col("d").asc(), col("id").asc()};
        String sqlOrder = Arrays.stream(order).map(SortOracle::sql).collect(Collectors.joining(", "));
        long[][] limits = {{5, 0}, {5, 2}, {7, 4}, {3, 299}, {10, 295}, {1, 0}, {4, 300}, {4, 1000},
            {1000, 0}, {100, 50}, {Long.MAX_VALUE, 7}};
        for (long[] limit : limits) {
            String sqlLimit = " LIMIT " + Math.min(limit[0], Integer.MAX_VALUE) + " OFFSET " + limit[1];
            List<List<Object>> expected = oracle.query("SELECT * FROM t ORDER BY " + sqlOrder + sqlLimit);
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
            List<List<Object>> expected = oracle.query("SELECT * FROM big ORDER BY l DESC NULLS LAST, id" + sqlLimit);
            for (int batchSize : new int[] {3, 2048}) {
                assertRows(expected, run(batchSize, Plan.scan("big").sort(order).limit(limit[0], limit[1])),
                        sqlLimit + ", batch size " + batchSize);
            }
        }
        assertRows(oracle.query("SELECT * FROM big ORDER BY s ASC NULLS FIRST, dt DESC NULLS LAST, id"),
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
            assertRows(oracle.query("SELECT * FROM t ORDER BY id LIMIT 17 OFFSET 5"),
                    normalise(execute(batchSize, Plan.scan("t").limit(17, 5)).rows()), "limit 17 offset 5");
            assertRows(oracle.query("SELECT * FROM t ORDER BY id OFFSET 290"),
                    normalise(execute(batchSize, Plan.scan("t").limit(Long.MAX_VALUE, 290)).rows()), "offset 290");
        }
    }

    @Test
    void shouldSortRowsThatArriveWithASelection() throws SQLException {
        // The limit below the sort hands on batches with selection vectors, which the sort compacts.
        List<List<Object>> expected = oracle.query("SELECT * FROM (SELECT * FROM t ORDER BY id LIMIT 250 OFFSET 13) "
                + "ORDER BY s DESC NULLS LAST, id");
        for (int batchSize : BATCH_SIZES) {
            assertRows(expected, run(batchSize,
                    Plan.scan("t").limit(250, 13).sort(col("s").desc().withNullsLast(), col("id").asc())),
                    "batch size " + batchSize);
        }
    }

    @Test
    void shouldSortByAComputedKeyAndProjectAfterwards() throws SQLException {
        List<List<Object>> expected = column(oracle.query("SELECT id FROM t ORDER BY id DESC"), 0);
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
}
