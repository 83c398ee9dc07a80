package io.troupe.operators.sql;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.Schema;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

/**
 * Plans a statement over two empty tables of its own, once per JVM, so that Calcite's classes load and its code
 * warms (the parser, the validator, the metadata handlers that Janino compiles on first use): a first statement in
 * a cold JVM otherwise spends seconds on it (README, "SQL").
 *
 * <p>{@link JoinOrdering} waits for the warm-up before it starts its clock ({@link #await}): the bound on ordering
 * joins ({@code troupe.sql.join-order-limit}) is for the search, and a first ordering that spent it loading classes
 * on a busy machine ran its joins as written. {@code bin/troupe sql} starts the warm-up on a thread of its own
 * ({@link #inBackground}), with more statements, while it starts Troupe and makes its tables.
 *
 * <p>Once per JVM by the JVM's own rule: the warm-up is the static initialiser of {@link Done}. Another thread that
 * needs it meanwhile waits for it to end; the warm-up's own ordering, on the same thread, goes through.
 */
public final class PlannerWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(PlannerWarmUp.class);

    /**
     * Planned before any join is ordered: what ordering needs loaded (a join, row estimates through a filter and a
     * grouping), and no more, for it delays a cold JVM's first statement.
     */
    private static final String JOIN = """
            SELECT a.s, COUNT(*), SUM(b.v) FROM a JOIN b ON a.id = b.id
            WHERE a.x > 1 AND b.v BETWEEN 1 AND 10 GROUP BY a.s""";

    /** Planned too by a warm-up in the background: what most statements use besides. */
    private static final List<String> MORE = List.of("""
            SELECT a.s, COUNT(*) AS n, SUM(a.x), AVG(b.v) FROM a JOIN b ON a.id = b.id
            WHERE a.d >= DATE '2024-01-01' AND a.s LIKE 'x%' AND b.v BETWEEN 1 AND 10
            GROUP BY a.s HAVING COUNT(*) > 1 ORDER BY n DESC LIMIT 10""", """
            SELECT id, CASE WHEN x > 0 THEN 'p' ELSE 'n' END FROM a
            WHERE EXISTS (SELECT 1 FROM b WHERE b.id = a.id) AND s IN ('x', 'y')""");

    private PlannerWarmUp() {
    }

    private static Catalog catalog() {
        Catalog catalog = new Catalog();
        catalog.register(new Table("a", Schema.parse("id INT32 NOT NULL,x DECIMAL(9,2),d DATE,s VARCHAR"), List.of()));
        catalog.register(new Table("b", Schema.parse("id INT64 NOT NULL,v FLOAT64"), List.of()));
        return catalog;
    }

    /** Starts the warm-up on a daemon thread, unless it ran; it ends by itself. */
    public static void inBackground() {
        Thread thread = new Thread(() -> {
            await();
            plan(MORE);
        }, "troupe-sql-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    /** Returns once the warm-up has run in this JVM, running it on this thread when no other has begun it. */
    static void await() {
        Done.ran();
    }

    /** Plans {@code statements} over two empty tables of its own (two tables need no bound on ordering their join). */
    private static void plan(List<String> statements) {
        try {
            SqlPlanner planner = new SqlPlanner(catalog(), Duration.ofDays(1), java.time.ZoneOffset.UTC);
            statements.forEach(planner::plan);
        } catch (Throwable e) {
            // A statement Troupe no longer plans warms less, and must not stop the user's from planning. An Error
            // too: escaping the class initialiser below, it would fail that class for good, and with it every
            // later join ordering in the JVM (NoClassDefFoundError).
            LOG.warn("[sql] the planner's warm-up failed: {}", e.toString());
        }
    }

    /** Initialised once, by the first thread to need the warm-up. */
    private static final class Done {
        static {
            plan(List.of(JOIN));
        }

        static void ran() {
        }
    }
}
