package io.troupe.cli;

import io.troupe.operators.sql.SqlPlanner;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.Schema;

import java.time.Duration;
import java.util.List;

/**
 * Plans two statements over two empty tables of its own on a daemon thread, so that Calcite's classes load and
 * its code warms while {@code bin/troupe sql} starts Troupe, makes or loads the tables and waits for the first
 * statement: the first statement in a cold JVM otherwise spends seconds loading the parser, validator and
 * planner (README, "SQL"). The user's first statement waits for none of it, and shares what it has loaded.
 */
final class SqlWarmUp {

    private static final List<String> STATEMENTS = List.of("""
            SELECT a.s, COUNT(*) AS n, SUM(a.x), AVG(b.v) FROM a JOIN b ON a.id = b.id
            WHERE a.d >= DATE '2024-01-01' AND a.s LIKE 'x%' AND b.v BETWEEN 1 AND 10
            GROUP BY a.s HAVING COUNT(*) > 1 ORDER BY n DESC LIMIT 10""", """
            SELECT id, CASE WHEN x > 0 THEN 'p' ELSE 'n' END FROM a
            WHERE EXISTS (SELECT 1 FROM b WHERE b.id = a.id) AND s IN ('x', 'y')""");

    private SqlWarmUp() {
    }

    /** Starts the warm-up; it ends by itself. */
    static void start() {
        Thread thread = new Thread(SqlWarmUp::run, "troupe-sql-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    private static void run() {
        Catalog catalog = new Catalog();
        catalog.register(new Table("a", Schema.parse("id INT32 NOT NULL,x DECIMAL(9,2),d DATE,s VARCHAR"), List.of()));
        catalog.register(new Table("b", Schema.parse("id INT64 NOT NULL,v FLOAT64"), List.of()));
        // Two tables: the bound on ordering joins never comes near.
        SqlPlanner planner = new SqlPlanner(catalog, Duration.ofSeconds(1));
        for (String sql : STATEMENTS) {
            planner.plan(sql);
        }
    }
}
