package io.troupe.operators.sql;

import io.troupe.actors.api.Troupe;
import io.troupe.operators.plan.Plan;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.troupe.operators.sql.PlanShape.filters;
import static io.troupe.operators.sql.PlanShape.scans;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Filters pushed through what a statement puts between them and the scans, over the star tables
 * ({@link StarTables}): the branches of a UNION ALL, pruned where a branch's constant fails the filter, and an
 * aggregate, on its group keys. TPC-DS q4, q11 and q74 refer to a UNION ALL of channels several times, each
 * reference keeping one channel and one year. Every plan returns DuckDB's rows.
 */
class SqlPushDownTest {

    /** q4's shape: each of two references keeps one branch of the union and one year. */
    private static final String CHANNELS = """
            WITH totals AS (
              SELECT s.store AS store, d.yr AS yr, SUM(s.price) AS total, 's' AS channel
              FROM sales s JOIN days d ON s.sold_day = d.id GROUP BY s.store, d.yr
              UNION ALL
              SELECT s.store, d.yr, SUM(s.price), 'c'
              FROM sales s JOIN days d ON s.sold_day = d.id WHERE s.item < 1000 GROUP BY s.store, d.yr)
            SELECT a.store, a.total, b.total AS other
            FROM totals a JOIN totals b ON a.store = b.store
            WHERE a.channel = 's' AND b.channel = 'c' AND a.yr = 2000 AND b.yr = 2000 + 1""";

    private static SqlEngines engines;
    private static Troupe troupe;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.over(StarTables.generate(11));
        troupe = engines.troupe();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    @Test
    void shouldPruneTheBranchesOfAUnionThatAFilterLeavesEmptyAndFilterBelowTheAggregate() throws Exception {
        Plan plan = troupe.planSql(CHANNELS);
        String explain = troupe.explain(plan);
        assertEquals(List.of("days", "days", "sales", "sales"), scans(plan).stream().sorted().toList(), explain);
        assertTrue(!explain.contains("Union"), explain);
        for (Plan filter : filters(plan)) {
            assertTrue(filter.label().contains("yr") == scans(filter).equals(List.of("days")), explain);
        }
        assertEquals(2, filters(plan).stream().filter(f -> f.label().contains("yr")).count(), explain);
        engines.assertSameRows(CHANNELS, plan);
    }

    @Test
    void shouldKeepAFilterOnAnAggregateAboveIt() throws Exception {
        String sql = "SELECT store, SUM(price) AS total FROM sales GROUP BY store HAVING SUM(price) > 1000";
        Plan plan = troupe.planSql(sql);
        String explain = troupe.explain(plan);
        assertTrue(explain.indexOf("Filter (") < explain.indexOf("Hash Aggregate"), explain);
        engines.assertSameRows(sql, plan);
    }
}
