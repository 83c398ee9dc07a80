package io.troupe.operators.agg;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;

/**
 * W2 by hand (not a test, no assertions on time): {@code select aid, count(*) from
 * pgbench_accounts group by 1 having count(*) > 1} over aid 1..N, single-threaded, Troupe and
 * DuckDB in the same JVM. Where the comparison kernels are not there yet, Troupe runs without the
 * HAVING (which only filters the aggregate's output) and says so. Both report wall time and the
 * calling thread's CPU time (with one thread, DuckDB runs the query on the caller's thread too);
 * on a shared machine the CPU time is the steadier figure.
 *
 * <pre>{@code
 * mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -Xmx8g -cp target/test-classes:target/classes:$(cat target/cp.txt) io.troupe.operators.agg.W2Benchmark 1000000
 * }</pre>
 */
public final class W2Benchmark {

    private W2Benchmark() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        Schema schema = Schema.of(new Field(null, "aid", DataType.INT32, false),
                Field.of("bid", DataType.INT32), Field.of("abalance", DataType.INT32));
        TableBuilder b = new TableBuilder("pgbench_accounts", schema);
        for (int from = 1; from <= n; from += TableBuilder.DEFAULT_CHUNK_ROWS) {
            int rows = Math.min(TableBuilder.DEFAULT_CHUNK_ROWS, n - from + 1);
            int[] aid = new int[rows];
            int[] bid = new int[rows];
            for (int i = 0; i < rows; i++) {
                aid[i] = from + i;
                bid[i] = 1 + (from + i - 1) / 100_000;
            }
            b.addBatch(Batch.of(rows, new IntVector(DataType.INT32, aid), new IntVector(DataType.INT32, bid),
                    new IntVector(DataType.INT32, new int[rows])));
        }
        try (Troupe troupe = Troupe.start(TroupeSettings.load())) {
            troupe.register(b.build());
            Plan aggregate = Plan.scan("pgbench_accounts").aggregate(List.of(col("aid")), count().as("n"));
            Plan plan = aggregate.having(col("n").gt(lit(1L)));
            String shape = "with HAVING";
            try {
                troupe.execute(plan);
            } catch (PlanException e) {
                plan = aggregate;
                shape = "without HAVING (" + e.getMessage() + ")";
            }
            double[][] ms = time(troupe, plan, runs);
            report("troupe", n, shape, ms, runs);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("PRAGMA threads=1");
            st.execute("create table pgbench_accounts as select (range + 1)::int aid, 1 + range // 100000 bid,"
                    + " 0 abalance from range(" + n + ")");
            String sql = "select aid, count(*) from pgbench_accounts group by 1 having count(*) > 1";
            double[][] ms = new double[2][runs];
            for (int r = -3; r < runs; r++) {
                long c0 = THREADS.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                try (ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next()) {
                        throw new IllegalStateException("W2 must be empty");
                    }
                }
                if (r >= 0) {
                    ms[0][r] = (System.nanoTime() - t0) / 1e6;
                    ms[1][r] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
                }
            }
            report("duckdb", n, "(PRAGMA threads=1)", ms, runs);
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static double[][] time(Troupe troupe, Plan plan, int runs) {
        double[][] ms = new double[2][runs];
        for (int r = -5; r < runs; r++) {
            long c0 = THREADS.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            QueryResult result = troupe.execute(plan);
            if (r >= 0) {
                ms[0][r] = (System.nanoTime() - t0) / 1e6;
                ms[1][r] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
            }
            if (r == -5) {
                System.out.printf("troupe returned %d rows%n", result.rowCount());
            }
        }
        return ms;
    }

    private static void report(String engine, int n, String shape, double[][] ms, int runs) {
        Arrays.sort(ms[0]);
        Arrays.sort(ms[1]);
        System.out.printf("%-7s N=%d %s: wall median %.1f ms, best %.1f ms; thread CPU median %.1f ms, best %.1f ms"
                + " (%d runs)%n", engine, n, shape, ms[0][runs / 2], ms[0][0], ms[1][runs / 2], ms[1][0], runs);
    }
}
