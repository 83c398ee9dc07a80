package io.troupe.operators.fragment;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.exec.Source;
import io.troupe.operators.fragment.SpreadPlan.Placement;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where a spread query's pipelines run and how the rows entering their sinks move between nodes
 * ({@link SpreadPlan}), for each plan shape it has a rule for; and for every shape and 1 to 4 nodes, that
 * the two ends agree: a node sends a pipeline's rows to exactly the nodes that expect them from it, and
 * reads its share of every base input exactly where the pipeline runs on every node.
 */
class SpreadPlanTest {

    private static final Catalog CATALOG = new Catalog();
    private static final Plan FACTS = Plan.scan("facts");
    private static final Plan DIMS = Plan.series("y", 1, 100);

    static {
        TableBuilder facts = new TableBuilder("facts", Schema.of(Field.of("x", DataType.INT64),
                Field.of("v", DataType.FLOAT64)), 7);
        for (long i = 0; i < 50; i++) {
            facts.addRow(i, i * 0.5);
        }
        CATALOG.register(facts.build());
    }

    private static final Expr GROUP = col("x").mod(lit(7L)).as("k");

    @Test
    void aScanRunsOnEveryNodeAndGathersItsRows() {
        Spread s = spread(FACTS);
        assertEquals("pipeline 0 (collect): every node, Gather\n", s.plan.toString());
    }

    @Test
    void aJoinBroadcastsItsBuildSideAndProbesEverywhere() {
        Spread s = spread(FACTS.join(DIMS, JoinType.INNER, col("x").eq(col("y"))));
        assertEquals("pipeline 0 (hash-build): every node, Broadcast\npipeline 1 (collect): every node, Gather\n",
                s.plan.toString());
    }

    @Test
    void rightAndFullJoinsProbeOnTheCoordinatorOverTheGatheredBuild() {
        for (JoinType type : List.of(JoinType.RIGHT, JoinType.FULL)) {
            Spread s = spread(FACTS.join(DIMS, type, col("x").eq(col("y"))));
            // The build broadcast to the coordinator alone gathers: no other node would read it.
            assertEquals("pipeline 0 (hash-build): every node, Gather\npipeline 1 (collect): coordinator, Gather\n",
                    s.plan.toString(), type.toString());
        }
    }

    @Test
    void aLimitRunsOnTheCoordinatorOverAllOfItsInput() {
        assertEquals("pipeline 0 (collect): coordinator, Gather\n", spread(FACTS.limit(5)).plan.toString());
        // Over a grouped aggregate, the groups gather instead of repartitioning.
        Spread s = spread(FACTS.aggregate(List.of(GROUP), count().as("n")).limit(3));
        assertEquals("pipeline 0 (aggregate): every node, Gather\npipeline 1 (collect): coordinator, Gather\n",
                s.plan.toString());
    }

    @Test
    void aGlobalAggregateGathersAndItsReaderRunsOnTheCoordinator() {
        Spread s = spread(FACTS.aggregate(List.of(), count().as("n"), Expr.sum(col("v")).as("s")));
        assertEquals("pipeline 0 (aggregate): every node, Gather\npipeline 1 (collect): coordinator, Gather\n",
                s.plan.toString());
    }

    @Test
    void aGroupedAggregateRepartitionsByItsKeysAndIsReadEverywhere() {
        Spread s = spread(FACTS.aggregate(List.of(GROUP), count().as("n")));
        assertEquals("pipeline 0 (aggregate): every node, Repartition by hash ((x % 7))\n"
                + "pipeline 1 (collect): every node, Gather\n", s.plan.toString());
        assertInstanceOf(ExchangeKind.Repartition.class, s.plan.route(s.pipelines.get(0).id()));
    }

    @Test
    void aCountDistinctBesideAnotherAggregateTeesItsInputToTheCoordinator() {
        Spread s = spread(FACTS.aggregate(List.of(GROUP), count().as("n"),
                Expr.countDistinct(col("x").mod(lit(3L))).as("d")));
        // The tee feeds readers of different routes, so it gathers, and its readers run where it gathered.
        Pipeline tee = s.pipelines.stream().filter(p -> s.readers(p).size() > 1).findFirst().orElseThrow();
        assertInstanceOf(ExchangeKind.Gather.class, s.plan.route(tee.id()), s.plan.toString());
        for (Pipeline reader : s.readers(tee)) {
            assertEquals(Placement.COORDINATOR, s.plan.placement(reader.id()), s.plan.toString());
        }
    }

    @Test
    void aSharedSubplanStaysWhereItWasMadeUnlessTheCoordinatorReadsIt() {
        Plan shared = FACTS.filter(col("x").gt(lit(5L))).share("s");
        assertEquals("pipeline 0 (collect): every node, Forward\npipeline 1 (collect): every node, Gather\n",
                spread(shared.unionAll(shared.filter(col("x").lt(lit(9L))))).plan.toString());
        assertEquals("pipeline 0 (collect): every node, Gather\npipeline 1 (collect): coordinator, Gather\n",
                spread(shared.unionAll(shared.limit(3))).plan.toString());
    }

