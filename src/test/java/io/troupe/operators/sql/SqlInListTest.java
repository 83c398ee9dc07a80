package io.troupe.operators.sql;

import io.troupe.actors.api.Troupe;
import io.troupe.operators.plan.Plan;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IN and NOT IN lists in SQL run as Troupe's IN (a lookup in a sorted set), not as an OR of equalities (TPC-DS
 * q8's 400 zip codes), with SQL's NULL rules: sales.store has NULLs ({@link StarTables}). Every plan returns
 * DuckDB's rows.
 */
class SqlInListTest {

    private static SqlEngines engines;
    private static Troupe troupe;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.over(StarTables.generate(5));
        troupe = engines.troupe();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
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
}
