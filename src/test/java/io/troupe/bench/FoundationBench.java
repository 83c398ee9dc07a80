package io.troupe.bench;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;

/**
 * A small side-by-side harness for the foundation: W1 and W2 of docs/benchmarks.md, single-threaded
 * Troupe against DuckDB with threads = 1, in one JVM and one run, one warm-up and then the median
 * of the timed runs. The full benchmark command (workers, charts, CSV) is {@code bin/troupe bench}
 * of the parallel issue; this one exists to report the single-threaded kernels.
 *
 * <p>Usage: {@code FoundationBench [w1Rows] [w2Rows] [runs] [batchSize]}; see docs/performance.md
 * for the command line.
 */
public final class FoundationBench {

    public static void main(String[] args) throws SQLException {
        long w1Rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        long w2Rows = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000L;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        TroupeSettings settings = TroupeSettings.load();
        if (args.length > 3) {
            settings = settings.withBatchSize(Integer.parseInt(args[3]));
        }
        System.out.printf("batch size %d, %d timed runs after 1 warm-up, medians in seconds%n",
                settings.batchSize(), runs);
        System.out.printf("%-4s %12s %12s %12s %8s%n", "", "rows", "troupe", "duckdb(1)", "ratio");
        try (Troupe troupe = Troupe.start(settings);
             Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement s = duck.createStatement()) {
                s.execute("SET threads = 1");
            }
            setupW1(troupe, duck, w1Rows);
            report("W1", w1Rows, runs, troupe, duck, w1Plan(),
                    "select count(*) from t t1 join t t2 using (i)", w1Rows);
            setupW2(troupe, duck, w2Rows);
            report("W2", w2Rows, runs, troupe, duck, w2Plan(),
                    "select aid, count(*) from pgbench_accounts group by 1 having count(*) > 1", 0);
        }
    }

    private static void setupW1(Troupe troupe, Connection duck, long rows) throws SQLException {
        troupe.createTable("t", Plan.series("g", 1, rows).project(col("g").cast(DataType.INT32).as("i")));
        try (Statement s = duck.createStatement()) {
            s.execute("create or replace table t as select generate_series::int i from generate_series(1, " + rows + ")");
        }
    }

    private static void setupW2(Troupe troupe, Connection duck, long rows) throws SQLException {
        troupe.createTable("pgbench_accounts", Plan.series("g", 1, rows).project(col("g").cast(DataType.INT32).as("aid")));
        try (Statement s = duck.createStatement()) {
            s.execute("create or replace table pgbench_accounts as select generate_series::int aid from generate_series(1, "
                    + rows + ")");
        }
    }

    static Plan w1Plan() {
        return Plan.scan("t").as("t1")
                .join(Plan.scan("t").as("t2"), JoinType.INNER, col("t1.i").eq(col("t2.i")))
                .aggregate(List.of(), count().as("count"));
    }

    static Plan w2Plan() {
        return Plan.scan("pgbench_accounts")
                .aggregate(List.of(col("aid")), count().as("count"))
                .having(col("count").gt(lit(1L)));
    }

    private static void report(String name, long rows, int runs, Troupe troupe, Connection duck,
                               Plan plan, String sql, long expectedFirstValue) throws SQLException {
        double[] ours = new double[runs];
        double[] theirs = new double[runs];
        for (int r = -1; r < runs; r++) {
            long t0 = System.nanoTime();
            QueryResult result = troupe.execute(plan);
            double troupeSeconds = (System.nanoTime() - t0) / 1e9;
            check(name, "troupe", result.rowCount() == 0 ? 0 : ((Number) result.rows().get(0).get(0)).longValue(),
                    expectedFirstValue);
            t0 = System.nanoTime();
            long duckValue = 0;
            try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                if (rs.next()) {
                    duckValue = rs.getLong(1);
                }
            }
            double duckSeconds = (System.nanoTime() - t0) / 1e9;
            check(name, "duckdb", duckValue, expectedFirstValue);
            if (r >= 0) {
                ours[r] = troupeSeconds;
                theirs[r] = duckSeconds;
            }
        }
        double a = median(ours);
        double b = median(theirs);
        System.out.printf("%-4s %,12d %12.3f %12.3f %7.2fx   troupe min-max %.3f-%.3f, duckdb %.3f-%.3f%n",
                name, rows, a, b, a / b, min(ours), max(ours), min(theirs), max(theirs));
    }

    private static void check(String workload, String engine, long got, long expected) {
        if (got != expected) {
            throw new IllegalStateException(workload + ": " + engine + " returned " + got + ", expected " + expected);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    private FoundationBench() {
    }
}
