package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;

import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;

/**
 * Hand-run measurement of the actor executor's fixed cost per query (not a test): many small queries
 * on one Troupe, with 0 workers (the leader alone), 1 and 2 in turn, and the median time of each. The difference between 1 worker and the leader alone at a small N is what a query pays for
 * its coordinator, workers, Gather and channels before it does any work.
 *
 * <p>Usage: {@code QueryFixedCostMain [rows] [queries]} (defaults 100000 and 200), with the tests' JVM
 * flags:
 * <pre>
 * mvn -q test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
 *   -cp target/classes:target/test-classes:$(cat target/test.classpath) io.troupe.actors.api.QueryFixedCostMain
 * </pre>
 */
public final class QueryFixedCostMain {

    private static final int WARM_UPS = 50;

    private QueryFixedCostMain() {
    }

    public static void main(String[] args) {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 100_000L;
        int queries = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Plan sum = Plan.series("x", 1, rows).aggregate(List.of(), Expr.sum(col("x")));
        Plan tiny = Plan.series("x", 1, 10).aggregate(List.of(), Expr.sum(col("x")));
        int[] workerCounts = {0, 1, 2};
        try (Troupe troupe = Troupe.start(TroupeSettings.load())) {
            System.out.printf("%d queries per setting, interleaved round by round (so that load from elsewhere"
                    + " falls on all alike), after %d warm-ups; median, p10..p90 in ms%n", queries, WARM_UPS);
            for (Plan plan : List.of(tiny, sum)) {
                for (int i = 0; i < WARM_UPS; i++) {
                    for (int workers : workerCounts) {
                        troupe.execute(plan, QueryOptions.defaults().withWorkers(workers));
                    }
                }
                double[][] ms = new double[workerCounts.length][queries];
                for (int i = 0; i < queries; i++) {
                    for (int w = 0; w < workerCounts.length; w++) {
                        QueryOptions options = QueryOptions.defaults().withWorkers(workerCounts[w]);
                        long start = System.nanoTime();
                        troupe.execute(plan, options);
                        ms[w][i] = (System.nanoTime() - start) / 1e6;
                    }
                }
                for (int w = 0; w < workerCounts.length; w++) {
                    Arrays.sort(ms[w]);
                    System.out.printf("%-22s workers %d: median %7.3f  p10..p90 %7.3f..%7.3f%n",
                            plan == tiny ? "series 10, sum" : "series " + rows + ", sum", workerCounts[w],
                            ms[w][queries / 2], ms[w][queries / 10], ms[w][queries * 9 / 10]);
                }
            }
        }
    }
}
