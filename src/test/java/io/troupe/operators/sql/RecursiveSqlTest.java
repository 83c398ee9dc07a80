package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.RunningQuery;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.QueryProfile;
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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WITH RECURSIVE through {@code troupe.sql} against DuckDB over the same random tables: a counter, walks over a graph
 * with cycles (UNION ends them) and NULL edges, a walk bounded by depth (UNION ALL), two-column recursions
 * (Fibonacci), a recursive term that joins a base table, an empty non-recursive term, UNION's drop of duplicates
 * within a round and across rounds with NULLs equal, two recursive queries in one statement, a recursive query read
 * twice. Each runs with 0 (the leader alone), 1 and 2 workers. Then Troupe's own: the iteration limit on both sides of
 * its boundary, a runaway recursion stopped by the query's timeout and by a cancel (with no worker left), the memory
 * limit, and EXPLAIN and EXPLAIN ANALYZE.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RecursiveSqlTest {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> CASES = List.of(
            // a counter to 100
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100) SELECT n FROM r",
            // what the nodes below 5 reach, over cycles: UNION drops what an earlier round produced
            "WITH RECURSIVE reach(node) AS (SELECT src FROM edges WHERE src < 5 "
                    + "UNION SELECT e.dst FROM reach JOIN edges e ON e.src = reach.node) SELECT node FROM reach",
            // ancestors of node 7 over the reversed edges, with NULL edges on the way
            "WITH RECURSIVE anc(node) AS (SELECT CAST(7 AS BIGINT) "
                    + "UNION SELECT e.src FROM anc JOIN edges e ON e.dst = anc.node) SELECT node FROM anc",
            // paths of up to 4 steps, every one kept (UNION ALL): cycles bounded by the depth
            "WITH RECURSIVE walk(node, depth, w) AS (SELECT src, 0, weight FROM edges WHERE src < 4 "
                    + "UNION ALL SELECT e.dst, walk.depth + 1, e.weight FROM walk JOIN edges e ON e.src = walk.node "
                    + "WHERE walk.depth < 4) SELECT node, depth, count(*), count(w), sum(w) FROM walk "
                    + "GROUP BY node, depth",
            // two columns from the last row: Fibonacci
            "WITH RECURSIVE fib(i, a, b) AS (SELECT 1, CAST(0 AS BIGINT), CAST(1 AS BIGINT) "
                    + "UNION ALL SELECT i + 1, b, a + b FROM fib WHERE i < 80) SELECT i, a, b FROM fib",
            // a recursive term that joins a base table, NULL values carried along
            "WITH RECURSIVE chain(id, v, steps) AS (SELECT id, v, 0 FROM nums WHERE id <= 12 "
                    + "UNION ALL SELECT n.id, n.v, chain.steps + 1 FROM chain JOIN nums n ON n.id = chain.id + 7 "
                    + "WHERE chain.steps < 30) SELECT id, v, steps FROM chain",
            // an empty non-recursive term: no rows, and no round
            "WITH RECURSIVE r(n) AS (SELECT id FROM nums WHERE id < 0 UNION ALL SELECT n + 1 FROM r WHERE n < 5) "
                    + "SELECT n FROM r",
            // UNION: duplicates within a round and across rounds dropped, NULLs equal to each other
            "WITH RECURSIVE r(a, b) AS (SELECT v % 7, s FROM nums UNION SELECT (a + 3) % 11, b FROM r) "
                    + "SELECT a, b FROM r",
            // a recursion whose rows a join and a filter read afterwards
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 2 FROM r WHERE n < 300) "
                    + "SELECT r.n, nums.v FROM r JOIN nums ON nums.id = r.n WHERE nums.v IS NOT NULL OR r.n > 100",
            // one recursive query reading another, and one read twice
            "WITH RECURSIVE a(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM a WHERE n < 6), "
                    + "b(m) AS (SELECT n FROM a UNION ALL SELECT m + 10 FROM b WHERE m < 60) "
                    + "SELECT x.m, y.m FROM b x JOIN b y ON x.m = y.m - 10",
            // a recursive term with an aggregate over a subquery of the base table in its join
            "WITH RECURSIVE r(n, total) AS (SELECT 0, CAST(0 AS BIGINT) UNION ALL "
                    + "SELECT r.n + 1, r.total + t.c FROM r JOIN (SELECT v % 5 AS k, count(*) AS c FROM nums "
                    + "GROUP BY v % 5) t ON t.k = r.n % 5 WHERE r.n < 40) SELECT n, total FROM r");

    private static SqlEngines engines;
    private static Troupe troupe;
    private static DuckDbOracle duck;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.over(List.of(edges(400, 80, 11), nums(500, 12)));
        troupe = engines.troupe();
        duck = engines.duck();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    /** A random graph of {@code rows} edges between nodes 1..{@code nodes}, with cycles; a NULL dst one in 20. */
    private static Table edges(int rows, int nodes, long seed) {
        Random random = new Random(seed);
        TableBuilder t = new TableBuilder("edges", Schema.of(new Field(null, "src", DataType.INT64, false),
                Field.of("dst", DataType.INT64), Field.of("weight", DataType.INT32)));
        for (int i = 0; i < rows; i++) {
            t.addRow((long) 1 + random.nextInt(nodes), random.nextInt(20) == 0 ? null : (long) 1 + random.nextInt(nodes),
                    random.nextInt(8) == 0 ? null : random.nextInt(100));
        }
        return t.build();
    }

    /** Ids 1..{@code rows}; v a small number, NULL one in 8; s a few strings, NULL one in 6. */
    private static Table nums(int rows, long seed) {
        Random random = new Random(seed);
        TableBuilder t = new TableBuilder("nums", Schema.of(new Field(null, "id", DataType.INT64, false),
                Field.of("v", DataType.INT32), Field.of("s", DataType.VARCHAR)));
        for (long id = 1; id <= rows; id++) {
            t.addRow(id, random.nextInt(8) == 0 ? null : random.nextInt(40) - 10,
                    random.nextInt(6) == 0 ? null : "s" + random.nextInt(5));
        }
        return t.build();
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int workers : new int[] {0, 1, 2}) {
            for (String sql : CASES) {
                tests.add(DynamicTest.dynamicTest(workers + " workers: " + sql, () -> check(sql, workers)));
            }
        }
        return tests.stream();
    }

    private static void check(String sql, int workers) throws Exception {
        List<List<Object>> expected = duck.query(sql).rows();
        QueryResult result = troupe.sql(sql, QueryOptions.defaults().withWorkers(workers).withTimeout(QUERY_TIMEOUT));
        List<List<Object>> actual = DuckDbOracle.normalise(result.rows());
        assertNull(ResultComparator.compare(expected, actual, false), () -> sql + "\n" + troupe.explainSql(sql));
    }

    @Test
    void aRecursiveTermOfOtherTypesIsRefusedAskingForACast() {
        SqlException e = assertThrows(SqlException.class, () -> troupe.sql(
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n * 1.5 FROM r WHERE n < 5) SELECT n FROM r"));
        assertTrue(e.getMessage().contains("a WITH RECURSIVE whose recursive term makes other types than its "
                + "non-recursive term") && e.getMessage().contains("cast the non-recursive term's columns"),
                e.getMessage());
    }

    @Test
    void theRecursiveTermRunsAsOftenAsTheLimitAndNoMore() throws Exception {
        TroupeSettings settings = withLimit(50);
        try (Troupe limited = Troupe.start(settings)) {
            // n < 50: the 49th run adds 50, the 50th adds nothing and ends the recursion.
            String fits = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 50) SELECT n FROM r";
            String over = fits.replace("n < 50", "n < 51");
            for (int workers : new int[] {0, 2}) {
                QueryOptions options = QueryOptions.defaults().withWorkers(workers);
                assertNull(ResultComparator.compare(duck.query(fits).rows(),
                        DuckDbOracle.normalise(limited.sql(fits, options).rows()), false));
                QueryFailedException e = assertThrows(QueryFailedException.class, () -> limited.sql(over, options));
                assertTrue(e.getMessage().contains("WITH RECURSIVE r: the recursive term ran 50 times and its last run"
                        + " still added rows; troupe.sql.recursion-limit = 50"), e.getMessage());
            }
        }
    }

    @Test
    void aRunawayRecursionStopsAtTheTimeoutAndWhenCancelledLeavingNoWorker() throws Exception {
        try (Troupe unlimited = Troupe.start(withLimit(Integer.MAX_VALUE))) {
            Plan runaway = unlimited.planSql(
                    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r");
            for (int workers : new int[] {0, 2}) {
                QueryOptions options = QueryOptions.defaults().withWorkers(workers).withTimeout(Duration.ofMillis(500));
                QueryCancelledException e = assertThrows(QueryCancelledException.class,
                        () -> unlimited.execute(runaway, options));
                assertTrue(e.getMessage().contains("timed out after 500 ms"), e.getMessage());
            }
            RunningQuery running = unlimited.submit(runaway, QueryOptions.defaults().withWorkers(2));
            // Let it run some rounds first: the cancel must reach a recursion under way.
            Thread.sleep(300);
            running.cancel("enough rounds");
            QueryCancelledException e = assertThrows(QueryCancelledException.class, running::await);
            assertTrue(e.getMessage().contains("enough rounds"), e.getMessage());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline && unlimited.status().liveWorkers() != 0) {
                Thread.sleep(10);
            }
            assertEquals(0, unlimited.status().liveWorkers(), "workers left after the cancel");
            assertEquals(0, unlimited.status().runningQueries(), "queries left after the cancel");
        }
    }

    @Test
    void theRowsARecursionHoldsCountAgainstTheQuerysMemory() {
        TroupeSettings settings = TroupeSettings.load();
        settings = settings.withMemory(new TroupeSettings.Memory(settings.memory().chunkBytes(), 0,
                64L << 20, 2L << 20));
        try (Troupe small = Troupe.start(settings)) {
            for (boolean all : new boolean[] {true, false}) {
                String sql = "WITH RECURSIVE r(n) AS (SELECT * FROM generate_series(1, 20000) "
                        + (all ? "UNION ALL" : "UNION") + " SELECT n + 20000 FROM r WHERE n < 10000000) "
                        + "SELECT count(*) FROM r";
                QueryFailedException e = assertThrows(QueryFailedException.class,
                        () -> small.sql(sql, QueryOptions.defaults().withWorkers(2)));
                assertTrue(e.getMessage().contains("WITH RECURSIVE r asked for")
                        && e.getMessage().contains("troupe.memory.query-limit"), e.getMessage());
            }
        }
    }

    @Test
    void explainShowsTheRecursiveUnionOverItsWorkTableAndAnalyzeCountsEveryRound() {
        String sql = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100) "
                + "SELECT count(*) AS c FROM r";
        String explain = troupe.explainSql(sql);
        assertTrue(explain.contains("->  Recursive Union r\n"), explain);
        assertTrue(explain.contains("->  WorkTable Scan on r"), explain);
        assertTrue(explain.indexOf("Recursive Union r") < explain.indexOf("WorkTable Scan on r"), explain);
        String distinct = troupe.explainSql(sql.replace("UNION ALL", "UNION"));
        assertTrue(distinct.contains("->  Recursive Union r (distinct rows)"), distinct);
        for (int workers : new int[] {0, 2}) {
            QueryProfile profile = troupe.explainAnalyze(troupe.planSql(sql), QueryOptions.defaults()
                    .withWorkers(workers));
            String rendered = profile.render();
            // 100 rows out of the union; the work table read 100 rows over its 100 rounds (the last added none).
            assertTrue(rendered.contains("Recursive Union r (actual rows=100 "), rendered);
            assertTrue(rendered.contains("WorkTable Scan on r") && rendered.matches(
                    "(?s).*WorkTable Scan on r[^\\n]*\\(actual rows=100 .*"), rendered);
            assertEquals(List.of(List.of(100L)), profile.result().rows());
        }
    }

    private static TroupeSettings withLimit(int limit) {
        TroupeSettings settings = TroupeSettings.load();
        TroupeSettings.Sql sql = settings.sql();
        return settings.withSql(new TroupeSettings.Sql(sql.joinOrderLimit(), sql.optimizePlans(), sql.timeZone(),
                limit));
    }
}
