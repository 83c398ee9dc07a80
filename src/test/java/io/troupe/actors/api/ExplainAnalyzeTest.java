package io.troupe.actors.api;

import io.troupe.operators.exec.ExecutionProbe;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.Counts;
import io.troupe.operators.profile.NodeProfile;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EXPLAIN ANALYZE: every node's rows are the rows its subplan really has (the subplan run on its
 * own, by the leader alone, or DuckDB's count), the workers' rows add up to the node's, workers
 * planned and launched are what the query asked for, the text is PostgreSQL's shape, and a failing
 * query fails with its cause and leaves nothing behind.
 */
class ExplainAnalyzeTest {

    private Troupe troupe;

    @BeforeEach
    void start() {
        // The profiles of the plans as written: each test's join shape is the one it checks.
        troupe = FactsAndDims.start(FactsAndDims.settings().withOptimizePlans(false));
    }

    @AfterEach
    void close() {
        troupe.close();
    }

    /** Plans without a limit: every node's rows are its subplan's rows. */
    static List<Plan> exactPlans() {
        List<Plan> plans = new ArrayList<>();
        plans.add(Plan.scan("facts").filter(col("k").gt(lit(10))).project(col("id"), col("v").times(lit(2.0)).as("w")));
        plans.add(Plan.scan("facts").aggregate(List.of(col("k")), Expr.count().as("count"), Expr.sum(col("v"))).having(col("count").gt(lit(90L))));
        for (JoinType type : JoinType.values()) {
            plans.add(Plan.scan("facts").as("f").join(Plan.scan("dims").filter(col("k").lt(lit(40))), type,
                    col("f.k").eq(col("dims.k"))));
        }
        plans.add(Plan.scan("facts").unionAll(Plan.scan("facts").filter(col("k").lt(lit(5)))).aggregate(List.of(), Expr.count()));
        plans.add(Plan.scan("facts").project(col("s")).distinct());
        // count(DISTINCT) runs in steps inside its node: their rows are neither its input nor its output.
        plans.add(Plan.scan("facts").aggregate(List.of(col("k")), Expr.countDistinct(col("s"))));
        plans.add(Plan.scan("facts").aggregate(List.of(col("k")), Expr.count(), Expr.countDistinct(col("s")),
                Expr.sum(col("v")), Expr.countDistinct(col("v"))));
        plans.add(Plan.scan("facts").filter(col("k").eq(lit(3))).sort(col("v").desc()));
        return plans;
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    @Timeout(120)
    void everyNodeCountsTheRowsItsSubplanHas(int workers) {
        for (Plan plan : exactPlans()) {
            QueryProfile profile = troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(workers));
            String text = profile.render();
            assertEquals(workers, profile.workersPlanned(), text);
            assertEquals(workers, profile.workersLaunched(), text);
            assertEquals(troupe.execute(plan, QueryOptions.defaults().withWorkers(0)).rowCount(),
                    profile.result().rowCount(), text);
            NodeProfile top = profile.root();
            if (workers > 0) {
                assertEquals(NodeProfile.Kind.GATHER, top.kind(), text);
                assertEquals(profile.result().rowCount(), top.rows(), text);
                top = top.children().get(0);
            }
            assertEquals(plan.label(), top.label(), text);
            for (NodeProfile node : profile.nodes()) {
                checkAgainstSubplan(node, text);
                checkParticipantsAddUp(node, workers, text);
            }
        }
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
    }

    private void checkAgainstSubplan(NodeProfile node, String text) {
        if (node.kind() == NodeProfile.Kind.GATHER) {
            return;
        }
        Plan input = node.kind() == NodeProfile.Kind.HASH ? node.children().get(0).node() : node.node();
        long expected = count(input);
        assertEquals(expected, node.rows(), () -> node.label() + "\n" + text);
        if (node.kind() == NodeProfile.Kind.HASH) {
            assertEquals(expected, node.rowsIn(), () -> node.label() + "\n" + text);
        }
        if (node.breaker()) {
            assertEquals(count(node.node().children().get(0)), node.rowsIn(), () -> node.label() + "\n" + text);
        }
        assertTrue(node.nanos() >= 0, text);
    }

    private long count(Plan plan) {
        return troupe.execute(plan, QueryOptions.defaults().withWorkers(0)).rowCount();
    }

