package io.troupe.actors.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.table.Table;

import java.math.BigDecimal;
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
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        long t0 = System.nanoTime();
        QueryResult result = troupe.execute(workload.query(), options);
        double seconds = (System.nanoTime() - t0) / 1e9;
        BigDecimal checksum = BigDecimal.ZERO;
        for (List<Object> row : result.rows()) {
            for (Object value : row) {
                BigDecimal n = BenchOutcome.numeric(value);
                if (n != null) {
                    checksum = checksum.add(n);
                }
            }
        }
        return new BenchOutcome(seconds, result.rowCount(), checksum);
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
