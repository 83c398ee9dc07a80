package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sort sink as several workers drive it: each worker's local on its own thread, one run per
 * worker, merged by the sorted source's single reader.
 */
class SortSinkTest {

    /** Rows (k BIGINT nullable, id INT) sorted by k DESC NULLS FIRST, id ASC: a total order. */
    private static final Comparator<long[]> ORDER = Comparator
            .<long[]>comparingInt(r -> r[1] == 1 ? 0 : 1)
            .thenComparing(Comparator.<long[]>comparingLong(r -> r[0]).reversed())
            .thenComparingLong(r -> r[2]);

    private final SortSpec spec = new SortSpec(List.of(
            new OrderKey(new ColumnExpression(0, DataType.INT64, "k"), false, true),
            new OrderKey(new ColumnExpression(1, DataType.INT32, "id"), true, false)), 2, "Sort k DESC, id");

    @Test
    void shouldMergeOneRunPerWorker() throws Exception {
        List<List<Batch>> perWorker = workload(4, 2_000, new Random(5));
        List<long[]> expected = allRows(perWorker);
        expected.sort(ORDER);
        StateKey<SortedResult> key = new StateKey<>("sort", SortedResult.class);
        ExecContext ctx = new ExecContext(1, 100);
        drive(SortSink.sort(spec, key), perWorker, ctx);
        assertEquals(expected.stream().map(SortSinkTest::describe).toList(), read(key, ctx, 100));
    }

    @Test
    void shouldKeepOnlyTheTopRowsOfEveryWorker() throws Exception {
        List<List<Batch>> perWorker = workload(3, 12_000, new Random(6));
        List<long[]> expected = allRows(perWorker);
        expected.sort(ORDER);
        for (long[] limit : new long[][] {{25, 10}, {1, 0}, {5000, 3}, {40, 35_990}}) {
            StateKey<SortedResult> key = new StateKey<>("topn", SortedResult.class);
            ExecContext ctx = new ExecContext(1, 7);
            drive(SortSink.topN(spec, limit[0], limit[1], key), perWorker, ctx);
            int from = (int) Math.min(expected.size(), limit[1]);
            int to = (int) Math.min(expected.size(), limit[1] + limit[0]);
            assertEquals(expected.subList(from, to).stream().map(SortSinkTest::describe).toList(), read(key, ctx, 7),
                    "limit " + limit[0] + " offset " + limit[1]);
        }
    }

    @Test
    void shouldStopTheProducerAtLimitZero() {
        StateKey<SortedResult> key = new StateKey<>("topn", SortedResult.class);
        ExecContext ctx = new ExecContext(1, 7);
        Sink.SinkState state = SortSink.topN(spec, 0, 4, key).open(ctx);
        BatchConsumer local = state.local();
        assertFalse(local.accept(workload(1, 10, new Random(1)).get(0).get(0)));
        local.finish();
        state.finalizeSink();
        assertEquals(List.of(), read(key, ctx, 7));
    }

    /** Runs every worker's batches through its own local on its own thread, then finalizes. */
    private static void drive(Sink sink, List<List<Batch>> perWorker, ExecContext ctx) throws Exception {
        Sink.SinkState state = sink.open(ctx);
        ExecutorService pool = Executors.newFixedThreadPool(perWorker.size());
        try {
            List<Future<?>> done = new ArrayList<>();
            for (List<Batch> batches : perWorker) {
                done.add(pool.submit(() -> {
                    BatchConsumer local = state.local();
                    for (Batch b : batches) {
                        assertTrue(local.accept(b));
                    }
                    local.finish();
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        state.finalizeSink();
    }

    /** Reads the sorted result with two readers: the first gets every row, the second none. */
    private static List<String> read(StateKey<SortedResult> key, ExecContext ctx, int batchSize) {
        Source.SourceState state = new SortedSource(key).open(ctx);
        Source.SourceReader first = state.reader();
        Source.SourceReader second = state.reader();
        assertNull(second.next(), "a second reader of a sorted result must get nothing");
        List<String> rows = new ArrayList<>();
        Batch b;
        while ((b = first.next()) != null) {
            assertTrue(b.size() > 0 && b.size() <= batchSize, "batch of " + b.size());
            for (int i = 0; i < b.size(); i++) {
                rows.add(Arrays.toString(b.rowObjects(i)));
            }
        }
        return rows;
    }

    private static String describe(long[] row) {
        return Arrays.toString(new Object[] {row[1] == 1 ? null : row[0], (int) row[2]});
    }

    /** Rows as {k, isNull, id}, from every worker. */
    private static List<long[]> allRows(List<List<Batch>> perWorker) {
        List<long[]> rows = new ArrayList<>();
        for (List<Batch> batches : perWorker) {
            for (Batch b : batches) {
                for (int i = 0; i < b.size(); i++) {
                    Object[] values = b.rowObjects(i);
                    rows.add(new long[] {values[0] == null ? 0 : (Long) values[0], values[0] == null ? 1 : 0,
                        (Integer) values[1]});
                }
            }
        }
        return rows;
    }

    /**
     * {@code workers} lists of batches of (k, id), every other batch with a selection vector
     * that drops some rows; k has duplicates and NULLs, id is unique.
     */
    private static List<List<Batch>> workload(int workers, int rowsPerWorker, Random random) {
        List<List<Batch>> out = new ArrayList<>();
        int id = 0;
        for (int w = 0; w < workers; w++) {
            List<Batch> batches = new ArrayList<>();
            int left = rowsPerWorker;
            while (left > 0) {
                int n = Math.min(left, 1 + random.nextInt(700));
                left -= n;
                VectorBuilder k = new VectorBuilder(DataType.INT64, n);
                VectorBuilder ids = new VectorBuilder(DataType.INT32, n);
                for (int i = 0; i < n; i++) {
                    if (random.nextInt(9) == 0) {
                        k.appendNull();
                    } else {
                        k.appendLong(random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(100));
                    }
                    ids.appendInt(id++);
                }
                Batch b = Batch.of(n, new ColumnVector[] {k.build(), ids.build()});
                batches.add(batches.size() % 2 == 1 ? dropSome(b, 4, random) : b);
            }
            out.add(batches);
        }
        return out;
    }

    /** {@code batch} with a selection that drops about one row in {@code oneIn}. */
    static Batch dropSome(Batch batch, int oneIn, Random random) {
        int[] selection = new int[batch.size()];
        int kept = 0;
        for (int i = 0; i < batch.size(); i++) {
            if (random.nextInt(oneIn) != 0) {
                selection[kept++] = i;
            }
        }
        return batch.withSelection(selection, kept);
    }
}
