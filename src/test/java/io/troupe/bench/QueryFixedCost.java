package io.troupe.bench;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.Schema;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * What a query costs beyond its rows: an aggregate, a join and a three-way star join over tables of 100 rows,
 * planned once and run over and over at each worker count (the pipelines' worker spawn, binding and barrier
 * rounds, the Gather's channels, the result). Prints the median, 10th and 90th percentile per query and worker
 * count.
 *
 * <p>Usage: {@code QueryFixedCost [runs] [workers ...]} (default 300 runs at 1, 2, 8 and 16 workers, after as many
 * warm-up runs); see docs/performance.md.
 */
public final class QueryFixedCost {

    private static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("aggregate", "SELECT k1, SUM(v) FROM f GROUP BY k1");
        QUERIES.put("join", "SELECT d1.k2, SUM(f.v) FROM f JOIN d1 ON f.k1 = d1.id GROUP BY d1.k2");
        QUERIES.put("star join", "SELECT d1.k2, d2.k2, SUM(f.v) FROM f JOIN d1 ON f.k1 = d1.id "
                + "JOIN d2 ON f.k2 = d2.id JOIN d3 ON f.k3 = d3.id WHERE d3.v < 50 GROUP BY d1.k2, d2.k2");
    }

    private QueryFixedCost() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int[] workers = args.length > 1 ? Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {1, 2, 8, 16};
        try (Troupe troupe = Troupe.start(TroupeSettings.load())) {
            Random random = new Random(3);
            for (String name : new String[] {"f", "d1", "d2", "d3"}) {
                TableBuilder table = new TableBuilder(name,
                        Schema.parse("id INT32 NOT NULL,k1 INT32,k2 INT32,k3 INT32,v INT64"));
                for (int row = 0; row < 100; row++) {
                    table.addRow(row, random.nextInt(100), random.nextInt(100), random.nextInt(100), (long) row);
                }
                troupe.register(table.build());
            }
            for (int w : workers) {
                QueryOptions options = QueryOptions.defaults().withWorkers(w);
                for (Map.Entry<String, String> query : QUERIES.entrySet()) {
                    Plan plan = troupe.planSql(query.getValue());
                    long[] nanos = new long[runs];
                    for (int run = -runs; run < runs; run++) {
                        long start = System.nanoTime();
                        troupe.execute(plan, options);
                        if (run >= 0) {
                            nanos[run] = System.nanoTime() - start;
                        }
                    }
                    Arrays.sort(nanos);
                    System.out.printf("%2d workers  %-10s median %7.3f ms  p10 %7.3f  p90 %7.3f%n", w, query.getKey(),
                            nanos[runs / 2] / 1e6, nanos[runs / 10] / 1e6, nanos[runs * 9 / 10] / 1e6);
                }
            }
        }
    }
}
