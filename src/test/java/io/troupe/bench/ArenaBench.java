package io.troupe.bench;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

import static io.troupe.operators.plan.Expr.col;

/**
 * Lesson 2 by hand (no timing in tests): W1 ({@link FoundationBench#w1Plan()}) with the memory arena
 * preallocated or not and chunks of 32 or 128 KiB, in one JVM and one run: per configuration a fresh
 * Troupe, one warm-up, then the median of the timed runs (wall time, and young collections and
 * their time, which on-demand chunks cause).
 *
 * <p>Usage: {@code ArenaBench [rows] [runs] [workers] [preallocate-bytes]}; for example
 * <pre>
 * mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -Xms6g -Xmx6g -cp target/classes:target/test-classes:$(cat target/cp.txt) \
 *     io.troupe.bench.ArenaBench 10000000 5 0
 * </pre>
 */
public final class ArenaBench {

    private ArenaBench() {
    }

    public static void main(String[] args) {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        long preallocate = args.length > 3 ? Long.parseLong(args[3]) : 256L * 1024 * 1024;
        System.out.printf("W1, %d rows, workers %d, 1 warm-up + %d timed runs, medians%n", rows, workers, runs);
        System.out.printf("%-10s %-12s %10s %8s %10s%n", "chunk", "preallocate", "wall s", "GCs", "GC ms");
        for (int chunk : new int[] {32 * 1024, 128 * 1024}) {
            for (long pre : new long[] {0, preallocate}) {
                measure(rows, runs, workers, chunk, pre);
            }
        }
    }

    private static void measure(long rows, int runs, int workers, int chunk, long preallocate) {
        TroupeSettings settings = TroupeSettings.load()
                .withMemory(new TroupeSettings.Memory(chunk, preallocate, Long.MAX_VALUE));
        try (Troupe troupe = Troupe.start(settings)) {
            troupe.createTable("t", Plan.series("g", 1, rows).project(col("g").cast(DataType.INT32).as("i")));
            QueryOptions options = QueryOptions.defaults().withWorkers(workers);
            Plan plan = FoundationBench.w1Plan();
            check(troupe.execute(plan, options).rows().get(0).get(0), rows);
            double[] wall = new double[runs];
            double[] gcs = new double[runs];
            double[] gcMs = new double[runs];
            for (int r = 0; r < runs; r++) {
                long count0 = gcCount();
                long time0 = gcMillis();
                long t0 = System.nanoTime();
                Object count = troupe.execute(plan, options).rows().get(0).get(0);
                wall[r] = (System.nanoTime() - t0) / 1e9;
                gcs[r] = gcCount() - count0;
                gcMs[r] = gcMillis() - time0;
                check(count, rows);
            }
            System.out.printf("%-10s %-12s %10.3f %8.0f %10.0f%n", chunk / 1024 + "k",
                    preallocate == 0 ? "off" : preallocate / (1024 * 1024) + "m", median(wall), median(gcs), median(gcMs));
        }
    }

    private static void check(Object count, long rows) {
        if (((Number) count).longValue() != rows) {
            throw new IllegalStateException("W1 counted " + count + ", expected " + rows);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static long gcMillis() {
        long ms = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, gc.getCollectionTime());
        }
        return ms;
    }
}
