package io.troupe.operators.sql;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.Catalog;

import org.slf4j.LoggerFactory;

/**
 * Prints how long SQL planning takes in this JVM: the first statement (cold: Calcite's classes load and
 * its code generators warm up) and then the same statement and a second one, warm. Run it in a fresh JVM:
 * {@code java -cp target/troupe.jar:target/lib/*:target/test-classes io.troupe.operators.sql.SqlPlanningTime}.
 * It also logs one line through SLF4J, to show that Logback still binds with Calcite on the class path.
 */
public final class SqlPlanningTime {

    private static final String FIRST = "SELECT c.region, COUNT(*), SUM(o.amount) FROM orders o "
            + "JOIN customers c ON o.cust = c.id WHERE o.qty > 2 GROUP BY c.region ORDER BY 2 DESC LIMIT 3";
    private static final String SECOND = "SELECT c.id FROM customers c WHERE EXISTS "
            + "(SELECT 1 FROM orders o WHERE o.cust = c.id AND o.qty > 8)";

    private SqlPlanningTime() {
    }

    public static void main(String[] args) {
        LoggerFactory.getLogger(SqlPlanningTime.class).info("SLF4J binds to {}",
                LoggerFactory.getILoggerFactory().getClass().getName());
        Catalog catalog = new Catalog();
        SqlTables.generate(1).forEach(catalog::register);
        SqlPlanner planner = new SqlPlanner(catalog, TroupeSettings.load().sql().joinOrderLimit(), java.time.ZoneOffset.UTC);
        System.out.printf("cold first statement: %.0f ms%n", millis(planner, FIRST));
        for (int run = 1; run <= 5; run++) {
            System.out.printf("warm run %d: same %.1f ms, another (EXISTS) %.1f ms%n", run, millis(planner, FIRST),
                    millis(planner, SECOND));
        }
    }

    private static double millis(SqlPlanner planner, String sql) {
        long start = System.nanoTime();
        planner.plan(sql);
        return (System.nanoTime() - start) / 1e6;
    }
}
