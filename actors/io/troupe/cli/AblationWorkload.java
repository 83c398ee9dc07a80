package io.troupe.cli;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.Tables;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.sum;

/**
 * A workload of {@code troupe bench --ablation}: the tables it reads, made once and registered as
 * they are into the Troupe of every setting, and the query it times. Either one of the bench's
 * workloads ({@link #of}) or one the ablation adds to make a lesson's effect visible:
 * {@link #RIGHT_JOIN} (lesson 1's match flags) and {@link #GATHER} (lesson 3's transport).
 * Immutable.
 *
 * @param id       the name in ablation.csv and the printed table
 * @param tables   makes the tables at a bench size
 * @param query    the query timed, as a Troupe plan
 * @param settings what the workload needs of Troupe's settings beyond its lesson's switch (applied
 *                 before the switch, to every setting alike): the identity but for {@link #GATHER}
 */
record AblationWorkload(String id, TableMaker tables, Supplier<Plan> query, UnaryOperator<TroupeSettings> settings) {

    /** Makes a workload's tables; {@code progress} takes lines for stderr while it works. */
    @FunctionalInterface
    interface TableMaker {
        List<Table> make(BenchSize size, PrintWriter progress) throws Exception;
    }

    /**
     * Rows of the right join's dimension. Small enough that its match flags fit in a few cache
     * lines (1,000 bytes), so that every prober writes the same lines when always-write stores the
     * flag on each match; every dimension row is matched rows / 1,000 times, from all workers.
     */
    static final int DIMENSION_ROWS = 1_000;

    /**
     * Lesson 1: {@code select count(*), sum(d.k) from fact f right join dim d on f.fk = d.k}, a fact
     * table of N rows whose key cycles over the dimension's 1..1,000. Troupe builds the right input,
     * so the hash table holds the small dimension and its match flags, and the N fact rows probe it.
     */
    static final AblationWorkload RIGHT_JOIN = new AblationWorkload("right-join",
            (size, progress) -> List.of(intTable("fact", "fk", size.rows(), DIMENSION_ROWS),
                    intTable("dim", "k", DIMENSION_ROWS, DIMENSION_ROWS)),
            () -> Plan.scan("fact").as("f")
                    .join(Plan.scan("dim").as("d"), JoinType.RIGHT, col("f.fk").eq(col("d.k")))
                    .aggregate(List.of(), count().as("count"), sum(col("d.k")).as("sum")),
            UnaryOperator.identity());

    /**
     * Lesson 3: {@code select v from g}, N rows of one INT32 column returned to the client, with
     * leader participation off, so that every row comes from a worker over the transport: a scan
     * morsel is a view of a table chunk, which the leader would otherwise run itself faster than a
     * worker can send it (10,000,000 rows in 2-5 ms, measured). The table is cut in chunks of
     * {@code troupe.batch-size} rows, so each morsel is one batch of the size operators emit.
     */
    static final AblationWorkload GATHER = new AblationWorkload("gather",
            (size, progress) -> List.of(Tables.fromColumnsChunked("g", Schema.of(Field.of("v", DataType.INT32)),
                    TroupeSettings.load().batchSize(), (Object) cycle(size.rows(), Integer.MAX_VALUE))),
            () -> Plan.scan("g"),
            s -> s.withWorkers(new TroupeSettings.Workers(s.workers().threads(), s.workers().defaultWorkers(),
                    false)));

    /** One of the bench's workloads, with its tables and query, under the settings as they are. */
    static AblationWorkload of(BenchWorkload workload) {
        return new AblationWorkload(workload.id(), workload::tables, workload::query, UnaryOperator.identity());
    }

    /** A table {@code name} of one INT32 column holding 1..cycle, 1..cycle, ... over {@code rows} rows. */
    private static Table intTable(String name, String column, long rows, int cycle) {
        return Tables.fromColumns(name, Schema.of(Field.of(column, DataType.INT32)), (Object) cycle(rows, cycle));
    }

    private static int[] cycle(long rows, int cycle) {
        int[] values = new int[Math.toIntExact(rows)];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % cycle + 1;
        }
        return values;
    }
}
