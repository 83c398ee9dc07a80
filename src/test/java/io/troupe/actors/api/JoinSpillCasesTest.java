package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.NodeProfile;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The spilling hash join in the cases of DuckDB's join_hash tests and around them, against DuckDB:
 * W1 (a self join of a series) at 1/4 and 1/20 of its memory; joins one above the other and under a
 * UNION ALL, both spilling (the partitions of the lower feed the probers of the upper); EXPLAIN
 * ANALYZE's spilled bytes; a build side of one key repeated (the skew guard: it fits after all, or
 * the query fails naming the partition and the budget); empty sides; a LIMIT over spilled
 * partitions; a cancel, a timeout and a failure in the middle of spilling, and spilling switched
 * off. Each leaves no spill file, no memory and no worker behind.
 */
class JoinSpillCasesTest {

    private static final int[] WORKERS = {0, 1, 2, 4};

    @TempDir
    static Path spillDirectory;
    private static DuckDbOracle duck;
    private static List<Table> tables;
    private static Troupe unlimited;

    @BeforeAll
    static void load() throws Exception {
        tables = new ArrayList<>(JoinSpillTest.tables(20_000, 16_000, new Random(20_251_204)));
        tables.add(oneKeyRepeated(3_000, 6_000));
        tables.add(new TableBuilder("nothing", JoinSpillTest.PROBE_SCHEMA).build());
        duck = new DuckDbOracle();
        duck.load(tables);
        unlimited = start(Long.MAX_VALUE / 4, JoinSpillTest.CHUNK, true);
    }

    @AfterAll
    static void close() throws Exception {
        if (unlimited != null) {
            unlimited.close();
        }
        if (duck != null) {
            duck.close();
        }
    }

    /** A build side: {@code repeated} rows of key 42, then {@code others} of keys 1000.. (one each). */
    private static Table oneKeyRepeated(int repeated, int others) {
        TableBuilder one = new TableBuilder("one", Schema.of(Field.of("id", DataType.INT64), Field.of("k", DataType.INT32),
                Field.of("pay", DataType.VARCHAR)), 500);
        for (int id = 0; id < repeated + others; id++) {
            one.addRow((long) id, id < repeated ? 42 : 1000 + id - repeated, "row " + id + " of the build side");
        }
        return one.build();
    }

    private static Troupe start(long budget, int chunk, boolean spill) {
        return start(budget, chunk, new TroupeSettings.Spill(spill, spillDirectory.toString(), 1L << 34));
    }

    /** Plans as written: each case spills the build side it names. */
    private static Troupe start(long budget, int chunk, TroupeSettings.Spill spill) {
        Troupe troupe = Troupe.start(TroupeSettings.load().withBatchSize(512).withOptimizePlans(false)
                .withMemory(new TroupeSettings.Memory(chunk, 0, budget)).withSpill(spill));
        tables.forEach(troupe::register);
        return troupe;
    }

    @Test
    @Timeout(600)
    void w1AtAQuarterAndATwentiethOfItsMemoryCountsAsDuckDb() throws Exception {
        int n = 600_000;
        Plan w1 = Plan.series("i", 1, n).as("t1").join(Plan.series("i", 1, n).as("t2"), JoinType.INNER,
                col("t1.i").eq(col("t2.i"))).aggregate(List.of(), Expr.count());
        long expected = ((Number) duck.query("SELECT count(*) FROM range(1, " + (n + 1) + ") t1(i) JOIN range(1, "
                + (n + 1) + ") t2(i) USING (i)").rows().get(0).get(0)).longValue();
        int chunk = TroupeSettings.load().memory().chunkBytes();
        long need;
        try (Troupe troupe = start(Long.MAX_VALUE / 4, chunk, true)) {
            need = JoinSpillTest.inMemoryNeed(troupe, w1);
        }
        for (int divisor : new int[] {4, 20}) {
            try (Troupe troupe = start(need / divisor, chunk, true)) {
                for (int workers : WORKERS) {
                    String run = "W1 at 1/" + divisor + " of " + need + " bytes, " + workers + " workers";
                    QueryProfile profile = troupe.explainAnalyze(w1, QueryOptions.defaults().withWorkers(workers));
                    assertEquals(expected, profile.result().rows().get(0).get(0), run);
                    assertTrue(JoinSpillTest.hashLine(profile).memory().spilledBytes() > 0, run + ": " + profile.render());
                    JoinSpillTest.assertNothingLeft(troupe, run);
                }
            }
        }
    }

