package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The sink and source protocol of the hash aggregate with several workers at once: locals that
 * aggregate on their own threads and finish together, readers that split the output, batches
 * with selection vectors. The reference is the same aggregation by one worker.
 */
@Timeout(60)
class HashAggregateSinkTest {

    private static final Schema SCHEMA = Schema.of(
            Field.of("id", DataType.INT64), Field.of("name", DataType.VARCHAR), Field.of("v", DataType.INT32));

    private static Table input() {
        TableBuilder b = new TableBuilder("in", SCHEMA, 1000);
        for (int j = 0; j < 60_000; j++) {
            b.addRow(j % 7 == 0 ? null : (long) (j % 5003), "n" + (j % 11), j % 13 == 0 ? null : j % 1000);
        }
        return b.build();
    }

    private static ColumnExpression column(int index) {
        return new ColumnExpression(index, SCHEMA.type(index), SCHEMA.field(index).name());
    }

    private static List<AggregateSpec> aggregates() {
        return List.of(
                new AggregateSpec(AggregateFunction.COUNT_STAR, null, false, DataType.INT64, "count(*)"),
                new AggregateSpec(AggregateFunction.SUM, column(2), false, DataType.INT64, "sum(v)"),
                new AggregateSpec(AggregateFunction.COUNT, column(2), false, DataType.INT64, "count(v)"),
                new AggregateSpec(AggregateFunction.MAX, column(1), false, DataType.VARCHAR, "max(name)"),
                new AggregateSpec(AggregateFunction.AVG, column(2), false, DataType.FLOAT64, "avg(v)"));
    }

    /** Every other row of each chunk, as a selection vector: the shape a filter leaves. */
    private static List<Batch> oddRows(Table table) {
        List<Batch> out = new ArrayList<>();
        for (Batch chunk : table.chunks()) {
            int[] sel = new int[chunk.size() / 2];
            for (int i = 0; i < sel.length; i++) {
                sel[i] = 2 * i + 1;
            }
            out.add(chunk.withSelection(sel, sel.length));
        }
        return out;
    }

    /**
     * Aggregates {@code batches} with {@code workers} threads taking batches from a shared counter,
     * finishing at the same moment, then reads the output with {@code readers} threads.
     */
    private static List<List<Object>> run(List<Expression> keys, List<Batch> batches, int workers, int readers)
            throws Exception {
        return run(keys, aggregates(), batches, workers, readers, PartialAggregation.SPLIT_AT);
    }

    /** As above, then every worker takes merge units until none is left, as the executor has them do. */
    private static List<List<Object>> run(List<Expression> keys, List<AggregateSpec> aggregates, List<Batch> batches,
                                          int workers, int readers, int splitAt) throws Exception {
        return run(new ExecContext(1, 500), new StateKey<>("agg", AggregateResult.class), keys, aggregates, batches,
                workers, readers, splitAt);
    }

