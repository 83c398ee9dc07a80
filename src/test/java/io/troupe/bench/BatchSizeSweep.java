package io.troupe.bench;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;

import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;

/**
 * How the batch size ({@code troupe.batch-size}) affects whole queries: W1, W2 and a scan-filter-
 * project-aggregate pipeline, single-threaded, each batch size in turn within every round so that
 * machine noise spreads evenly over the sizes. Prints the median per size and workload.
 *
 * <p>Usage: {@code BatchSizeSweep [rows] [rounds] [size ...]}; see docs/performance.md.
 */
public final class BatchSizeSweep {

    public static void main(String[] args) {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int[] sizes = args.length > 2
                ? Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {256, 1024, 2048, 4096, 16384};
        Plan pipeline = Plan.scan("t")
                .filter(col("i").mod(lit(7)).ne(lit(0)))
                .project(col("i").times(lit(3)).plus(lit(1)).as("x"))
                .aggregate(List.of(), sum(col("x")).as("s"));
        List<Plan> workloads = List.of(FoundationBench.w1Plan(), FoundationBench.w2Plan(), pipeline);
        String[] names = {"W1", "W2", "scan-filter-project-sum"};
        double[][][] seconds = new double[sizes.length][workloads.size()][rounds];
        for (int round = -1; round < rounds; round++) {
            for (int s = 0; s < sizes.length; s++) {
                // Tables are chunked by the batch size too: a scan hands out one chunk per batch.
                try (Troupe troupe = Troupe.start(TroupeSettings.load().withBatchSize(sizes[s]))) {
                    Plan ints = Plan.series("g", 1, rows).project(col("g").cast(DataType.INT32).as("i"));
                    troupe.createTable("t", ints);
                    troupe.createTable("pgbench_accounts", ints.project(col("i").as("aid")));
                    for (int w = 0; w < workloads.size(); w++) {
                        long t0 = System.nanoTime();
                        troupe.execute(workloads.get(w));
                        if (round >= 0) {
                            seconds[s][w][round] = (System.nanoTime() - t0) / 1e9;
                        }
                    }
                }
            }
        }
        System.out.printf("rows %,d, %d rounds, median seconds%n%-10s", rows, rounds, "batch");
        for (String name : names) {
            System.out.printf(" %24s", name);
        }
        System.out.println();
        for (int s = 0; s < sizes.length; s++) {
            System.out.printf("%-10d", sizes[s]);
            for (int w = 0; w < workloads.size(); w++) {
                double[] sorted = seconds[s][w].clone();
                Arrays.sort(sorted);
                System.out.printf(" %24.3f", sorted[rounds / 2]);
            }
            System.out.println();
        }
    }

    private BatchSizeSweep() {
    }
}
