package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * EXPLAIN draws the exchanges that move batches where the plan put them, as PostgreSQL draws its
 * Gather and Gather Merge: a Gather over the whole plan, or a Gather Merge over the sort of an ORDER
 * BY at the top with the nodes that run after the merge above it, each with its workers planned; the
 * elided exchanges draw nothing, and with the leader alone there is no exchange line at all. It runs
 * nothing.
 */
class ExplainTest {

    private Troupe troupe;

    @BeforeEach
    void start() {
        troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(3));
    }

    @AfterEach
    void close() {
        troupe.close();
    }

    @Test
    void aGatherSitsOverTheWholePlanWithItsWorkersPlanned() {
        Plan plan = Plan.series("x", 1, 100).join(Plan.series("y", 1, 10), JoinType.INNER, col("x").eq(col("y")))
                .aggregate(List.of(), count().as("n"));
        assertEquals("""
                Gather
                  Output: n INT64
                  Workers Planned: 2
                      ->  Hash Aggregate count(*) AS n
                            Output: n INT64
                            ->  Hash Join INNER on (x = y)
                                  Output: x INT64, y INT64
                                  ->  Series x = generate_series(1, 100)
                                        Output: x INT64
                                  ->  Series y = generate_series(1, 10)
                                        Output: y INT64
                """, troupe.explain(plan, QueryOptions.defaults().withWorkers(2)));
        assertEquals("Gather", troupe.explain(plan).lines().findFirst().orElseThrow());
        assertEquals("  Workers Planned: 3", troupe.explain(plan).lines().skip(2).findFirst().orElseThrow(),
                "the default workers");
    }

    @Test
    void aGatherMergeSitsOverTheSortUnderWhatRunsAfterTheMerge() {
        Plan plan = Plan.series("x", 1, 100).filter(col("x").gt(lit(3L))).sort(col("x").desc())
                .project(col("x").times(lit(2L)).as("y")).limit(5, 1);
        assertEquals("""
                Limit 5 Offset 1
                  Output: y INT64
                      ->  Project (x * 2) AS y
                            Output: y INT64
                            ->  Gather Merge
                                  Output: x INT64
                                  Workers Planned: 4
                                  ->  Sort x DESC NULLS FIRST
                                        Output: x INT64
                                        ->  Filter (x > 3)
                                              Output: x INT64
                                              ->  Series x = generate_series(1, 100)
                                                    Output: x INT64
                """, troupe.explain(plan, QueryOptions.defaults().withWorkers(4)));
    }

    @Test
    void theLeaderAloneDrawsNoExchange() {
        Plan plan = Plan.series("x", 1, 100).sort(col("x").asc()).limit(3);
        String alone = troupe.explain(plan, QueryOptions.defaults().withWorkers(0));
        assertEquals(plan.explain(troupe.catalog()), alone);
        assertEquals("""
                Limit 3
                  Output: x INT64
                      ->  Sort x ASC NULLS LAST
                            Output: x INT64
                            ->  Series x = generate_series(1, 100)
                                  Output: x INT64
                """, alone);
    }

    @Test
    void sharedSubplansAndElidedExchangesDrawNothingOfTheirOwn() {
        Plan w = Plan.series("x", 1, 100).filter(col("x").gt(lit(3L))).share("w");
        Plan plan = w.as("a").join(w.as("b").distinct(), JoinType.INNER, col("a.x").eq(col("b.x")));
        assertEquals("""
                Gather
                  Output: a.x INT64, b.x INT64
                  Workers Planned: 2
                      ->  Hash Join INNER on (a.x = b.x)
                            Output: a.x INT64, b.x INT64
                            ->  CTE w
                                  Output: x INT64
                                  ->  Filter (x > 3)
                                        Output: x INT64
                                        ->  Series x = generate_series(1, 100)
                                              Output: x INT64
                            ->  CTE Scan on w AS a
                                  Output: a.x INT64
                            ->  Distinct
                                  Output: b.x INT64
                                  ->  CTE Scan on w AS b
                                        Output: b.x INT64
                """, troupe.explain(plan, QueryOptions.defaults().withWorkers(2)));
    }
}