    /** As above, in {@code ctx} (its memory and spill files), publishing the result under {@code key}. */
    static List<List<Object>> run(ExecContext ctx, StateKey<AggregateResult> key, List<Expression> keys,
                                  List<AggregateSpec> aggregates, List<Batch> batches, int workers, int readers,
                                  int splitAt) throws Exception {
        Sink.SinkState state = new HashAggregateSink(keys, aggregates, key, AggregateStep.COMPLETE, splitAt).open(ctx);
        AtomicInteger next = new AtomicInteger();
        CyclicBarrier allDone = new CyclicBarrier(workers);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(workers, readers));
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                running.add(pool.submit(() -> {
                    BatchConsumer local = state.local();
                    int b;
                    while ((b = next.getAndIncrement()) < batches.size()) {
                        local.accept(batches.get(b));
                    }
                    allDone.await();
                    local.finish();
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            FinalizeWork merge = state.prepareFinalize();
            List<Future<?>> merging = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                merging.add(pool.submit(() -> {
                    while (merge.step()) {
                        ctx.checkCancelled();
                    }
                    return null;
                }));
            }
            for (Future<?> f : merging) {
                f.get();
            }
            state.finalizeSink();
            Source.SourceState output = new HashAggregateSource(key).open(ctx);
            List<Future<List<List<Object>>>> reading = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                reading.add(pool.submit(() -> {
                    Source.SourceReader reader = output.reader();
                    List<List<Object>> rows = new ArrayList<>();
                    Batch batch;
                    while ((batch = reader.next()) != null) {
                        for (int i = 0; i < batch.size(); i++) {
                            rows.add(Arrays.asList(batch.rowObjects(i)));
                        }
                    }
                    return rows;
                }));
            }
            List<List<Object>> all = new ArrayList<>();
            for (Future<List<List<Object>>> f : reading) {
                all.addAll(f.get());
            }
            assertEquals(ctx.lookup(key).rowCount(), all.size(), "every group read exactly once");
            assertThrows(IllegalStateException.class, state::finalizeSink);
            return DuckDbOracle.canonical(all);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldMergeWorkersThatFinishTogether() throws Exception {
        List<Batch> batches = input().chunks();
        for (List<Expression> keys : List.<List<Expression>>of(
                List.of(column(0)), List.of(column(1), column(0)), List.of())) {
            List<List<Object>> one = run(keys, batches, 1, 1);
            assertEquals(one, run(keys, batches, 4, 3), "keys " + keys);
        }
    }

    /**
     * Partials that split into partitions, merged partition by partition by four workers at once, agree with DuckDB, as does one worker; with
     * a threshold near the partials' size, some split and some do not.
     */
    @Test
    void shouldMergeManyGroupsPartitionByPartition() throws Exception {
        List<Object[]> rows = new ArrayList<>();
        TableBuilder b = new TableBuilder("in", SCHEMA, 1000);
        for (int j = 0; j < 120_000; j++) {
            Object[] row = {j % 97 == 0 ? null : (long) (j % 70_001), "n" + (j % 3), j % 13 == 0 ? null : j % 1000};
            rows.add(row);
            b.addRow(row);
        }
        List<Batch> batches = b.build().chunks();
        List<AggregateSpec> aggregates = List.of(
                new AggregateSpec(AggregateFunction.COUNT_STAR, null, false, DataType.INT64, "count(*)"),
                new AggregateSpec(AggregateFunction.SUM, column(2), false, DataType.INT64, "sum(v)"),
                new AggregateSpec(AggregateFunction.MIN, column(1), false, DataType.VARCHAR, "min(name)"),
                new AggregateSpec(AggregateFunction.AVG, column(2), false, DataType.FLOAT64, "avg(v)"));
        try (DuckDbOracle duck = new DuckDbOracle()) {
            duck.load("t", SCHEMA, rows);
            for (int splitAt : new int[] {1024, 20_000}) {
                for (int workers : new int[] {1, 4}) {
                    duck.assertSameRows("SELECT id, count(*), sum(v), min(name), avg(v) FROM t GROUP BY id",
                            run(List.of(column(0)), aggregates, batches, workers, 2, splitAt));
                    duck.assertSameRows("SELECT name, id, count(*), sum(v), min(name), avg(v) FROM t GROUP BY name, id",
                            run(List.of(column(1), column(0)), aggregates, batches, workers, 2, splitAt));
                }
            }
            // One partial that split and one that cannot have (its one batch of 1000 rows holds fewer
            // groups than 1024): the small one joins the merge partition by partition.
            duck.assertSameRows("SELECT id, count(*), sum(v), min(name), avg(v) FROM t GROUP BY id",
                    runSkewed(List.of(column(0)), aggregates, batches, 1024));
        }
    }

    /** Two workers on one thread: the first aggregates every batch but the last, the second only the last. */
    private static List<List<Object>> runSkewed(List<Expression> keys, List<AggregateSpec> aggregates,
                                                List<Batch> batches, int splitAt) {
        StateKey<AggregateResult> key = new StateKey<>("agg", AggregateResult.class);
        ExecContext ctx = new ExecContext(1, 500);
        Sink.SinkState state = new HashAggregateSink(keys, aggregates, key, AggregateStep.COMPLETE, splitAt).open(ctx);
        BatchConsumer large = state.local();
        BatchConsumer small = state.local();
        for (Batch batch : batches.subList(0, batches.size() - 1)) {
            large.accept(batch);
        }
        small.accept(batches.get(batches.size() - 1));
        large.finish();
        small.finish();
        return mergeAndRead(ctx, state, key);
    }

    /** Once every worker finished: merges on this thread, publishes under {@code key} and reads the rows back. */
    static List<List<Object>> mergeAndRead(ExecContext ctx, Sink.SinkState state, StateKey<AggregateResult> key) {
        FinalizeWork merge = state.prepareFinalize();
        while (merge.step()) {
            ctx.checkCancelled();
        }
        state.finalizeSink();
        Source.SourceReader reader = new HashAggregateSource(key).open(ctx).reader();
        List<List<Object>> rows = new ArrayList<>();
        Batch batch;
        while ((batch = reader.next()) != null) {
            for (int i = 0; i < batch.size(); i++) {
                rows.add(Arrays.asList(batch.rowObjects(i)));
            }
        }
        return rows;
    }

    @Test
    void shouldRejectCountDistinctWhichRunsAsPlainAggregatesInSteps() {
        AggregateSpec distinct = new AggregateSpec(AggregateFunction.COUNT, column(2), true, DataType.INT64,
                "count(DISTINCT v)");
        StateKey<AggregateResult> key = new StateKey<>("agg", AggregateResult.class);
        assertEquals("count(DISTINCT v): count(DISTINCT) runs as plain aggregates in steps (AggregateStep), "
                + "not in one sink", assertThrows(IllegalArgumentException.class,
                        () -> new HashAggregateSink(List.of(column(0)), List.of(distinct), key)).getMessage());
    }

    @Test
    void shouldRejectFinalizingBeforeTheMergeRan() {
        StateKey<AggregateResult> key = new StateKey<>("agg", AggregateResult.class);
        Sink.SinkState state = new HashAggregateSink(List.of(column(0)), aggregates(), key).open(new ExecContext(1, 500));
        BatchConsumer local = state.local();
        local.accept(input().chunks().get(0));
        local.finish();
        assertEquals("finalizeSink in phase AGGREGATING, expected MERGING: agg",
                assertThrows(IllegalStateException.class, state::finalizeSink).getMessage());
        state.prepareFinalize();
        assertEquals("finalizeSink before every merge unit ran: agg",
                assertThrows(IllegalStateException.class, state::finalizeSink).getMessage());
    }

    @Test
    void shouldAggregateOnlyTheSelectedRows() throws Exception {
        Table table = input();
        List<Batch> selected = oddRows(table);
        List<Batch> compacted = new ArrayList<>();
        for (Batch b : selected) {
            compacted.add(b.compact());
        }
        for (List<Expression> keys : List.<List<Expression>>of(
                List.of(column(0)), List.of(column(1), column(0)), List.of())) {
            assertEquals(run(keys, compacted, 1, 1), run(keys, selected, 3, 2), "keys " + keys);
        }
        assertEquals(BigDecimal.valueOf(30_000), run(List.of(), selected, 2, 1).get(0).get(0), "count(*)");
    }
}
