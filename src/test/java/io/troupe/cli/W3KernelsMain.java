package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.cli.data.GenerationProgress;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.plan.Expr.caseWhen;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;

/**
 * Times W3 (TPC-DS q2) and the pieces it spends its time in, in one JVM on tables generated once:
 * the sales union's probe join against date_dim alone (counted), that join with wswscs' aggregate,
 * and the whole plan; medians after warm-up, with 0 (the caller's thread) and 1 worker; then one
 * EXPLAIN ANALYZE of the plan, and optionally a JFR profile of repeated runs
 * ({@link BaselineProfile}).
 *
 * <p>Usage: {@code W3KernelsMain [scale] [runs] [profileDir]}. Not threadsafe; a main.
 */
public final class W3KernelsMain {

    private static final List<String> DAYS = List.of("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
            "Friday", "Saturday");

    public static void main(String[] args) throws Exception {
        double scale = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Path profileDir = args.length > 2 ? Path.of(args[2]) : null;
        BenchmarkDataGenerator.GeneratedData data = BenchmarkDataGenerator.generate(Benchmark.TPCDS, scale,
                TpcdsQuery2.TABLES, 2, new GenerationProgress());
        try (Troupe troupe = Troupe.start(TroupeSettings.load())) {
            data.tables().forEach(troupe::register);
            Plan join = salesJoinDates();
            Plan[] plans = {join.aggregate(List.of(), count().as("n")), wswscs(join), TpcdsQuery2.plan()};
            String[] names = {"join+count", "join+aggregate", "q2"};
            int[] workers = {0, 1};
            double[][][] seconds = new double[plans.length][workers.length][runs];
            for (int round = -3; round < runs; round++) {
                for (int p = 0; p < plans.length; p++) {
                    for (int w = 0; w < workers.length; w++) {
                        long t0 = System.nanoTime();
                        troupe.execute(plans[p], QueryOptions.defaults().withWorkers(workers[w]));
                        if (round >= 0) {
                            seconds[p][w][round] = (System.nanoTime() - t0) / 1e9;
                        }
                    }
                }
            }
            System.out.printf("scale %s, %d runs, median ms%n", scale, runs);
            for (int p = 0; p < plans.length; p++) {
                for (int w = 0; w < workers.length; w++) {
                    double[] s = seconds[p][w].clone();
                    Arrays.sort(s);
                    System.out.printf("%-16s workers %d  %8.1f  (min %.1f max %.1f)%n", names[p], workers[w],
                            s[runs / 2] * 1e3, s[0] * 1e3, s[runs - 1] * 1e3);
                }
            }
            System.out.println(troupe.explainAnalyze(TpcdsQuery2.plan(), QueryOptions.defaults().withWorkers(1))
                    .render());
            if (profileDir != null) {
                BaselineProfile.Summary summary = BaselineProfile.record(profileDir, "w3", () -> {
                    for (int i = 0; i < 20; i++) {
                        troupe.execute(TpcdsQuery2.plan(), QueryOptions.defaults().withWorkers(0));
                    }
                });
                System.out.println(summary.text());
            }
        }
    }

    /** The sales union joined with date_dim, as q2's wswscs reads it. */
    private static Plan salesJoinDates() {
        Plan wscs = Plan.scan("web_sales")
                .project(col("ws_sold_date_sk").as("sold_date_sk"), col("ws_ext_sales_price").as("sales_price"))
                .unionAll(Plan.scan("catalog_sales")
                        .project(col("cs_sold_date_sk").as("sold_date_sk"),
                                col("cs_ext_sales_price").as("sales_price")))
                .as("wscs");
        Plan dates = Plan.scan("date_dim")
                .project(col("d_date_sk"), col("d_week_seq"), col("d_day_name"))
                .as("d");
        return wscs.join(dates, JoinType.INNER, col("wscs.sold_date_sk").eq(col("d.d_date_sk")));
    }

    /** wswscs over {@code join}: the week's sales per day of the week. */
    private static Plan wswscs(Plan join) {
        List<Expr> sums = new ArrayList<>();
        for (String day : DAYS) {
            sums.add(sum(caseWhen(col("d.d_day_name").eq(lit(day)), col("wscs.sales_price")).end()).as(day));
        }
        return join.aggregate(List.of(col("d.d_week_seq").as("d_week_seq")), sums.toArray(Expr[]::new));
    }

    private W3KernelsMain() {
    }
}
