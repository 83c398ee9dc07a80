package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.CollectSink;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.profile.NodeProfile;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared subplans ({@link Plan#share}): a subplan read two and three times, in joins and a union,
 * with NULL keys and with an empty result, returns DuckDB's rows for {@code WITH w AS MATERIALIZED}
 * on the leader alone and on 1, 2 and 4 workers over both gather transports; it runs once (one
 * materialising pipeline; EXPLAIN ANALYZE counts its nodes once); EXPLAIN prints it once; and
 * misuses fail with errors that name the subplan; a failure inside or above it, or a cancel, leaves
 * no worker, channel or arena memory behind; a streamed query reads it too.
 */
class SharedSubplanTest {

    private static final int ROWS = 3000;

    private static Troupe aeron;
    private static Troupe locked;
    private static Connection duck;

    @BeforeAll
    static void start() throws SQLException {
        aeron = start(TroupeSettings.GatherTransport.AERON);
        locked = start(TroupeSettings.GatherTransport.LOCKED_QUEUE);
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            s.execute("CREATE TABLE t (id BIGINT NOT NULL, k INTEGER, s VARCHAR)");
            StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = 0; i < ROWS; i++) {
                insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", ")
                        .append(k(i) == null ? "NULL" : k(i).toString()).append(", ")
                        .append(s(i) == null ? "NULL" : "'" + s(i) + "'").append(')');
            }
            s.execute(insert.toString());
        }
    }

    private static Integer k(int i) {
        return i % 31 == 0 ? null : i % 40;
    }

    private static String s(int i) {
        return i % 17 == 0 ? null : "s" + (i % 7);
    }

    private static Troupe start(TroupeSettings.GatherTransport transport) {
        TroupeSettings s = TroupeSettings.load().withBatchSize(64);
        TroupeSettings.Transport t = s.transport();
        s = new TroupeSettings(s.batchSize(), s.matchFlags(), new TroupeSettings.Transport(transport, t.wakeups(),
                t.queueCapacity(), t.termLengthBytes(), t.mtuBytes(), t.idleStrategy(), t.driverThreading(),
                t.directoryParent()), s.workers()).withMemory(s.memory());
        Troupe troupe = Troupe.start(s);
        TableBuilder table = new TableBuilder("t", Schema.of(new Field(null, "id", DataType.INT64, false),
                Field.of("k", DataType.INT32), Field.of("s", DataType.VARCHAR)), 100);
        for (int i = 0; i < ROWS; i++) {
            table.addRow((long) i, k(i), s(i));
        }
        troupe.register(table.build());
        return troupe;
    }

    @AfterAll
    static void close() throws SQLException {
        try {
            if (aeron != null) {
                aeron.close();
            }
        } finally {
            try {
                if (locked != null) {
                    locked.close();
                }
            } finally {
                if (duck != null) {
                    duck.close();
                }
            }
        }
    }

    // ------------------------------------------------------------------ the cases

    /** w: rows per key of t (the NULL key a group of its own), shared. */
    private static Plan perKey() {
        return Plan.scan("t").aggregate(List.of(col("k")), count().as("n"), sum(col("id")).as("total")).share("w");
    }

    private static final String PER_KEY_SQL =
            "WITH w AS MATERIALIZED (SELECT k, count(*) AS n, sum(id) AS total FROM t GROUP BY k) ";

    /** A plan and the SQL that means the same. */
    record Case(String name, Plan plan, String sql) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        Plan w = perKey();
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("two uses in a join", w.as("a")
                .join(w.as("b"), JoinType.INNER, col("a.k").eq(col("b.k").minus(lit(1))))
                .project(col("a.k"), col("b.k").as("bk"), col("a.n").plus(col("b.n")).as("n")),
                PER_KEY_SQL + "SELECT a.k, b.k, a.n + b.n FROM w a JOIN w b ON a.k = b.k - 1"));
        cases.add(new Case("three uses: a join and a union", w.as("a")
                .join(w.as("b"), JoinType.INNER, col("a.k").eq(col("b.k")))
                .project(col("a.k"), col("b.total"))
                .unionAll(w.as("c").filter(col("c.n").gt(lit(70L))).project(col("c.k"), col("c.total"))),
                PER_KEY_SQL + "SELECT a.k, b.total FROM w a JOIN w b ON a.k = b.k "
                        + "UNION ALL SELECT c.k, c.total FROM w c WHERE c.n > 70"));
        cases.add(new Case("one object twice under a union", w.unionAll(w)
                .aggregate(List.of(col("k")), count().as("c"), sum(col("n")).as("n")),
                PER_KEY_SQL + "SELECT k, count(*), sum(n) FROM (SELECT * FROM w UNION ALL SELECT * FROM w) u GROUP BY k"));
        cases.add(new Case("left join of a table to a use, NULL keys", Plan.scan("t")
                .join(w.as("w"), JoinType.LEFT, col("t.k").eq(col("w.k")))
                .aggregate(List.of(col("t.s")), count(col("w.n")).as("matched"), sum(col("w.total")).as("total")),
                PER_KEY_SQL + "SELECT t.s, count(w.n), sum(w.total) FROM t LEFT JOIN w ON t.k = w.k GROUP BY t.s"));
        cases.add(new Case("a use as the whole query", w, PER_KEY_SQL + "SELECT * FROM w"));
        cases.add(new Case("a use under a sort and a limit", w.sort(col("total").desc()).limit(5),
                PER_KEY_SQL + "SELECT * FROM w ORDER BY total DESC LIMIT 5"));
        Plan none = Plan.scan("t").filter(col("k").gt(lit(1000))).share("none");
        cases.add(new Case("an empty shared result, read twice", Plan.scan("t")
                .join(none.as("e"), JoinType.LEFT, col("t.id").eq(col("e.id")))
                .join(none.as("f"), JoinType.INNER, col("t.id").eq(col("f.id")))
                .project(col("t.id")),
                "WITH none AS MATERIALIZED (SELECT * FROM t WHERE k > 1000) "
                        + "SELECT t.id FROM t LEFT JOIN none e ON t.id = e.id JOIN none f ON t.id = f.id"));
        cases.add(new Case("an empty shared result under a left join", Plan.scan("t")
                .join(none.as("e"), JoinType.LEFT, col("t.id").eq(col("e.id")))
                .aggregate(List.of(), count().as("rows"), count(col("e.id")).as("matched")),
                "WITH none AS MATERIALIZED (SELECT * FROM t WHERE k > 1000) "
                        + "SELECT count(*), count(e.id) FROM t LEFT JOIN none e ON t.id = e.id"));
        Plan nested = w.as("a").filter(col("a.n").gt(lit(70L))).share("big");
        cases.add(new Case("a shared subplan over a shared subplan", nested.as("x")
                .join(w.as("y"), JoinType.INNER, col("x.k").eq(col("y.k")))
                .join(nested.as("z"), JoinType.INNER, col("y.k").eq(col("z.k")))
                .project(col("x.k"), col("y.total"), col("z.n")),
                PER_KEY_SQL + ", big AS MATERIALIZED (SELECT * FROM w a WHERE a.n > 70) "
                        + "SELECT x.k, y.total, z.n FROM big x JOIN w y ON x.k = y.k JOIN big z ON y.k = z.k"));
        return cases;
    }

    static Stream<Arguments> settings() {
        List<Arguments> all = new ArrayList<>();
        all.add(Arguments.of(0, "aeron"));
        for (int workers : new int[] {1, 2, 4}) {
            all.add(Arguments.of(workers, "aeron"));
            all.add(Arguments.of(workers, "locked-queue"));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "workers {0}, {1}")
    @MethodSource("settings")
    @Timeout(120)
    void returnsDuckDbsRows(int workers, String transport) throws SQLException {
        Troupe troupe = transport.equals("aeron") ? aeron : locked;
        for (Case c : cases()) {
            List<String> expected = duckRows(c.sql());
            List<String> actual = rows(troupe.execute(c.plan(), QueryOptions.defaults().withWorkers(workers)).rows());
            assertEquals(expected, actual, c.name());
        }
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
    }

    @Test
    void theSubplanCompilesToOneMaterialisingPipeline() {
        Plan w = perKey();
        Plan plan = w.as("a").join(w.as("b"), JoinType.INNER, col("a.k").eq(col("b.k")))
                .unionAll(w.as("c").join(w.as("d"), JoinType.INNER, col("c.k").eq(col("d.k"))));
        PlanCompiler.CompiledQuery query = new PlanCompiler(aeron.catalog(), aeron.settings()).compile(plan);
        long collectors = query.pipelines().stream().filter(p -> p.sink() instanceof CollectSink).count();
        assertEquals(2, collectors, "one pipeline keeps w, one collects the result");
        long scansOfT = query.pipelines().stream().flatMap(p -> p.branches().stream())
                .filter(b -> b.source() instanceof io.troupe.operators.table.TableScanSource).count();
        assertEquals(1, scansOfT, "t is scanned once, for w");
        Pipeline keeper = query.pipelines().stream().filter(p -> p.sink() instanceof CollectSink).findFirst().orElseThrow();
        for (Pipeline p : query.pipelines()) {
            if (p != keeper && p.branches().stream().anyMatch(b ->
                    b.source() instanceof io.troupe.operators.scan.CollectedScanSource)) {
                assertTrue(p.dependencies().contains(keeper), "a reader of w waits for the pipeline that keeps it");
            }
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 2})
    @Timeout(120)
    void explainAnalyzeCountsTheSubplanOnce(int workers) throws SQLException {
        Plan w = perKey();
        Plan plan = w.as("a").join(w.as("b"), JoinType.INNER, col("a.k").eq(col("b.k")))
                .join(w.as("c"), JoinType.INNER, col("b.k").eq(col("c.k")));
        QueryProfile profile = aeron.explainAnalyze(plan, QueryOptions.defaults().withWorkers(workers));
        String text = profile.render();
        long groups = Long.parseLong(duckRows("SELECT count(DISTINCT k) + 1 FROM t").get(0).replace("|", ""));
        assertEquals(groups, profile.find("CTE w").rows(), text);
        assertEquals(groups, profile.find("CTE w").rowsIn(), text);
        assertEquals(1, profile.nodes().stream().filter(n -> n.label().startsWith("Hash Aggregate")).count(), text);
        List<NodeProfile> scans = profile.nodes().stream().filter(n -> n.label().equals("Scan t")).toList();
        assertEquals(1, scans.size(), text);
        assertEquals(ROWS, scans.get(0).rows(), text);
        for (String use : List.of("CTE Scan on w AS a", "CTE Scan on w AS b", "CTE Scan on w AS c")) {
            assertEquals(groups, profile.find(use).rows(), use + "\n" + text);
        }
        assertEquals(groups - 1, profile.result().rowCount(), text);
    }

    @Test
    void explainPrintsTheSubplanOnceUnderTheRoot() {
        Plan w = Plan.scan("t").filter(col("k").gt(lit(3))).share("w");
        Plan plan = w.as("a").join(w.as("b"), JoinType.INNER, col("a.id").eq(col("b.id"))).project(col("a.id"));
        assertEquals("""
                Project a.id
                  Output: a.id INT64
                      ->  CTE w
                            Output: t.id INT64, t.k INT32, t.s VARCHAR
                            ->  Filter (k > 3)
                                  Output: t.id INT64, t.k INT32, t.s VARCHAR
                                  ->  Scan t
                                        Output: t.id INT64, t.k INT32, t.s VARCHAR
                      ->  Hash Join INNER on (a.id = b.id)
                            Output: a.id INT64, a.k INT32, a.s VARCHAR, b.id INT64, b.k INT32, b.s VARCHAR
                            ->  CTE Scan on w AS a
                                  Output: a.id INT64, a.k INT32, a.s VARCHAR
                            ->  CTE Scan on w AS b
                                  Output: b.id INT64, b.k INT32, b.s VARCHAR
                """, plan.explain(aeron.catalog()));
        assertEquals(List.of("CTE w"), plan.sharedSubplans().stream().map(Plan::label).toList());
    }

    @Test
    void twoSubplansSharedUnderOneNameAreRejected() {
        Plan first = Plan.scan("t").share("w");
        Plan second = Plan.scan("t").filter(col("k").gt(lit(1))).share("w");
        Plan plan = first.as("a").join(second.as("b"), JoinType.INNER, col("a.id").eq(col("b.id")));
        PlanException e = assertThrows(PlanException.class, () -> aeron.execute(plan));
        assertTrue(e.getMessage().contains("two different shared subplans are named 'w'"), e.getMessage());
        PlanException blank = assertThrows(PlanException.class, () -> Plan.scan("t").share(" "));
        assertTrue(blank.getMessage().contains("a shared subplan needs a name"), blank.getMessage());
    }

    @Test
    void aSharedPlanRunsInManyQueries() throws SQLException {
        Plan w = perKey();
        Plan plan = w.as("a").join(w.as("b"), JoinType.INNER, col("a.k").eq(col("b.k"))).project(col("a.k"), col("b.n"));
        List<String> expected = duckRows(PER_KEY_SQL + "SELECT a.k, b.n FROM w a JOIN w b ON a.k = b.k");
        for (int run = 0; run < 3; run++) {
            assertEquals(expected, rows(locked.execute(plan, QueryOptions.defaults().withWorkers(2)).rows()));
            assertEquals(expected, rows(aeron.execute(plan, QueryOptions.defaults().withWorkers(0)).rows()));
        }
    }

    @ParameterizedTest(name = "workers {0}, {1}")
    @MethodSource("settings")
    @Timeout(120)
    void aFailureInOrAboveTheSubplanLeavesNothingBehind(int workers, String transport) throws SQLException {
        Troupe troupe = transport.equals("aeron") ? aeron : locked;
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        Plan failing = Plan.scan("t").filter(col("k").isNotNull())
                .project(col("id"), col("id").div(col("k").minus(col("k"))).as("q")).share("bad");
        Plan inside = failing.as("a").join(failing.as("b"), JoinType.INNER, col("a.id").eq(col("b.id")));
        Plan w = perKey();
        Plan above = w.as("a").join(w.as("b"), JoinType.INNER, col("a.k").eq(col("b.k")))
                .project(col("a.total").div(col("b.n").minus(col("b.n"))));
        for (Plan plan : List.of(inside, above)) {
            QueryFailedException e = assertThrows(QueryFailedException.class, () -> troupe.execute(plan, options));
            assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
            assertEquals(0, troupe.openChannels());
            assertEquals(0, troupe.liveWorkers());
            assertEquals(0, troupe.memoryArena().inUseBytes());
        }
        assertEquals(duckRows(PER_KEY_SQL + "SELECT a.k, b.n FROM w a JOIN w b ON a.k = b.k"),
                rows(troupe.execute(w.as("a").join(w.as("b"), JoinType.INNER, col("a.k").eq(col("b.k")))
                        .project(col("a.k"), col("b.n")), options).rows()));
    }

    @ParameterizedTest(name = "workers {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 2})
    @Timeout(120)
    void aCancelledQueryWithASharedSubplanStops(int workers) {
        // A billion rows: the cancel, sent at once, comes while the subplan runs. With 0 workers submit
        // runs the query before it returns, so its timeout cancels it.
        Plan big = Plan.series("x", 1, 1_000_000_000L).aggregate(List.of(), count().as("n")).share("big");
        Plan plan = big.as("a").join(big.as("b"), JoinType.INNER, col("a.n").eq(col("b.n")));
        RunningQuery running = aeron.submit(plan, QueryOptions.defaults().withWorkers(workers)
                .withTimeout(workers == 0 ? java.time.Duration.ofMillis(50) : null));
        running.cancel("test");
        assertThrows(QueryCancelledException.class, running::await);
        assertEquals(0, aeron.openChannels());
        assertEquals(0, aeron.liveWorkers());
        assertEquals(0, aeron.memoryArena().inUseBytes());
    }

    @ParameterizedTest(name = "workers {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 2})
    @Timeout(120)
    void aStreamedQueryReadsTheSubplanOnce(int workers) throws Exception {
        Plan w = perKey();
        Plan plan = w.as("a").join(w.as("b"), JoinType.INNER, col("a.k").eq(col("b.k"))).project(col("a.k"), col("b.n"));
        try (QueryStream stream = locked.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
            assertEquals(duckRows(PER_KEY_SQL + "SELECT a.k, b.n FROM w a JOIN w b ON a.k = b.k"),
                    rows(stream.remaining().rows()));
        }
    }

    // ------------------------------------------------------------------ comparing rows

    private static List<String> duckRows(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= n; c++) {
                    row.add(rs.getObject(c));
                }
                rows.add(row);
            }
        }
        return rows(rows);
    }

    /** Rows as sorted text, numbers of any Java type spelled alike. */
    private static List<String> rows(List<List<Object>> rows) {
        List<String> text = new ArrayList<>();
        for (List<Object> row : rows) {
            StringBuilder sb = new StringBuilder();
            for (Object v : row) {
                sb.append(v == null ? "NULL" : v instanceof Number
                        ? new BigDecimal(v.toString()).stripTrailingZeros().toPlainString() : v.toString()).append('|');
            }
            text.add(sb.toString());
        }
        text.sort(null);
        return text;
    }
}
