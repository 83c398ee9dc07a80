package io.troupe.operators.sql;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One planner serves many threads, and each statement sees the tables registered when it is planned. */
class SqlPlannerTest {

    private static final List<String> STATEMENTS = List.of(
            "SELECT o.id, c.name FROM orders o JOIN customers c ON o.cust = c.id WHERE o.qty > 3",
            "SELECT status, COUNT(*), SUM(amount) FROM orders GROUP BY status HAVING COUNT(*) > 1",
            "SELECT c.id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id)",
            "SELECT id FROM customers UNION SELECT cust FROM orders ORDER BY 1 LIMIT 5");

    @Test
    void shouldPlanTheSameFromManyThreads() throws Exception {
        Catalog catalog = new Catalog();
        SqlTables.generate(1).forEach(catalog::register);
        SqlPlanner planner = new SqlPlanner(catalog, TroupeSettings.load().sql().joinOrderLimit(), java.time.ZoneOffset.UTC);
        List<String> expected = new ArrayList<>();
        for (String sql : STATEMENTS) {
            expected.add(planner.plan(sql).explain(catalog));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> plans = new ArrayList<>();
            for (int round = 0; round < 5; round++) {
                for (String sql : STATEMENTS) {
                    plans.add(pool.submit(() -> planner.plan(sql).explain(catalog)));
                }
            }
            for (int i = 0; i < plans.size(); i++) {
                assertEquals(expected.get(i % STATEMENTS.size()), plans.get(i).get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldSeeTablesRegisteredAfterItWasMade() {
        Catalog catalog = new Catalog();
        SqlPlanner planner = new SqlPlanner(catalog, TroupeSettings.load().sql().joinOrderLimit(), java.time.ZoneOffset.UTC);
        assertThrows(SqlException.class, () -> planner.plan("SELECT code FROM regions"));
        Table regions = SqlTables.generate(1).get(2);
        catalog.register(regions);
        assertEquals("code", planner.plan("SELECT code FROM regions").validate(catalog).field(0).name());
        catalog.drop("regions");
        assertTrue(assertThrows(SqlException.class, () -> planner.plan("SELECT code FROM regions")).getMessage()
                .startsWith("relation \"regions\" does not exist"));
    }
}
