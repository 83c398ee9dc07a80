package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;

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
        return new BenchOutcome(seconds, result.rowCount(), checksum(result));
    }

    /**
     * The sum of every numeric value in {@code result}, column by column: INT32 columns are summed
     * straight from their arrays (a result of millions of narrow rows, as the ablation's Gather
     * returns, is not boxed row by row), any other column value by value as
     * {@link BenchOutcome#numeric} reads it.
     */
    private static BigDecimal checksum(QueryResult result) {
        BigDecimal checksum = BigDecimal.ZERO;
        for (Batch batch : result.batches()) {
            for (int c = 0; c < batch.columnCount(); c++) {
                ColumnVector column = batch.column(c);
                if (column instanceof IntVector ints && ints.type().equals(DataType.INT32)) {
                    // A batch holds at most 2^20 rows (troupe.batch-size's limit) of at most 2^31: no overflow.
                    long sum = 0;
                    for (int i = 0; i < batch.size(); i++) {
                        int row = batch.row(i);
                        if (!ints.isNull(row)) {
                            sum += ints.get(row);
                        }
                    }
                    checksum = checksum.add(BigDecimal.valueOf(sum));
                } else {
                    for (int i = 0; i < batch.size(); i++) {
                        BigDecimal n = BenchOutcome.numeric(column.getObject(batch.row(i)));
                        if (n != null) {
                            checksum = checksum.add(n);
                        }
                    }
                }
            }
        }
        return checksum;
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
