package io.troupe.operators.plan;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.LocalDate;
import java.time.Period;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java side of recursive unions and series ({@link Plan#recursiveUnion}, {@link Plan#series},
 * {@link Plan#range}): plan text that reads into the plan code builds, EXPLAIN's labels, the errors of a plan that
 * cannot be, a parameter inside the recursive term bound with the work table rebound to its union, and a recursive
 * union over a table joined in its recursive term, against DuckDB with the leader alone and with workers.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RecursivePlanTest {

    /** Parents: a chain 1 <- 2 <- ... <- 9 and a cycle 20 <- 21 <- 22 <- 20, NULL parents at the roots. */
    private static Table tree() {
        TableBuilder t = new TableBuilder("tree", Schema.of(new Field(null, "id", DataType.INT64, false),
                Field.of("parent", DataType.INT64)));
        t.addRow(1L, null);
        for (long id = 2; id <= 9; id++) {
            t.addRow(id, id - 1);
        }
        t.addRow(20L, 22L);
        t.addRow(21L, 20L);
        t.addRow(22L, 21L);
        t.addRow(30L, null);
        return t.build();
    }

    /** The descendants of {@code root} and their depths, each row once (UNION), as a plan. */
    private static Plan descendants(long root) {
        return Plan.scan("tree").filter(col("tree.id").eq(lit(root)))
                .project(col("tree.id").as("id"), lit(0L).as("depth"))
                .recursiveUnion("d", false, d -> d.join(Plan.scan("tree").as("c"), JoinType.INNER,
                                col("d.id").eq(col("c.parent")))
                        .filter(col("d.depth").lt(lit(5L)))
                        .project(col("c.id").as("id"), col("d.depth").plus(lit(1L)).as("depth")));
    }

    @Test
    void planTextReadsIntoThePlanThatCodeBuilds() {
        Plan text = PlanParser.parse("recursive d (scan tree | filter tree.id = 1 | project tree.id as id, 0 as depth)"
                + " (worktable d | join scan tree as c on d.id = c.parent | filter d.depth < 5"
                + " | project c.id as id, d.depth + 1 as depth)");
        Plan code = Plan.scan("tree").filter(col("tree.id").eq(lit(1)))
                .project(col("tree.id").as("id"), lit(0).as("depth"))
                .recursiveUnion("d", false, d -> d.join(Plan.scan("tree").as("c"), JoinType.INNER,
                                col("d.id").eq(col("c.parent")))
                        .filter(col("d.depth").lt(lit(5)))
                        .project(col("c.id").as("id"), col("d.depth").plus(lit(1)).as("depth")));
        PlanShapes.assertSamePlan(code, text);
        PlanShapes.assertSamePlan(Plan.range("x", lit(10L), lit(0L), lit(-3L)), PlanParser.parse("range x 10 0 by -3"));
        PlanShapes.assertSamePlan(Plan.series("m", lit(LocalDate.of(2024, 1, 31)), lit(LocalDate.of(2024, 6, 1)),
                Period.ofMonths(2)), PlanParser.parse("series m date '2024-01-31' date '2024-06-01' by 2 months"));
        PlanSyntaxException outside = assertThrows(PlanSyntaxException.class,
                () -> PlanParser.parse("recursive d (series x 1 2) (series x 1 2) | join worktable d on x = d.x"));
        assertTrue(outside.getMessage().contains("no work table d here"), outside.getMessage());
    }

    @Test
    void explainLabelsTheUnionItsWorkTableAndTheSeries() {
        Catalog catalog = catalog();
        String explain = descendants(1).explain(catalog);
        assertTrue(explain.startsWith("Recursive Union d (distinct rows)\n"), explain);
        assertTrue(explain.contains("->  WorkTable Scan on d\n"), explain);
        Plan aliased = Plan.series("x", 1, 3).recursiveUnion("r", true,
                r -> r.as("prev").filter(col("prev.x").lt(lit(5L))).project(col("prev.x").plus(lit(1L)).as("x")));
        assertTrue(aliased.explain(catalog).contains("WorkTable Scan on r AS prev"), aliased.explain(catalog));
        assertEquals("Series x = range(10, 0, -3)", Plan.range("x", lit(10L), lit(0L), lit(-3L)).label());
        assertEquals("Series m = generate_series(DATE '2024-01-31', DATE '2024-06-01', INTERVAL '2 months')",
                Plan.series("m", lit(LocalDate.of(2024, 1, 31)), lit(LocalDate.of(2024, 6, 1)), Period.ofMonths(2))
                        .label());
    }

    @Test
    void aPlanThatCannotBeFailsNamingWhy() {
        Catalog catalog = catalog();
        PlanException types = assertThrows(PlanException.class, () -> Plan.series("x", 1, 3)
                .recursiveUnion("r", true, r -> r.project(col("r.x").cast(DataType.INT32).as("x"))).validate(catalog));
        assertTrue(types.getMessage().contains("column 1 is INT64 (x) in the non-recursive term but INT32 (x) in the "
                + "recursive term"), types.getMessage());
        PlanException columns = assertThrows(PlanException.class, () -> Plan.series("x", 1, 3)
                .recursiveUnion("r", true, r -> r.project(col("r.x"), col("r.x").as("y"))).validate(catalog));
        assertTrue(columns.getMessage().contains("the non-recursive term has 1 columns and the recursive term 2"),
                columns.getMessage());
        Plan[] escaped = new Plan[1];
        Plan.series("x", 1, 3).recursiveUnion("r", true, r -> {
            escaped[0] = r;
            return r;
        });
        try (Troupe troupe = Troupe.start()) {
            PlanException outside = assertThrows(PlanException.class, () -> troupe.execute(escaped[0]));
            assertTrue(outside.getMessage().contains("a work table is read only inside the recursive term"),
                    outside.getMessage());
            PlanException dates = assertThrows(PlanException.class, () -> troupe.execute(Plan.series("x", lit(1L),
                    lit(5L), Period.ofDays(1))));
            assertTrue(dates.getMessage().contains("no generate_series(INT64, INT64, INTERVAL)"),
                    dates.getMessage());
        }
    }

    @Test
    void aParameterInTheRecursiveTermBindsAndTheWorkTableFollowsItsUnion() throws Exception {
        Plan counter = Plan.series("n", 1, 1).recursiveUnion("r", true, r -> r.filter(col("r.n").lt(
                new Parameter(1, DataType.INT64))).project(col("r.n").plus(lit(1L)).as("n")));
        try (Troupe troupe = Troupe.start()) {
            for (long stop : new long[] {1, 7, 300}) {
                Plan bound = counter.withParameters(List.of(new Literal(stop, DataType.INT64)));
                assertEquals(List.of(List.of(stop, stop * (stop + 1) / 2)), troupe.execute(bound.aggregate(List.of(),
                        count().as("c"), Expr.sum(col("n")).as("s")), QueryOptions.defaults().withWorkers(2)).rows());
            }
        }
    }

    @Test
    void aRecursiveUnionOverATableAnswersAsDuckDb() throws Exception {
        String sql = "WITH RECURSIVE d(id, depth) AS (SELECT id, CAST(0 AS BIGINT) FROM tree WHERE id = %d "
                + "UNION SELECT c.id, d.depth + 1 FROM d JOIN tree c ON d.id = c.parent WHERE d.depth < 5) "
                + "SELECT id, depth FROM d";
        try (DuckDbOracle duck = new DuckDbOracle();
             Troupe troupe = Troupe.start(TroupeSettings.load().withBatchSize(2))) {
            duck.load(List.of(tree()));
            troupe.register(tree());
            for (long root : new long[] {1, 3, 20, 30, 99}) {
                for (int workers : new int[] {0, 2}) {
                    String diff = ResultComparator.compare(duck.query(String.format(sql, root)).rows(),
                            DuckDbOracle.normalise(troupe.execute(descendants(root),
                                    QueryOptions.defaults().withWorkers(workers)).rows()), false);
                    assertNull(diff, "descendants of " + root + ", " + workers + " workers: " + diff);
                }
            }
        }
    }

    private static Catalog catalog() {
        Catalog catalog = new Catalog();
        catalog.register(tree());
        return catalog;
    }
}
