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
 * What the planner rewrites, over the star tables ({@link StarTables}); every plan returns DuckDB's rows.
 * <ul>
 *   <li>Filters pushed through the branches of a UNION ALL, a branch pruned where its constant fails the filter,
 *       and through an aggregate on its group keys (TPC-DS q4, q11 and q74 refer to a UNION ALL of channels
 *       several times, each reference keeping one channel and one year).</li>
 *   <li>Grouping before a join ({@link EagerAggregation}): sales grouped by item first where a statement groups
 *       them by the item's attributes; not where the item side is not unique on its key, where a function reads
 *       it, where nothing is grouped, where the join keeps few sales, or where grouping first keeps most rows.</li>
 *   <li>IN and NOT IN lists as Troupe's IN (a sorted-set lookup, not an OR per candidate; TPC-DS q8's 400 zip
 *       codes), with SQL's NULL rules: sales.store has NULLs.</li>
 *   <li>String literals beyond Latin-1 (Calcite's default charset is ISO-8859-1; config/saffron.properties sets
 *       UTF-8).</li>
 * </ul>
 */
class SqlRewritesTest {

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

    @Test
    void shouldGroupTheSalesByItemBeforeJoiningTheItems() throws Exception {
        String sql = """
                SELECT i.category, i.brand % 3 AS b, SUM(s.price * 2) AS total, COUNT(*) AS n,
                  COUNT(s.store) AS stores, MIN(s.price) AS low, MAX(s.sold_day) AS last
                FROM sales s JOIN items i ON s.item = i.id WHERE s.sold_day < 400
                GROUP BY i.category, i.brand % 3""";
        Plan plan = troupe.planSql(sql);
        String explain = troupe.explain(plan);
        assertEquals(2, aggregates(explain), explain);
        assertTrue(explain.indexOf("Hash Join") < explain.lastIndexOf("Hash Aggregate"), explain);
        engines.assertSameRows(sql, plan);
    }

    @Test
    void shouldGroupOnceWhereItCannotGroupFirst() throws Exception {
        for (String sql : List.of(
                // items' brand is no key: a sale can match many items
                "SELECT i.category, SUM(s.price) FROM sales s JOIN items i ON s.item = i.brand GROUP BY i.category",
                // a function of the item side
                "SELECT i.category, MAX(i.brand) FROM sales s JOIN items i ON s.item = i.id GROUP BY i.category",
                // nothing grouped: a COUNT of no rows is 0
                "SELECT COUNT(*), SUM(s.price) FROM sales s JOIN items i ON s.item = i.id WHERE i.brand = 3",
                // a join that keeps few sales (a month of days): fewer rows to group after it than before
                "SELECT d.yr, SUM(s.price) FROM sales s JOIN days d ON s.sold_day = d.id WHERE d.moy = 3 "
                        + "AND d.yr = 2000 GROUP BY d.yr",
                // grouped by the sales' own near-unique keys: grouping first would leave most rows
                "SELECT s.sold_day, s.item, i.category, SUM(s.price) FROM sales s JOIN items i ON s.item = i.id "
                        + "GROUP BY s.sold_day, s.item, i.category")) {
            Plan plan = troupe.planSql(sql);
            String explain = troupe.explain(plan);
            assertEquals(1, aggregates(explain), explain);
            engines.assertSameRows(sql, plan);
        }
    }

    @Test
    void shouldRunInListsAsOneLookupWithSqlsNullRules() throws Exception {
        for (String sql : List.of(
                "SELECT store, COUNT(*) FROM sales WHERE store IN (1, 3, 5, 7, 11, 13, 17, 19, 23) GROUP BY store",
                "SELECT COUNT(*) FROM sales WHERE store NOT IN (1, 3, 5, 7)",
                "SELECT COUNT(*), SUM(CASE WHEN store IN (2, 4) THEN 1 ELSE 0 END), "
                        + "COUNT(CASE WHEN store NOT IN (2, 4) THEN 1 END) FROM sales",
                "SELECT category, COUNT(*) FROM items WHERE category IN ('category1', 'category5', 'none') "
                        + "GROUP BY category")) {
            Plan plan = troupe.planSql(sql);
            String explain = troupe.explain(plan);
            assertTrue(explain.contains(" IN (") && !explain.contains(" OR "), explain);
            engines.assertSameRows(sql, plan);
        }
    }

    @Test
    void shouldRunStringLiteralsBeyondLatin1AsDuckDb() throws Exception {
        for (String sql : List.of(
                "SELECT id, '東京' AS city, state || '・' || '日本' AS label, length('ğüş') AS n FROM stores",
                "SELECT state, COUNT(*) FROM stores WHERE state <> '東京' AND state NOT LIKE '%日%' GROUP BY state")) {
            engines.assertSameRows(sql, troupe.planSql(sql));
        }
    }

    private static long aggregates(String explain) {
        return explain.lines().filter(line -> line.contains("->  Hash Aggregate")).count();
    }
}
