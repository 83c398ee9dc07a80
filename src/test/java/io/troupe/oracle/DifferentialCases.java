package io.troupe.oracle;

import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.oracle.RandomPlans.Case;
import io.troupe.oracle.RandomPlans.Check;
import io.troupe.oracle.RandomTables.TableSpec;
import io.troupe.oracle.RandomTables.World;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the differential tests against DuckDB share ({@link DifferentialTest} in one JVM,
 * {@link SpreadDifferentialTest} over nodes): loading a case's world into the oracle, generating a
 * case's plan from its seed, comparing Troupe's result with DuckDB's as the case's {@link Check} says,
 * and the failure report (the tables, EXPLAIN, the SQL and the diff). Each test keeps its own
 * executors, knobs and replay lines, and writes the header of its reports.
 */
final class DifferentialCases {

    /**
     * Results above this many rows are skipped (regenerated): big joins say little more and cost much. So are
     * cases DuckDB cannot count within {@link DuckDbOracle#COUNT_LIMIT_SECONDS} s.
     */
    static final long MAX_RESULT_ROWS = 30_000;
    /** Plans a case generates before it gives up on one whose result is small enough. */
    static final int ATTEMPTS = 5;

    private DifferentialCases() {
    }

    /** The world of {@code worldSeed}, loaded into {@code oracle} (replacing the world it held). */
    static World load(DuckDbOracle oracle, long worldSeed) throws SQLException {
        World world = RandomTables.world(worldSeed);
        List<Table> tables = new ArrayList<>();
        for (TableSpec t : world.tables()) {
            tables.add(t.table());
        }
        oracle.load(tables);
        // A plan reads an instant's local time in UTC (date_part, date_trunc, casts): so does the oracle.
        oracle.execute("SET TimeZone = 'UTC'");
        return world;
    }

    /**
     * The plan of case {@code seed}: the first of {@value #ATTEMPTS} generated plans whose result DuckDB
     * counts at most {@value #MAX_RESULT_ROWS} rows, or null when none did (each one above counted in
     * {@code skipped}). A plan Troupe rejects, or SQL DuckDB rejects, fails the test with a report that
     * starts with {@code header}.
     *
     * @param explain EXPLAIN of a plan, for the report
     */
    static Case generate(long seed, World world, FeatureSet features, Catalog catalog, Map<String, Integer> coverage,
                         DuckDbOracle oracle, AtomicInteger skipped, String header, Function<Plan, String> explain) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            RandomPlans generator = new RandomPlans(DifferentialTest.mix(seed + attempt * 0x9e3779b97f4a7c15L), world,
                    features, catalog, coverage);
            Case c;
            try {
                c = generator.generate();
            } catch (RandomPlans.Rejected e) {
                fail(header + "-- the plan (as built):\n" + PlanText.tree(e.plan) + "-- " + e.getMessage() + "\n"
                        + stackTrace(e));
                return null;
            }
            long rows;
            try {
                rows = oracle.count(c.sql());
            } catch (SQLException e) {
                fail(report(header, world, explain, c, "DuckDB rejected the generated SQL (a generator bug): "
                        + e.getMessage()));
                return null;
            }
            if (rows <= MAX_RESULT_ROWS) {
                return c;
            }
            skipped.incrementAndGet();
        }
        return null;
    }

    /** How {@code actual} differs from DuckDB's {@code expected} rows of case {@code c}: null when it agrees. */
    static String diff(DuckDbOracle.Result expected, QueryResult actual, Case c) {
        List<DataType> types = new ArrayList<>();
        for (int i = 0; i < actual.schema().size(); i++) {
            types.add(actual.schema().type(i));
        }
        String diff = ResultComparator.compareTypes(expected.columnTypes(), types);
        if (diff != null) {
            return diff;
        }
        List<List<Object>> rows = DuckDbOracle.normalise(actual.rows());
        return c.check() == Check.SUBSET
                ? ResultComparator.compareSubset(expected.rows(), rows, c.expectedRows(expected.rows().size()))
                : ResultComparator.compare(expected.rows(), rows, c.check() == Check.ORDERED);
    }

    /** A failed case's report: {@code header}, the world's tables, the plan's EXPLAIN, DuckDB's SQL, {@code diff}. */
    static String report(String header, World world, Function<Plan, String> explain, Case c, String diff) {
        String explained;
        try {
            explained = explain.apply(c.plan());
        } catch (RuntimeException e) {
            explained = PlanText.tree(c.plan()) + "(EXPLAIN failed: " + e.getMessage() + ")\n";
        }
        StringBuilder tables = new StringBuilder();
        for (TableSpec t : world.tables()) {
            tables.append("  ").append(t.table()).append('\n');
        }
        return header + "-- tables:\n" + tables
                + "-- Troupe plan (EXPLAIN):\n" + explained
                + "-- DuckDB SQL (" + c.check() + (c.check() == Check.SUBSET ? ", LIMIT " + c.limitCount()
                + " OFFSET " + c.limitOffset() + " over it" : "") + "):\n" + c.sql() + "\n-- diff:\n" + diff;
    }

    /** {@code e}'s stack trace, cut at 4000 characters. */
    static String stackTrace(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        String s = w.toString();
        return s.length() > 4000 ? s.substring(0, 4000) + "\n..." : s;
    }

    /** Prints a plan tree from labels alone, for plans EXPLAIN cannot show (they fail validation). */
    static final class PlanText {
        private PlanText() {
        }

        static String tree(Plan plan) {
            StringBuilder sb = new StringBuilder();
            tree(plan, 0, sb);
            return sb.toString();
        }

        private static void tree(Plan plan, int depth, StringBuilder sb) {
            sb.append("  ".repeat(depth)).append(depth == 0 ? "" : "-> ").append(plan.label()).append('\n');
            for (Plan child : plan.children()) {
                tree(child, depth + 1, sb);
            }
        }
    }
}
