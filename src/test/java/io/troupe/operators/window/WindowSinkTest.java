package io.troupe.operators.window;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.sort.OrderKey;
import io.troupe.operators.types.DataType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The window's sink and source as the workers drive them: each worker's local on its own thread, then several
 * readers on their own threads claiming parts, against a plain-Java window over the same rows (g INT32 and k
 * INT32 with NULLs and ties, v INT64 with NULLs): every row once, with ranks and sums that do not depend on the
 * order of tied rows; batches within the batch size; every reserved byte given back; without PARTITION BY one
 * reader computing everything; over the budget, the budget's error.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WindowSinkTest {

    private static final int BATCH = 50;

    private static WindowSpec spec(boolean partitioned) {
        ColumnExpression k = new ColumnExpression(1, DataType.INT32, "k");
        List<WindowCallSpec> calls = List.of(
                new WindowCallSpec(WindowFunction.RANK, -1, -1, 0, WindowFrame.DEFAULT, false, DataType.INT64,
                        "rank()"),
                new WindowCallSpec(WindowFunction.DENSE_RANK, -1, -1, 0, WindowFrame.DEFAULT, false, DataType.INT64,
                        "dense_rank()"),
                new WindowCallSpec(WindowFunction.SUM, 2, -1, 0, WindowFrame.DEFAULT, false, DataType.INT64,
                        "sum(v)"),
                new WindowCallSpec(WindowFunction.COUNT, 2, -1, 0,
                        WindowFrame.rows(FrameBound.UNBOUNDED_PRECEDING, FrameBound.UNBOUNDED_FOLLOWING), false,
                        DataType.INT64, "count(v)"),
                new WindowCallSpec(WindowFunction.MAX, 2, -1, 0,
                        WindowFrame.range(FrameBound.CURRENT_ROW, FrameBound.CURRENT_ROW), false, DataType.INT64,
                        "max(v)"));
        return new WindowSpec(3, partitioned ? new int[] {0} : new int[0], List.of(new OrderKey(k, true, false)),
                calls, "Window test");
    }

    @Test
    void shouldComputeEveryPartitionOnceAcrossWorkersAndReaders() throws Exception {
        List<List<Batch>> perWorker = workload(4, 3_000, new Random(7));
        MemoryArena arena = new MemoryArena(TroupeSettings.Memory.MIN_CHUNK_BYTES, 0, Long.MAX_VALUE);
        ExecContext ctx = new ExecContext(1, BATCH, arena.forQuery(1));
        List<List<String>> byReader = run(spec(true), perWorker, ctx, 3);
        List<String> rows = new ArrayList<>();
        byReader.forEach(rows::addAll);
        rows.sort(null);
        assertEquals(expected(perWorker, true), rows);
        assertTrue(byReader.stream().filter(r -> !r.isEmpty()).count() > 1, "only one reader computed parts");
        assertEquals(0, ctx.memory().reservations().get(0).heldBytes(), "the window's rows and work given back");
    }

    @Test
    void shouldComputeAWindowWithoutPartitionsOnOneReader() throws Exception {
        List<List<Batch>> perWorker = workload(3, 1_000, new Random(8));
        ExecContext ctx = new ExecContext(1, BATCH);
        List<List<String>> byReader = run(spec(false), perWorker, ctx, 3);
        assertEquals(1, byReader.stream().filter(r -> !r.isEmpty()).count(), "readers with rows");
        List<String> rows = new ArrayList<>();
        byReader.forEach(rows::addAll);
        rows.sort(null);
        assertEquals(expected(perWorker, false), rows);
    }

    @Test
    void shouldFailOverTheBudgetNamingTheWindow() {
        MemoryArena arena = new MemoryArena(TroupeSettings.Memory.MIN_CHUNK_BYTES, 0, Long.MAX_VALUE);
        ExecContext ctx = new ExecContext(1, BATCH, arena.forQuery(1, 64 * 1024));
        Sink.SinkState state = new WindowSink(spec(true), new StateKey<>("window", WindowParts.class)).open(ctx);
        BatchConsumer local = state.local();
        QueryFailedException e = assertThrows(QueryFailedException.class, () -> {
            for (Batch b : workload(1, 20_000, new Random(9)).get(0)) {
                local.accept(b);
            }
        });
        assertTrue(e.getMessage().contains("Window test"), e.getMessage());
        ctx.release();
        assertEquals(0, arena.inUseBytes());
    }

    /** Every worker's batches through its own local on its own thread; then {@code readers} readers on theirs. */
    private static List<List<String>> run(WindowSpec spec, List<List<Batch>> perWorker, ExecContext ctx, int readers)
            throws Exception {
        StateKey<WindowParts> key = new StateKey<>("window", WindowParts.class);
        Sink.SinkState state = new WindowSink(spec, key).open(ctx);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(readers, perWorker.size()));
        try {
            List<Future<?>> fed = new ArrayList<>();
            for (List<Batch> batches : perWorker) {
                fed.add(pool.submit(() -> {
                    BatchConsumer local = state.local();
                    batches.forEach(local::accept);
                    local.finish();
                }));
            }
            for (Future<?> f : fed) {
                f.get();
            }
            state.finalizeSink();
            Source.SourceState source = new WindowSource(key).open(ctx);
            List<Future<List<String>>> read = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                Source.SourceReader reader = source.reader();
                read.add(pool.submit(() -> {
                    List<String> rows = new ArrayList<>();
                    for (Batch b = reader.next(); b != null; b = reader.next()) {
                        assertTrue(b.size() > 0 && b.size() <= BATCH, "batch of " + b.size());
                        for (int i = 0; i < b.size(); i++) {
                            rows.add(Arrays.toString(b.rowObjects(i)));
                        }
                    }
                    return rows;
                }));
            }
            List<List<String>> out = new ArrayList<>();
            for (Future<List<String>> f : read) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdown();
        }
    }

    /** Batches of 1..97 rows per worker: g of 25 values or NULL, k of 6 values or NULL, v or NULL. */
    private static List<List<Batch>> workload(int workers, int rowsEach, Random random) {
        List<List<Batch>> out = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            List<Batch> batches = new ArrayList<>();
            for (int done = 0; done < rowsEach; ) {
                int n = Math.min(rowsEach - done, 1 + random.nextInt(97));
                IntVector g = new IntVector(DataType.INT32, n);
                IntVector k = new IntVector(DataType.INT32, n);
                LongVector v = new LongVector(DataType.INT64, n);
                for (int i = 0; i < n; i++) {
                    g.set(i, random.nextInt(25));
                    k.set(i, random.nextInt(6));
                    v.set(i, random.nextInt(1000) - 300);
                    if (random.nextInt(20) == 0) {
                        g.setNull(i);
                    }
                    if (random.nextInt(10) == 0) {
                        k.setNull(i);
                    }
                    if (random.nextInt(8) == 0) {
                        v.setNull(i);
                    }
                }
                batches.add(Batch.of(n, g, k, v));
                done += n;
            }
            out.add(batches);
        }
        return out;
    }

    /** The window in plain Java: rank, dense_rank, sum up to the last peer, the partition's count, the peers' max. */
    private static List<String> expected(List<List<Batch>> perWorker, boolean partitioned) {
        List<Object[]> rows = new ArrayList<>();
        for (List<Batch> batches : perWorker) {
            for (Batch b : batches) {
                for (int i = 0; i < b.size(); i++) {
                    rows.add(b.rowObjects(i));
                }
            }
        }
        Map<Object, List<Object[]>> partitions = new HashMap<>();
        for (Object[] r : rows) {
            partitions.computeIfAbsent(partitioned ? Objects.toString(r[0]) : "", x -> new ArrayList<>()).add(r);
        }
        List<String> out = new ArrayList<>();
        for (List<Object[]> p : partitions.values()) {
            // k ascending, NULLs last
            p.sort((a, b) -> a[1] == null ? (b[1] == null ? 0 : 1) : b[1] == null ? -1
                    : Integer.compare((Integer) a[1], (Integer) b[1]));
            long count = p.stream().filter(r -> r[2] != null).count();
            Long sum = null;
            long dense = 0;
            for (int start = 0; start < p.size(); ) {
                int end = start;
                Long max = null;
                dense++;
                while (end < p.size() && Objects.equals(p.get(end)[1], p.get(start)[1])) {
                    Long v = (Long) p.get(end)[2];
                    if (v != null) {
                        sum = (sum == null ? 0 : sum) + v;
                        max = max == null ? v : Math.max(max, v);
                    }
                    end++;
                }
                for (int i = start; i < end; i++) {
                    Object[] r = p.get(i);
                    out.add(Arrays.toString(new Object[] {r[0], r[1], r[2], (long) start + 1, dense, sum, count, max}));
                }
                start = end;
            }
        }
        out.sort(null);
        return out;
    }
}