    /**
     * A FULL join above an INNER join, both over the budget: the upper join's probers include every
     * participant's share of the lower join's partitions, and its own partitions come after them.
     * EXPLAIN ANALYZE shows each Hash line's spilled bytes.
     */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    @Timeout(300)
    void joinsOneAboveTheOtherBothSpill(int workers) throws Exception {
        Plan plan = Plan.scan("p").join(Plan.scan("b"), JoinType.INNER, col("p.ki").eq(col("b.ki")))
                .join(Plan.scan("b").as("c"), JoinType.FULL, col("b.id").eq(col("c.id").minus(Expr.lit(7L))))
                .aggregate(List.of(), Expr.count(), Expr.count(col("p.id")), Expr.count(col("c.id")),
                        Expr.sum(col("p.id")), Expr.sum(col("c.id")), Expr.sum(col("b.id").times(col("c.id"))));
        String sql = "SELECT count(*), count(p.id), count(c.id), sum(p.id), sum(c.id), sum(b.id * c.id) FROM p "
                + "JOIN b ON p.ki = b.ki FULL JOIN b c ON b.id = c.id - 7";
        long need = JoinSpillTest.inMemoryNeed(unlimited, plan);
        try (Troupe troupe = start(need / 4, JoinSpillTest.CHUNK, true)) {
            QueryProfile profile = troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(workers));
            assertNull(ResultComparator.compare(duck.query(sql).rows(),
                    DuckDbOracle.normalise(profile.result().rows()), false), profile.render());
            List<NodeProfile> hashes = profile.nodes().stream().filter(n -> n.kind() == NodeProfile.Kind.HASH).toList();
            assertEquals(2, hashes.size(), profile.render());
            for (NodeProfile hash : hashes) {
                assertTrue(hash.memory().spilledBytes() > 0, "a join did not spill: " + profile.render());
            }
            assertTrue(profile.render().contains(" spilled="), profile.render());
            JoinSpillTest.assertNothingLeft(troupe, workers + " workers");
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    @Timeout(300)
    void spilledJoinsUnderAUnionAll(int workers) throws Exception {
        Plan plan = Plan.scan("p").join(Plan.scan("b"), JoinType.LEFT, col("p.kl").eq(col("b.kl")))
                .project(col("p.id"), col("b.pay"))
                .unionAll(Plan.scan("p").join(Plan.scan("b"), JoinType.RIGHT, col("p.ks").eq(col("b.ks")))
                        .project(col("p.id"), col("b.pay")));
        String sql = "SELECT p.id, b.pay FROM p LEFT JOIN b ON p.kl = b.kl UNION ALL "
                + "SELECT p.id, b.pay FROM p RIGHT JOIN b ON p.ks = b.ks";
        checkSpilled(plan, sql, workers, JoinSpillTest.inMemoryNeed(unlimited, plan) / 4);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    @Timeout(300)
    void emptySidesOfSpilledJoins(int workers) throws Exception {
        for (JoinType type : List.of(JoinType.INNER, JoinType.RIGHT, JoinType.FULL, JoinType.ANTI)) {
            // An empty probe side: the build spills, and only RIGHT and FULL emit its rows.
            Plan probeless = Plan.scan("nothing").as("p").join(Plan.scan("b"), type, col("p.ki").eq(col("b.ki")));
            Plan plan = type.emitsRight() ? probeless.project(col("b.id"), col("b.pay")) : probeless.project(col("p.id"));
            checkSpilled(plan, "SELECT " + (type.emitsRight() ? "b.id, b.pay" : "p.id") + " FROM nothing p "
                    + JoinSpillTest.sqlJoin(type) + " b ON p.ki = b.ki", workers,
                    JoinSpillTest.inMemoryNeed(unlimited, plan) / 20);
        }
        for (JoinType type : List.of(JoinType.INNER, JoinType.LEFT, JoinType.FULL, JoinType.ANTI)) {
            // An empty build side never spills; the probe side still gets its unmatched rows.
            Plan buildless = Plan.scan("p").join(Plan.scan("nothing").as("b"), type, col("p.ki").eq(col("b.ki")))
                    .project(col("p.id"), col("p.ki"));
            List<List<Object>> expected = duck.query("SELECT p.id, p.ki FROM p " + JoinSpillTest.sqlJoin(type)
                    + " nothing b ON p.ki = b.ki").rows();
            try (Troupe troupe = start(100_000, JoinSpillTest.CHUNK, true)) {
                List<List<Object>> rows = JoinSpillTest.stream(troupe, buildless, workers);
                assertNull(ResultComparator.compare(expected, DuckDbOracle.normalise(rows), false), type.toString());
                JoinSpillTest.assertNothingLeft(troupe, type + " with an empty build side");
            }
        }
    }

    /**
     * A key repeated on the build side: its rows cannot be split. When they are a third of the build
     * side, a budget that holds them but not the build side joins them after all (the build spills,
     * and their partition fits); when they are all of it, and the budget does not hold them, the
     * query fails with an error that names the partition, why it cannot be split, and the budget.
     * Never a wrong answer or a hang.
     */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    @Timeout(300)
    void aKeyRepeatedOnTheBuildSideFitsOrFailsClearly(int workers) throws Exception {
        Plan onlyTheKey = Plan.scan("b").join(Plan.scan("one").filter(col("one.k").eq(Expr.lit(42))), JoinType.RIGHT,
                col("b.ki").eq(col("one.k"))).project(col("b.id"), col("one.id"), col("one.pay"));
        long keyNeed = JoinSpillTest.inMemoryNeed(unlimited, onlyTheKey);
        Plan plan = Plan.scan("b").join(Plan.scan("one"), JoinType.RIGHT, col("b.ki").eq(col("one.k")))
                .project(col("b.id"), col("one.id"), col("one.pay"));
        checkSpilled(plan, "SELECT b.id, one.id, one.pay FROM b RIGHT JOIN one ON b.ki = one.k", workers,
                keyNeed * 3 / 2);
        try (Troupe troupe = start(keyNeed / 4, JoinSpillTest.CHUNK, true)) {
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> JoinSpillTest.stream(troupe, onlyTheKey, workers));
            assertTrue(e.getMessage().startsWith("Hash Join RIGHT on (b.ki = one.k) partition "), e.getMessage());
            assertTrue(e.getMessage().contains(" cannot be split any further (its 3000 build rows all have one key hash)"
                    + " and must fit at once: query "), e.getMessage());
            assertTrue(e.getMessage().contains("over troupe.memory.budget = " + keyNeed / 4 + " bytes"), e.getMessage());
            JoinSpillTest.assertNothingLeft(troupe, "fails");
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    @Timeout(300)
    void aLimitAboveSpilledPartitionsStopsEarly(int workers) throws Exception {
        Plan plan = Plan.scan("p").join(Plan.scan("b"), JoinType.FULL, col("p.ki").eq(col("b.ki"))).limit(100);
        long need = JoinSpillTest.inMemoryNeed(unlimited, plan);
        try (Troupe troupe = start(need / 4, JoinSpillTest.CHUNK, true)) {
            long before = troupe.spillSpace().writtenBytes();
            assertEquals(100, JoinSpillTest.stream(troupe, plan, workers).size());
            assertTrue(troupe.spillSpace().writtenBytes() > before, "nothing spilled");
            JoinSpillTest.assertNothingLeft(troupe, "limit");
        }
    }

    /** A spill file cap passed in the middle of spilling fails the query, which leaves nothing behind. */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    @Timeout(300)
    void aFailureInTheMiddleOfSpillingLeavesNothing(int workers) {
        Plan plan = JoinSpillTest.plan(JoinType.FULL, JoinSpillTest.Keys.VARCHAR);
        long need = JoinSpillTest.inMemoryNeed(unlimited, plan);
        try (Troupe troupe = start(need / 4, JoinSpillTest.CHUNK,
                new TroupeSettings.Spill(true, spillDirectory.toString(), 300_000))) {
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> JoinSpillTest.stream(troupe, plan, workers));
            assertTrue(e.getMessage().contains("over troupe.spill.max-size = 300000 bytes"), e.getMessage());
            assertTrue(troupe.spillSpace().writtenBytes() > 0, "the query failed before it spilled");
            JoinSpillTest.assertNothingLeft(troupe, "failed");
        }
    }

    /** A cancel (workers) or a timeout (the leader alone) once the join has spilled leaves nothing behind. */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2, 4})
    @Timeout(300)
    void aCancelInTheMiddleOfSpillingLeavesNothing(int workers) throws Exception {
        int n = 2_000_000;
        Plan plan = Plan.series("i", 1, n).as("t1").join(Plan.series("i", 1, n).as("t2"), JoinType.FULL,
                col("t1.i").eq(col("t2.i"))).aggregate(List.of(), Expr.count());
        try (Troupe troupe = start(2_000_000, TroupeSettings.load().memory().chunkBytes(), true)) {
            if (workers == 0) {
                QueryCancelledException e = assertThrows(QueryCancelledException.class,
                        () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(0).withTimeout(Duration.ofMillis(400))));
                assertTrue(e.getMessage().contains("timed out after 400 ms"), e.getMessage());
            } else {
                RunningQuery running = troupe.submit(plan, QueryOptions.defaults().withWorkers(workers));
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (troupe.spillSpace().writtenBytes() == 0 && !running.result().isDone()
                        && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                running.cancel("test");
                assertThrows(QueryCancelledException.class, running::await);
            }
            assertTrue(troupe.spillSpace().writtenBytes() > 0, "cancelled before it spilled");
            JoinSpillTest.assertNothingLeft(troupe, "cancelled");
        }
    }