    @Test
    void aSortGathersAndOneWorkerReadsItsOrder() {
        for (Plan plan : List.of(FACTS.sort(col("x").desc()), FACTS.sort(col("x").desc()).limit(4),
                FACTS.sort(col("x").desc()).project(col("x").plus(lit(1L)).as("z")))) {
            Spread s = spread(plan);
            assertEquals("pipeline 0 (sort): every node, Gather\npipeline 1 (collect): coordinator, Gather\n",
                    s.plan.toString(), plan.toString());
            assertEquals(1, s.plan.workers(s.pipelines.get(1).id(), 4), "the sort's reader");
            assertEquals(4, s.plan.workers(s.pipelines.get(0).id(), 4), "the sort's input");
        }
    }

    @Test
    void everySenderAndItsReceiverAgreeOnEveryShapeAndNodeCount() {
        for (Plan plan : shapes()) {
            Spread s = spread(plan);
            for (int nodes = 1; nodes <= 4; nodes++) {
                for (Pipeline p : s.pipelines) {
                    assertEndsAgree(s.plan, p.id(), nodes, plan + "\n" + s.plan + nodes + " nodes, pipeline " + p.id());
                }
            }
        }
    }

    private static void assertEndsAgree(SpreadPlan plan, int pipeline, int nodes, String where) {
        ExchangeKind route = plan.route(pipeline);
        Set<List<Integer>> sent = new HashSet<>();
        Set<List<Integer>> expected = new HashSet<>();
        for (int n = 0; n < nodes; n++) {
            List<Integer> to = plan.destinations(pipeline, n, nodes);
            assertEquals(to.size(), new HashSet<>(to).size(), where + ": a destination twice");
            assertEquals(plan.runsOn(pipeline, n), !to.isEmpty(), where + ": node " + n + " sends iff it runs");
            if (plan.runsOn(pipeline, n)) {
                List<Integer> want = route instanceof ExchangeKind.Gather ? List.of(SpreadPlan.COORDINATOR)
                        : route instanceof ExchangeKind.Forward ? List.of(n)
                        : Stream.iterate(0, i -> i + 1).limit(nodes).toList();
                assertEquals(want, to, where + ": destinations of node " + n + " under " + route.label());
            }
            for (int d : to) {
                if (d != n) {
                    assertTrue(sent.add(List.of(n, d)), where);
                }
            }
            List<Integer> from = plan.sendersTo(pipeline, n, nodes);
            assertFalse(from.contains(n), where + ": node " + n + " sends to itself over a stream");
            for (int f : from) {
                assertTrue(expected.add(List.of(f, n)), where + ": sender " + f + " twice");
            }
            assertEquals(plan.runsOn(pipeline, n) || !from.isEmpty(), plan.involves(pipeline, n, nodes), where);
        }
        assertEquals(sent, expected, where + ": (sender, receiver) pairs seen from each end");
    }

    @Test
    void eachNodeReadsItsShareWhereThePipelineRunsEverywhereAndAllOnTheCoordinator() {
        for (Plan plan : shapes()) {
            Spread s = spread(plan);
            for (int nodes = 1; nodes <= 4; nodes++) {
                for (int n = 0; n < nodes; n++) {
                    Function<Source, ScanShare> shares = s.plan.shares(n, nodes);
                    for (Pipeline p : s.pipelines) {
                        ScanShare want = s.plan.placement(p.id()) == Placement.EVERY_NODE
                                ? new ScanShare(n, nodes) : ScanShare.WHOLE;
                        for (Pipeline.Branch b : p.branches()) {
                            assertEquals(want, shares.apply(b.source()), plan + "\n" + s.plan + "pipeline " + p.id());
                        }
                    }
                }
            }
        }
    }

    @Test
    void anUnknownPipelineIsNamed() {
        Spread s = spread(FACTS);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.plan.route(99));
        assertTrue(e.getMessage().contains("99"), e.getMessage());
    }

    private static List<Plan> shapes() {
        Plan shared = FACTS.filter(col("x").gt(lit(5L))).share("s");
        return List.of(FACTS, FACTS.join(DIMS, JoinType.INNER, col("x").eq(col("y"))),
                FACTS.join(DIMS, JoinType.RIGHT, col("x").eq(col("y"))),
                FACTS.join(DIMS, JoinType.FULL, col("x").eq(col("y"))), FACTS.limit(5),
                FACTS.aggregate(List.of(GROUP), count().as("n")).limit(3),
                FACTS.aggregate(List.of(), count().as("n")),
                FACTS.aggregate(List.of(GROUP), count().as("n")),
                FACTS.aggregate(List.of(GROUP), count().as("n"), Expr.countDistinct(col("x").mod(lit(3L))).as("d")),
                shared.unionAll(shared.limit(3)), shared.unionAll(shared.filter(col("x").lt(lit(9L)))),
                FACTS.sort(col("x").desc()).limit(4),
                FACTS.aggregate(List.of(GROUP), count().as("n")).join(FACTS, JoinType.INNER, col("k").eq(col("x")))
                        .aggregate(List.of(), count().as("c")));
    }

    /** A compiled plan's pipelines and its spread plan. */
    private record Spread(List<Pipeline> pipelines, SpreadPlan plan) {
        List<Pipeline> readers(Pipeline dependency) {
            return pipelines.stream().filter(p -> p.dependencies().contains(dependency)).toList();
        }
    }

    private static Spread spread(Plan plan) {
        PlanCompiler.CompiledQuery q = new PlanCompiler(CATALOG, TroupeSettings.load()).compile(plan);
        return new Spread(q.pipelines(), SpreadPlan.of(q.pipelines(), q.fragments()));
    }
}
