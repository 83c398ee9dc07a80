package io.troupe.bench;

import com.sun.management.OperatingSystemMXBean;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;

import static io.troupe.operators.plan.Expr.col;

/**
 * Hand-run measurement of ORDER BY in memory (not a test): a table of {@code rows} rows (a random
 * BIGINT key with duplicates, an INT, a DOUBLE and a short VARCHAR), sorted by the key then the id with
 * 1 and 2 workers, interleaved round by round so that load from elsewhere falls on both alike; prints
 * the median and the p10..p90 of each, of the wall time and of the process's CPU time (what the query
 * cost, GC included, whatever else shares the machine). Under the default budget nothing spills: it
 * measures what the sort's memory accounting costs a sort that fits.
 *
 * <p>Usage: {@code SortBenchMain [rows] [rounds]} (defaults 3000000 and 9), with the tests' JVM flags:
 * <pre>
 * mvn -q test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath
 * java -Xmx4g --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
 *   -cp target/classes:target/test-classes:$(cat target/test.classpath) io.troupe.bench.SortBenchMain
 * </pre>
 */
public final class SortBenchMain {

    private static final int WARM_UPS = 2;

    private SortBenchMain() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 3_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        Schema schema = Schema.of(Field.of("id", DataType.INT64), Field.of("k", DataType.INT64),
                Field.of("i", DataType.INT32), Field.of("d", DataType.FLOAT64), Field.of("s", DataType.VARCHAR));
        TableBuilder table = new TableBuilder("t", schema, 16_384);
        Random random = new Random(7);
        for (long id = 0; id < rows; id++) {
            table.addRow(id, (long) random.nextInt(rows / 4), random.nextInt(1000), random.nextDouble(),
                    "s" + random.nextInt(100_000));
        }
        Plan plan = Plan.scan("t").sort(col("k").asc(), col("id").asc());
        int[] workerCounts = {1, 2};
        try (Troupe troupe = Troupe.start(TroupeSettings.load())) {
            troupe.register(table.build());
            for (int i = 0; i < WARM_UPS; i++) {
                for (int workers : workerCounts) {
                    troupe.execute(plan, QueryOptions.defaults().withWorkers(workers));
                }
            }
            OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            double[][] ms = new double[workerCounts.length][rounds];
            double[][] cpu = new double[workerCounts.length][rounds];
            for (int r = 0; r < rounds; r++) {
                for (int w = 0; w < workerCounts.length; w++) {
                    long start = System.nanoTime();
                    long cpuStart = os.getProcessCpuTime();
                    long n = troupe.execute(plan, QueryOptions.defaults().withWorkers(workerCounts[w])).rowCount();
                    ms[w][r] = (System.nanoTime() - start) / 1e6;
                    cpu[w][r] = (os.getProcessCpuTime() - cpuStart) / 1e6;
                    if (n != rows) {
                        throw new IllegalStateException("sorted " + n + " rows of " + rows);
                    }
                }
            }
            for (int w = 0; w < workerCounts.length; w++) {
                Arrays.sort(ms[w]);
                Arrays.sort(cpu[w]);
                System.out.printf("ORDER BY k, id of %d rows, workers %d: wall median %7.1f ms p10..p90 %7.1f..%7.1f,"
                        + " CPU median %7.1f ms p10..p90 %7.1f..%7.1f%n", rows, workerCounts[w],
                        ms[w][rounds / 2], ms[w][rounds / 10], ms[w][rounds * 9 / 10],
                        cpu[w][rounds / 2], cpu[w][rounds / 10], cpu[w][rounds * 9 / 10]);
            }
        }
    }
}
