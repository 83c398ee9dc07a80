package io.troupe.operators.sql;

import io.troupe.actors.api.Troupe;
import io.troupe.operators.plan.Plan;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Grouping before a join ({@link EagerAggregation}) over the star tables ({@link StarTables}): sales grouped by
 * item first where a statement groups them by the item's attributes, and not where the item side is not unique on
 * its key, where a function reads the item side, where nothing is grouped, where the join keeps few sales, or
 * where grouping first would keep most rows. Every plan returns DuckDB's rows.
 */
class SqlEagerAggregationTest {

    private static SqlEngines engines;
    private static Troupe troupe;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.over(StarTables.generate(13));
        troupe = engines.troupe();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
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

    private static long aggregates(String explain) {
        return explain.lines().filter(line -> line.contains("->  Hash Aggregate")).count();
    }
}