    private static void checkParticipantsAddUp(NodeProfile node, int workers, String text) {
        if (!node.timed()) {
            assertTrue(node.participants().isEmpty(), text);
            return;
        }
        Counts sum = new Counts(0, 0, 0, 0, 0);
        for (Counts c : node.participants().values()) {
            sum = new Counts(sum.rows() + c.rows(), sum.batches() + c.batches(), sum.rowsIn() + c.rowsIn(),
                    sum.batchesIn() + c.batchesIn(), sum.nanos() + c.nanos());
        }
        assertEquals(node.rows(), sum.rows(), () -> node.label() + "\n" + text);
        assertEquals(node.batches(), sum.batches(), () -> node.label() + "\n" + text);
        assertEquals(node.rowsIn(), sum.rowsIn(), () -> node.label() + "\n" + text);
        assertEquals(node.total().batchesIn(), sum.batchesIn(), () -> node.label() + "\n" + text);
        // A finalize runs on no participant's time, so the total may only be larger.
        assertTrue(node.nanos() >= sum.nanos(), () -> node.label() + "\n" + text);
        for (int participant : node.participants().keySet()) {
            if (workers == 0) {
                assertEquals(ExecutionProbe.LEADER, participant, text);
            } else {
                assertTrue(participant == ExecutionProbe.LEADER || participant >= 0 && participant < workers, text);
            }
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void aLimitStopsItsInputAndATopNCountsAsItsSort(int workers) {
        QueryProfile limit = troupe.explainAnalyze(Plan.scan("facts").filter(col("k").gt(lit(0))).limit(100),
                QueryOptions.defaults().withWorkers(workers));
        assertEquals(100, limit.result().rowCount());
        assertEquals(100, limit.find("Limit").rows(), limit.render());
        assertTrue(limit.find("Filter").rows() >= 100, limit.render());

        QueryProfile topN = troupe.explainAnalyze(Plan.scan("facts").sort(col("v").desc()).limit(10, 5),
                QueryOptions.defaults().withWorkers(workers));
        String text = topN.render();
        assertEquals(10, topN.find("Limit").rows(), text);
        assertFalse(topN.find("Limit").timed(), text);
        NodeProfile sort = topN.find("Sort");
        assertTrue(sort.breaker(), text);
        assertEquals(10, sort.rows(), text);
        assertEquals(5000, sort.rowsIn(), text);
        assertEquals(5000, topN.find("Scan facts").rows(), text);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(60)
    void anOrderByAtTheTopProfilesItsGatherMerge(int workers) {
        Plan sorted = Plan.scan("facts").filter(col("k").gt(lit(10))).sort(col("v").desc());
        Plan plan = sorted.project(col("id"), col("v").times(lit(2.0)).as("w")).limit(100);
        QueryProfile profile = troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(workers));
        String text = profile.render();
        assertEquals(troupe.execute(plan, QueryOptions.defaults().withWorkers(0)).rows(), profile.result().rows(), text);
        assertEquals(workers, profile.workersLaunched(), text);
        // As PostgreSQL draws it: the nodes above the sort, then the Gather Merge over the Sort.
        List<String> lines = text.lines().map(ExplainAnalyzeTest::mask).toList();
        int at = 0;
        while (at < lines.size() && !lines.get(at).contains("->  Gather Merge")) {
            at++;
        }
        assertTrue(at < lines.size() - 3, text);
        assertTrue(lines.get(at).matches(" {12}->  Gather Merge \\(actual rows=\\d+ batches=\\d+ rows in=\\d+ "
                + "batches in=\\d+ time=T\\)"), text);
        assertEquals(" ".repeat(18) + "Workers Planned: " + workers, lines.get(at + 1), text);
        assertEquals(" ".repeat(18) + "Workers Launched: " + workers, lines.get(at + 2), text);

        long filtered = count(sorted.children().get(0));
        NodeProfile merge = profile.find("Gather Merge");
        assertEquals(NodeProfile.Kind.GATHER, merge.kind(), text);
        assertEquals("Limit 100", profile.root().label(), text);
        assertEquals(merge, profile.find("Project").children().get(0), text);
        assertEquals(profile.find("Sort"), merge.children().get(0), text);
        // Every worker streams its whole run: the merge drains what the limit no longer wants.
        assertEquals(filtered, merge.rowsIn(), text);
        assertEquals(workers, merge.participants().keySet().stream().filter(p -> p != ExecutionProbe.LEADER).count(), text);
        for (int p = 0; p < workers; p++) {
            assertEquals(0, merge.participants().get(p).rows(), text);
        }

        // Above the sort: run once, in the Gather Merge, by the leader.
        NodeProfile limit = profile.find("Limit");
        NodeProfile project = profile.find("Project");
        NodeProfile sort = profile.find("Sort");
        assertEquals(100, limit.rows(), text);
        assertTrue(project.rows() >= 100 && project.rows() <= filtered, text);
        for (NodeProfile above : List.of(limit, project)) {
            assertTrue(above.timed(), text);
            assertEquals(List.of(ExecutionProbe.LEADER), List.copyOf(above.participants().keySet()), text);
        }
        // The sort: its rows in by worker, its rows out the merge's (the leader's), what the project got.
        assertTrue(sort.breaker(), text);
        assertEquals(filtered, sort.rowsIn(), text);
        assertEquals(project.rows(), sort.rows(), text);
        // What the merge pushed on: the sort's output, at least what the limit kept.
        assertEquals(sort.rows(), merge.rows(), text);
        assertTrue(merge.rows() >= 100, text);
        assertEquals(sort.rows(), sort.participants().get(ExecutionProbe.LEADER).rows(), text);
        assertEquals(filtered, profile.find("Filter").rows(), text);
        assertEquals(5000, profile.find("Scan facts").rows(), text);
        for (NodeProfile node : profile.nodes()) {
            checkParticipantsAddUp(node, workers, text);
        }
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
    }

    @Test
    @Timeout(60)
    void theJoinOfTwoSeriesCountsWhatDuckDbCounts() throws SQLException {
        int n = 20_000;
        Plan plan = Plan.series("a", 1, n).join(Plan.series("b", 1, n).filter(col("b").mod(lit(3L)).eq(lit(0L))),
                JoinType.INNER, col("a").eq(col("b"))).aggregate(List.of(), Expr.count().as("count"));
        QueryProfile profile = troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(2));
        String text = profile.render();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            assertEquals(duckCount(s, "select count(*) from range(1, " + (n + 1) + ") t(b) where b % 3 = 0"),
                    line(profile, "Hash").rows(), text);
            assertEquals(duckCount(s, "select count(*) from range(1, " + (n + 1) + ") a(a) join range(1, " + (n + 1)
                    + ") b(b) on a = b where b % 3 = 0"), profile.find("Hash Join").rows(), text);
        }
        assertEquals(n, profile.find("Series a").rows(), text);
        assertEquals(n, profile.find("Series b").rows(), text);
        assertEquals(profile.find("Hash Join").rows(), profile.find("Hash Aggregate").rowsIn(), text);
        assertEquals(1, profile.find("Hash Aggregate").rows(), text);
    }

