package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.types.DataType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;

/**
 * {@code troupe demo}: generates the benchmark tables of docs/benchmarks.md and runs W1 (a self
 * join) and W2 (a grouping that finds no duplicates), printing each plan, its result and its time;
 * with {@code --analyze}, each query's EXPLAIN ANALYZE profile instead of its plan and time. Its
 * arguments are checked before anything starts; a bad one exits with 2.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Generate data and run the W1 and W2 workloads on it.")
final class DemoCommand implements Callable<Integer> {

    @Option(names = "--rows", description = "rows N of the generated tables (default: ${DEFAULT-VALUE})")
    long rows = 1_000_000;

    @Option(names = "--workers", description = "workers per query; 0 runs on the main thread alone "
            + "(default: troupe.workers.default)")
    int workers = QueryOptions.DEFAULT_WORKERS;

    @Option(names = "--analyze", description = "run each query under EXPLAIN ANALYZE and print its profile "
            + "(rows, batches and time per node and per worker) instead of its plan")
    boolean analyze;

    @Spec
    CommandSpec spec;

    private final PrintStream out = System.out;

    @Override
    public Integer call() {
        RoundOptions.checkRows(spec, rows);
        if (workers != QueryOptions.DEFAULT_WORKERS) {
            RoundOptions.checkWorkers(spec, List.of(workers), 0, "");
        }
        try (Troupe troupe = Troupe.start()) {
            out.printf("Generating t (i INT32 = 1..%,d) and pgbench_accounts (aid INT32 = 1..%,d) ...%n", rows, rows);
            long t0 = System.nanoTime();
            troupe.createTable("t", Plan.series("g", 1, rows).project(col("g").cast(DataType.INT32).as("i")));
            troupe.createTable("pgbench_accounts",
                    Plan.series("g", 1, rows).project(col("g").cast(DataType.INT32).as("aid")));
            out.printf("  done in %.2f s%n%n", seconds(t0));

            run(troupe, "W1: select count(*) from t t1 join t t2 using (i)",
                    Plan.scan("t").as("t1")
                            .join(Plan.scan("t").as("t2"), JoinType.INNER, col("t1.i").eq(col("t2.i")))
                            .aggregate(List.of(), count().as("count")));
            run(troupe, "W2: select aid, count(*) from pgbench_accounts group by 1 having count(*) > 1",
                    Plan.scan("pgbench_accounts")
                            .aggregate(List.of(col("aid")), count().as("count"))
                            .having(col("count").gt(lit(1L))));
        }
        return 0;
    }

    private void run(Troupe troupe, String title, Plan plan) {
        out.println(title);
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        if (analyze) {
            QueryProfile profile = troupe.explainAnalyze(plan, options);
            out.print(profile.render());
            out.print(profile.result().format(10));
            out.println();
            return;
        }
        out.print(troupe.explain(plan, options));
        long t0 = System.nanoTime();
        QueryResult result = troupe.execute(plan, options);
        double elapsed = seconds(t0);
        out.print(result.format(10));
        out.printf("Time: %.3f s%n%n", elapsed);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