    /** With spilling off, a join over the budget fails with the budget's error, as before spilling. */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(120)
    void withSpillingOffTheBudgetFailsTheQuery(int workers) {
        Plan plan = JoinSpillTest.plan(JoinType.INNER, JoinSpillTest.Keys.INT);
        long need = JoinSpillTest.inMemoryNeed(unlimited, plan);
        try (Troupe troupe = start(need / 4, JoinSpillTest.CHUNK, false)) {
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> JoinSpillTest.stream(troupe, plan, workers));
            assertTrue(e.getMessage().matches("query \\d+: hash join Hash Join INNER on \\(p.ki = b.ki\\) asked for \\d+ "
                    + "bytes, over troupe.memory.budget = " + need / 4 + " bytes .*"), e.getMessage());
            assertEquals(0, troupe.spillSpace().writtenBytes());
            JoinSpillTest.assertNothingLeft(troupe, "spilling off");
        }
    }

    /** Streams {@code plan} under a budget of {@code budget} bytes: DuckDB's rows, spilled, nothing left. */
    private static void checkSpilled(Plan plan, String sql, int workers, long budget) throws Exception {
        try (Troupe troupe = start(budget, JoinSpillTest.CHUNK, true)) {
            long before = troupe.spillSpace().writtenBytes();
            List<List<Object>> rows = JoinSpillTest.stream(troupe, plan, workers);
            assertNull(ResultComparator.compare(duck.query(sql).rows(), DuckDbOracle.normalise(rows), false), sql);
            assertTrue(troupe.spillSpace().writtenBytes() > before, sql + ": nothing spilled");
            JoinSpillTest.assertNothingLeft(troupe, sql);
        }
    }
}