    /** The first line labelled exactly {@code label}. */
    private static NodeProfile line(QueryProfile profile, String label) {
        return profile.nodes().stream().filter(n -> n.label().equals(label)).findFirst().orElseThrow();
    }

    private static long duckCount(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    @Timeout(60)
    void rendersThePlanAsPostgresDoes() {
        Plan plan = Plan.series("x", 1, 1000).filter(col("x").mod(lit(2L)).eq(lit(0L)))
                .join(Plan.scan("dims"), JoinType.INNER, col("x").eq(col("dims.k").cast(DataType.INT64)))
                .aggregate(List.of(), Expr.count().as("count"));
        String leader = mask(troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(0)).render());
        assertEquals(""
                + "Hash Aggregate count(*) AS count (actual rows=1 batches=1 rows in=29 batches in=1 time=T)\n"
                + "  Memory: peak=M\n"
                + "      ->  Hash Join INNER on (x = CAST(dims.k AS INT64)) (actual rows=29 batches=1 time=T)\n"
                + "            ->  Filter ((x % 2) = 0) (actual rows=500 batches=16 time=T)\n"
                + "                  ->  Series x = generate_series(1, 1000) (actual rows=1000 batches=16 time=T)\n"
                + "            ->  Hash (actual rows=30 batches=5 time=T)\n"
                + "                  Memory: peak=M\n"
                + "                  ->  Scan dims (actual rows=30 batches=5 time=T)\n"
                + "Execution Time: T\n", leader);

        QueryProfile parallel = troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(2));
        List<String> lines = parallel.render().lines().map(ExplainAnalyzeTest::mask).toList();
        assertEquals(List.of("Gather (actual rows=1 batches=1 time=T)", "  Workers Planned: 2",
                "  Workers Launched: 2"), lines.subList(0, 3), parallel.render());
        assertTrue(lines.get(3).startsWith("  Worker 0: ") || lines.get(3).startsWith("  Leader: "), parallel.render());
        // How many batches the probe emits depends on how the morsels fell between the workers.
        assertTrue(lines.stream().anyMatch(l -> l.matches(
                " {6}->  Hash Aggregate count\\(\\*\\) AS count \\(actual rows=1 batches=1 rows in=29 batches in=\\d+ time=T\\)")),
                parallel.render());
        assertTrue(lines.stream().anyMatch(l -> l.matches(
                " {12}Worker [01]: rows=\\d+ batches=\\d+ rows in=\\d+ batches in=\\d+ time=T")), parallel.render());
        assertTrue(lines.contains("                  ->  Hash (actual rows=30 batches=5 time=T)"), parallel.render());
        assertTrue(lines.stream().anyMatch(l -> l.matches(" {24}Worker [01]: rows=\\d+ batches=\\d+ time=T")),
                parallel.render());
        assertTrue(lines.get(lines.size() - 1).equals("Execution Time: T"), parallel.render());
    }

    private static String mask(String text) {
        return text.replaceAll("\\d+\\.\\d{3} ms", "T").replaceAll("peak=\\d+kB", "peak=M");
    }

    /**
     * The Hash line shows what the join's table held at its peak: at least its chunks' entries (one
     * arena chunk per build worker that got rows) and never more than the query's own peak; lines of
     * nodes that keep nothing show none; a kept subplan shows what it kept.
     */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void eachNodeShowsThePeakMemoryOfWhatItKeeps(int workers) {
        Plan plan = Plan.scan("facts").filter(col("k").gt(lit(3)))
                .join(Plan.scan("dims"), JoinType.INNER, col("facts.k").eq(col("dims.k")));
        QueryProfile profile = troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(workers));
        NodeProfile hash = profile.nodes().stream().filter(n -> n.kind() == NodeProfile.Kind.HASH).findFirst().orElseThrow();
        long chunk = troupe.settings().memory().chunkBytes();
        assertTrue(hash.memory().peakBytes() >= chunk, profile.render());
        assertEquals(0, hash.memory().spilledBytes(), profile.render());
        assertTrue(profile.render().contains("Memory: peak=" + (hash.memory().peakBytes() + 1023) / 1024 + "kB\n"),
                profile.render());
        for (NodeProfile node : profile.nodes()) {
            if (node.kind() == NodeProfile.Kind.PLAN && !node.breaker()) {
                assertEquals(NodeProfile.Memory.NONE, node.memory(), node.label() + " keeps nothing: " + profile.render());
            }
        }
        Plan shared = Plan.scan("dims").filter(col("k").lt(lit(20))).share("w");
        QueryProfile cte = troupe.explainAnalyze(shared.as("a").unionAll(shared.as("b")),
                QueryOptions.defaults().withWorkers(workers));
        NodeProfile kept = cte.nodes().stream().filter(n -> n.label().startsWith("CTE w")).findFirst().orElseThrow();
        assertTrue(kept.memory().peakBytes() > 0, cte.render());
        assertEquals(0, troupe.memoryArena().inUseBytes());
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void aFailingQueryFailsWithItsCauseAndLeavesNothingBehind(int workers) {
        // The probe fails after the build took hash memory.
        Plan plan = Plan.scan("facts").join(Plan.scan("dims"), JoinType.INNER, col("facts.k").eq(col("dims.k")))
                .project(col("id").div(col("facts.k").minus(col("facts.k"))).as("q"));
        QueryFailedException e = assertThrows(QueryFailedException.class,
                () -> troupe.explainAnalyze(plan, QueryOptions.defaults().withWorkers(workers)));
        assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
        assertEquals(0, troupe.memoryArena().inUseBytes());
        assertEquals(5000, troupe.explainAnalyze(Plan.scan("facts"), QueryOptions.defaults().withWorkers(workers))
                .result().rowCount());
    }
}
