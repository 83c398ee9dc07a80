package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;

import java.util.List;

/**
 * Troupe as a bench engine: the bench's tables registered as they are, queries run with
 * {@link QueryOptions#withWorkers}, 0 meaning the leader alone. The time covers compiling the plan,
 * running it and collecting its batches; the checksum is computed afterwards, untimed.
 *
 * <p>Not threadsafe (see {@link BenchEngine}); owns its {@link Troupe} and closes it.
 */
final class TroupeBenchEngine implements BenchEngine {

    private final Troupe troupe = Troupe.start();

    @Override
    public String id() {
        return "troupe";
    }

    @Override
    public int minWorkers() {
        return 0;
    }

    @Override
    public void load(BenchWorkload workload, BenchSize size, List<Table> tables) {
        for (Table table : tables) {
            troupe.register(table);
        }
    }

    @Override
    public BenchOutcome run(BenchWorkload workload, int workers) {
        return time(troupe, workload.query(), workers);
    }

    /**
     * Runs {@code plan} on {@code troupe} with {@code workers} (0: the leader alone), timing the
     * query only; the checksum is computed afterwards, untimed. Shared with the ablation, whose
     * Troupes each run under other settings.
     */
    static BenchOutcome time(Troupe troupe, Plan plan, int workers) {
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        long t0 = System.nanoTime();
        QueryResult result = troupe.execute(plan, options);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new BenchOutcome(seconds, result.rowCount(), BenchOutcome.checksum(result));
    }

    @Override
    public void unload(BenchWorkload workload) {
        for (String table : workload.tableNames()) {
            troupe.catalog().drop(table);
        }
    }

    @Override
    public void close() {
        troupe.close();
    }
}
