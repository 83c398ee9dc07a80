package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Window functions through {@code troupe.sql} against DuckDB over the same random table: partitions of many rows
 * and of one, NULL partition keys, ties and NULLs in the ORDER BY keys, NULL values, an empty table; every
 * function, the default frames with and without ORDER BY, ROWS frames with offsets on both sides, RANGE frames
 * over peers; several windows in one SELECT, a window over an aggregate, in a subquery, under an ORDER BY.
 * Each statement runs with 1, 2 and 4 workers. Functions whose answer depends on the order of tied rows (row
 * numbers, lag, first values, ROWS frames) order totally (by id last); the others order with ties on purpose.
 * Every OVER writes NULLS FIRST or LAST: DuckDB's default puts NULLs last either way, SQL's does not.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class WindowSqlTest {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> CASES = List.of(
            // ranks, with ties in k and NULL partition keys
            "SELECT id, g, k, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w, cume_dist() OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k NULLS FIRST)",
            "SELECT id, row_number() OVER w, ntile(3) OVER w, ntile(50) OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k DESC NULLS LAST, id)",
            // aggregates over the default frame: up to the row's last peer
            "SELECT id, count(*) OVER w, count(x) OVER w, sum(x) OVER w, avg(x) OVER w, sum(d) OVER w, "
                    + "avg(d) OVER w, sum(f) OVER w, min(s) OVER w, max(dt) OVER w, min(f) OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k NULLS LAST)",
            // without ORDER BY: the whole partition
            "SELECT id, count(*) OVER w, sum(x) OVER w, avg(f) OVER w, min(x) OVER w, max(s) OVER w, max(d) OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g)",
            // ROWS frames
            "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
                    + "avg(d) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                    + "min(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN CURRENT ROW AND 3 FOLLOWING), "
                    + "max(f) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), "
                    + "count(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING), "
                    + "sum(f) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), "
                    + "max(s) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING), "
                    + "count(*) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) "
                    + "FROM t",
            // RANGE frames over peers
            "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY k NULLS LAST "
                    + "RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), "
                    + "count(*) OVER (PARTITION BY g ORDER BY k NULLS LAST "
                    + "RANGE BETWEEN CURRENT ROW AND CURRENT ROW), "
                    + "min(d) OVER (PARTITION BY g ORDER BY k NULLS LAST "
                    + "RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t",
            // lag, lead, first and last values
            "SELECT id, lag(x) OVER w, lag(x, 2) OVER w, lead(s, 1, 'none') OVER w, lead(d, 3, 0.00) OVER w, "
                    + "lag(dt, 1) OVER w, lead(x, 0) OVER w, lag(x, 1, 1.5) OVER w, lead(d, 1, x) OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k NULLS FIRST, id)",
            "SELECT id, first_value(s) OVER w, last_value(s) OVER w, first_value(x) OVER (PARTITION BY g ORDER BY k "
                    + "NULLS FIRST, id ROWS BETWEEN 2 FOLLOWING AND 4 FOLLOWING), last_value(d) OVER (PARTITION BY g "
                    + "ORDER BY k NULLS FIRST, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k NULLS FIRST, id)",
            // no PARTITION BY: one partition, one worker
            "SELECT id, rank() OVER (ORDER BY k NULLS LAST), sum(x) OVER (ORDER BY k NULLS LAST), "
                    + "count(*) OVER (), max(s) OVER () FROM t",
            // one-row partitions
            "SELECT id, row_number() OVER w, rank() OVER w, percent_rank() OVER w, cume_dist() OVER w, lag(x) OVER w, "
                    + "sum(x) OVER w FROM t WINDOW w AS (PARTITION BY id ORDER BY k NULLS FIRST)",
            // several windows with different partitions and orders in one SELECT
            "SELECT id, rank() OVER (PARTITION BY g ORDER BY k NULLS FIRST), sum(x) OVER (PARTITION BY k), "
                    + "count(*) OVER (), dense_rank() OVER (PARTITION BY s ORDER BY dt DESC NULLS LAST) FROM t",
            // keys that are expressions, of several types
            "SELECT id, row_number() OVER (PARTITION BY g % 3, s ORDER BY x * 2 NULLS FIRST, id), "
                    + "sum(d) OVER (PARTITION BY dt ORDER BY f NULLS LAST, id) FROM t",
            // a window in a subquery, filtered on its result: the top two of each group
            "SELECT * FROM (SELECT id, g, row_number() OVER (PARTITION BY g ORDER BY k NULLS LAST, id) AS rn FROM t) s "
                    + "WHERE rn <= 2",
            // a window over a join, and a windowed subquery joined
            "SELECT a.id, rank() OVER (PARTITION BY b.g ORDER BY a.k NULLS LAST) FROM t a JOIN t b ON a.id = b.id + 1",
            "SELECT a.id, a.rn, b.x FROM (SELECT id, row_number() OVER (PARTITION BY g ORDER BY id) AS rn FROM t) a "
                    + "JOIN t b ON a.id = b.id WHERE a.rn <= 3",
            // a window over an aggregate
            "SELECT g, sum(x), rank() OVER (ORDER BY sum(x) DESC NULLS LAST) FROM t GROUP BY g",
            // ratio to report (TPC-DS q12, q98)
            "SELECT g, k, sum(d) AS s, sum(d) * 100 / sum(sum(d)) OVER (PARTITION BY g) FROM t GROUP BY g, k",
            // empty input
            "SELECT id, row_number() OVER (PARTITION BY g ORDER BY id), sum(x) OVER (), lag(s) OVER (ORDER BY id) "
                    + "FROM e",
            "SELECT id, count(*) OVER (PARTITION BY g) FROM t WHERE id < 0");

    /** Ordered: the statement's ORDER BY fixes every row's place. */
    private static final List<String> ORDERED = List.of(
            "SELECT id, row_number() OVER (PARTITION BY g ORDER BY id) AS rn FROM t ORDER BY rn DESC, id LIMIT 40");

    private static SqlEngines engines;
    private static Troupe troupe;
    private static DuckDbOracle duck;

    @BeforeAll
    static void load() throws Exception {
        List<Table> tables = List.of(table("t", 2000, 5), table("e", 0, 0));
        engines = SqlEngines.over(tables);
        troupe = engines.troupe();
        duck = engines.duck();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    /**
     * {@code rows} random rows: g a partition key of 40 values and NULL (one in 15), and a one-row partition for
     * each of the last 60 ids; k an ORDER BY key of 12 values (ties) and NULL; values x, d, f, s, dt, NULL one
     * time in 8.
     */
    private static Table table(String name, int rows, long seed) {
        Random random = new Random(seed);
        TableBuilder t = new TableBuilder(name, Schema.of(
                new Field(null, "id", DataType.INT64, false),
                Field.of("g", DataType.INT32),
                Field.of("k", DataType.INT32),
                Field.of("x", DataType.INT32),
                Field.of("d", DataType.decimal(9, 2)),
                Field.of("f", DataType.FLOAT64),
                Field.of("s", DataType.VARCHAR),
                Field.of("dt", DataType.DATE)), 256);
        for (long id = 1; id <= rows; id++) {
            t.addRow(id,
                    id > rows - 60 ? (int) (1000 + id) : maybe(random, 15, random.nextInt(40)),
                    maybe(random, 12, random.nextInt(12)),
                    maybe(random, 8, random.nextInt(2001) - 1000),
                    maybe(random, 8, BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2)),
                    maybe(random, 8, Math.round(random.nextDouble() * 1e6) / 1e3),
                    maybe(random, 8, "s" + random.nextInt(30)),
                    maybe(random, 8, LocalDate.of(2024, 1, 1).plusDays(random.nextInt(20))));
        }
        return t.build();
    }

    private static Object maybe(Random random, int oneIn, Object value) {
        return random.nextInt(oneIn) == 0 ? null : value;
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int workers : new int[] {1, 2, 4}) {
            for (String sql : CASES) {
                tests.add(DynamicTest.dynamicTest(workers + " workers: " + sql, () -> check(sql, workers, false)));
            }
            for (String sql : ORDERED) {
                tests.add(DynamicTest.dynamicTest(workers + " workers: " + sql, () -> check(sql, workers, true)));
            }
        }
        return tests.stream();
    }

    private static void check(String sql, int workers, boolean ordered) throws Exception {
        List<List<Object>> expected = duck.query(sql).rows();
        QueryResult result = troupe.sql(sql, QueryOptions.defaults().withWorkers(workers).withTimeout(QUERY_TIMEOUT));
        List<List<Object>> actual = DuckDbOracle.normalise(result.rows());
        assertNull(ResultComparator.compare(expected, actual, ordered), () -> sql + "\n" + troupe.explainSql(sql));
    }

    @Test
    void shouldExplainTheWindowNode() {
        String explain = troupe.explainSql("SELECT id, rank() OVER (PARTITION BY g ORDER BY k NULLS FIRST) AS r, "
                + "sum(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) "
                + "FROM t");
        // One window node: the calls share their partitions and order, each with its own frame.
        // The columns of the projection under it show by their names: its alias is SQL lowering's own.
        assertTrue(explain.matches("(?s).*->  Window rank\\(\\) AS window\\$\\d+, count\\(x\\) "
                + "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW AS window\\$\\d+, sum\\(x\\) "
                + "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW AS window\\$\\d+ "
                + "Partition By: g Order By: k ASC NULLS FIRST\n.*"), explain);
        assertFalse(explain.contains("Alias $"), explain);
        assertEquals(1, explain.split("->  Window ", -1).length - 1, explain);
    }

    @Test
    void shouldRefuseWhatWindowsDoNotRunNamingIt() {
        assertRefused("SELECT sum(x) OVER (ORDER BY k RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
                "unsupported in SQL: RANGE frames with an offset (1 PRECEDING)");
        assertRefused("SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) "
                + "FROM t", "unsupported in SQL: window frames with EXCLUDE CURRENT ROW");
        assertRefused("SELECT count(DISTINCT x) OVER (PARTITION BY g) FROM t",
                "unsupported in SQL: DISTINCT in window function COUNT");
        assertRefused("SELECT lag(x) IGNORE NULLS OVER (ORDER BY id) FROM t",
                "unsupported in SQL: IGNORE NULLS in window function LAG");
        assertRefused("SELECT nth_value(x, 2) OVER (ORDER BY id) FROM t",
                "unsupported in SQL: window function NTH_VALUE");
    }

    private static void assertRefused(String sql, String message) {
        SqlException e = assertThrows(SqlException.class, () -> troupe.sql(sql));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void shouldFailASumThatOverflowsNamingIt() {
        // Each value fits a BIGINT; the sum of ten of them, about 1e19, does not.
        QueryFailedException e = assertThrows(QueryFailedException.class, () -> troupe.sql(
                "SELECT sum(CAST(999999999999999999 AS BIGINT)) OVER (PARTITION BY id % 2 ORDER BY id "
                        + "ROWS BETWEEN 9 PRECEDING AND CURRENT ROW) FROM t"));
        assertTrue(e.getMessage().contains("overflow in sum("), e.getMessage());
    }
}
