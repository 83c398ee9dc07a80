package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.spill.QuerySpill;
import io.troupe.operators.spill.SpillSpace;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

import static io.troupe.operators.sort.SortOracle.assertRows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sort over the memory budget, driven as the executors drive it (every worker's local on its own
 * thread, the finalize work shared by all, then one reader or one stream per worker merged as a
 * Gather Merge merges them): it spills sorted runs, merges them in passes when the budget holds too
 * few read buffers, and returns exactly the order one sort of every row gives; it holds what it
 * reserved, deletes each run once merged, and leaves no file and no memory however it ends.
 */
class SortSpillTest {

    /** Rows (s VARCHAR nullable, k BIGINT nullable, id INT unique) by s ASC NULLS LAST, k DESC NULLS FIRST, id. */
    private static final Comparator<Object[]> ORDER = Comparator
            .<Object[], String>comparing(r -> (String) r[0], Comparator.nullsLast(SortSpillTest::utf8Order))
            .thenComparing(r -> (Long) r[1], Comparator.nullsFirst(Comparator.<Long>reverseOrder()))
            .thenComparing(r -> (Integer) r[2]);

    private static final SortSpec SPEC = new SortSpec(List.of(
            new OrderKey(new ColumnExpression(0, DataType.VARCHAR, "s"), true, false),
            new OrderKey(new ColumnExpression(1, DataType.INT64, "k"), false, true),
            new OrderKey(new ColumnExpression(2, DataType.INT32, "id"), true, false)), 3, "Sort s, k DESC, id");

    private static final int BATCH = 256;

    @TempDir
    Path tmp;

    /** What one sort did. */
    private record Outcome(List<String> rows, long spilledByWorkers, long spilledInAll, long peakBytes, int filesLeft) {
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(120)
    void spillsAtAFractionOfItsPeakAndMergesInOrder(int workers) throws Exception {
        List<List<Batch>> input = workload(workers, 120_000 / workers, new Random(workers));
        List<String> expected = expected(input, 0, Long.MAX_VALUE);
        Outcome inMemory = sort(input, Long.MAX_VALUE, true, 0, Long.MAX_VALUE, 0);
        assertEquals(expected, inMemory.rows());
        assertEquals(0, inMemory.spilledInAll(), "nothing spills under no budget");
        // A spilling worker needs room to write a run besides its buffer (WRITE_ROOM), a pass room for
        // two runs' read buffers and a writer (about 1 MB): this input's peak is about 10 MB. At 1/20
        // (SortSpillQueryTest, a larger input) every fraction fits.
        for (long fraction : workers == 4 ? new long[] {4} : new long[] {4, 8}) {
            long budget = inMemory.peakBytes() / fraction;
            for (int streams : new int[] {0, workers}) {
                String what = "1/" + fraction + " of " + inMemory.peakBytes() + " bytes, "
                        + (streams == 0 ? "one reader" : streams + " streams");
                Outcome spilled = sort(input, budget, true, 0, Long.MAX_VALUE, streams);
                assertRows(expected, spilled.rows(), what);
                assertTrue(spilled.spilledByWorkers() > 0, "the workers spilled runs: " + what);
                assertTrue(spilled.peakBytes() <= budget, "held " + spilled.peakBytes() + " bytes: " + what);
                assertEquals(0, spilled.filesLeft(), "every run's file went once it was merged: " + what);
            }
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 4})
    @Timeout(120)
    void mergesInPassesWhenTheBudgetHoldsTooFewReadBuffers(int workers) throws Exception {
        List<List<Batch>> input = workload(workers, 160_000 / workers, new Random(10 + workers));
        List<String> expected = expected(input, 0, Long.MAX_VALUE);
        // Room for the workers' write buffers and a few read buffers: dozens of runs, merged a few at a time.
        long budget = workers * ExternalMerge.WRITE_ROOM + 1_600_000;
        for (int streams : new int[] {0, workers}) {
            Outcome spilled = sort(input, budget, true, 0, Long.MAX_VALUE, streams);
            assertRows(expected, spilled.rows(), "streams " + streams);
            assertTrue(spilled.spilledInAll() > spilled.spilledByWorkers(),
                    "passes rewrote runs: " + spilled.spilledByWorkers() + " bytes by the workers, "
                            + spilled.spilledInAll() + " in all");
            assertTrue(spilled.peakBytes() <= budget, "held " + spilled.peakBytes() + " bytes of " + budget);
        }
    }

    @Test
    @Timeout(120)
    void topNSpillsOnlyRowsBeforeItsBoundaryAndAppliesTheWindowOnce() throws Exception {
        List<List<Batch>> input = workload(3, 25_000, new Random(31));
        long[][] limits = {{40_000, 0}, {20_000, 17}, {10, 74_990}, {5, 0}, {Long.MAX_VALUE, 30_000}};
        for (long[] limit : limits) {
            List<String> expected = expected(input, limit[1], limit[0]);
            for (int streams : new int[] {0, 3}) {
                long budget = 3 * ExternalMerge.WRITE_ROOM + 1_000_000;
                Outcome spilled = sort(input, budget, true, limit[1], limit[0], streams);
                String what = "limit " + limit[0] + " offset " + limit[1] + ", streams " + streams;
                assertRows(expected, spilled.rows(), what);
                assertTrue(limit[0] < 1000 || spilled.spilledByWorkers() > 0, "spilled: " + what);
            }
        }
    }

    @Test
    @Timeout(60)
    void withSpillingOffFailsWithTheBudgetsErrorAndLeavesNothing() {
        List<List<Batch>> input = workload(2, 20_000, new Random(41));
        Exception e = assertThrows(Exception.class, () -> sort(input, 1_000_000, false, 0, Long.MAX_VALUE, 0));
        assertTrue(e.getCause() instanceof QueryFailedException, String.valueOf(e.getCause()));
        String message = e.getCause().getMessage();
        assertTrue(message.contains("Sort s, k DESC, id asked for "), message);
        assertTrue(message.contains("over troupe.memory.budget = 1000000 bytes"), message);
    }

    @Test
    @Timeout(60)
    void aCancelWhileSpillingOrMergingOrAFullSpillSpaceLeavesNoFileAndNoMemory() throws Exception {
        List<List<Batch>> input = workload(2, 40_000, new Random(51));
        long budget = 2 * ExternalMerge.WRITE_ROOM + 1_000_000;
        MemoryArena arena = new MemoryArena(4096, 0, budget);
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, true)) {
            // While the workers spill: the first to see a spilled run cancels, every worker stops at its next batch.
            ExecContext spilling = new ExecContext(1, BATCH, arena.forQuery(1), space.forQuery(1), null);
            try {
                Sink.SinkState state = SortSink.sort(SPEC, new StateKey<>("sort", SortedResult.class)).open(spilling);
                List<BatchConsumer> locals = List.of(state.local(), state.local());
                Exception e = assertThrows(Exception.class, () -> onEveryWorker(2, w -> {
                    BatchConsumer local = locals.get(w);
                    for (Batch b : input.get(w)) {
                        spilling.checkCancelled();
                        local.accept(b);
                        if (spilling.spill().writtenBytes() > 0) {
                            spilling.cancel("test while spilling");
                        }
                    }
                    local.finish();
                }));
                assertTrue(e.getCause() instanceof QueryCancelledException, String.valueOf(e.getCause()));
            } finally {
                spilling.release();
            }
            assertNothingLeft(space, arena);

            // While the finalize passes merge: each pass looks for a cancel at every batch it writes.
            ExecContext passes = new ExecContext(2, BATCH, arena.forQuery(2), space.forQuery(2), null);
            try {
                Sink.SinkState state = SortSink.sort(SPEC, new StateKey<>("sort", SortedResult.class)).open(passes);
                List<BatchConsumer> locals = List.of(state.local(), state.local());
                onEveryWorker(2, w -> {
                    BatchConsumer local = locals.get(w);
                    input.get(w).forEach(local::accept);
                    local.finish();
                });
                FinalizeWork work = state.prepareFinalize();
                assertTrue(space.fileCount() > 2, "the workers spilled several runs each");
                passes.cancel("test while merging");
                assertThrows(QueryCancelledException.class, work::step);
            } finally {
                passes.release();
            }
            assertNothingLeft(space, arena);

            // While the reader merges: it holds read buffers and files when the query ends.
            ExecContext reading = new ExecContext(3, BATCH, arena.forQuery(3), space.forQuery(3), null);
            StateKey<SortedResult> key = new StateKey<>("sort", SortedResult.class);
            try {
                drive(SortSink.sort(SPEC, key), input, reading);
                Source.SourceReader reader = new SortedSource(key).open(reading).reader();
                assertTrue(reader.next().size() > 0);
                assertTrue(space.fileCount() > 0, "the merge reads spilled runs");
                reading.cancel("test while reading");
            } finally {
                reading.release();
            }
            assertNothingLeft(space, arena);
        }
        // A spill space too small for the runs: the worker that passes its cap fails, naming it.
        try (SpillSpace space = new SpillSpace(tmp, 300_000, true)) {
            ExecContext ctx = new ExecContext(4, BATCH, arena.forQuery(4), space.forQuery(4), null);
            try {
                Exception e = assertThrows(Exception.class,
                        () -> drive(SortSink.sort(SPEC, new StateKey<>("sort", SortedResult.class)), input, ctx));
                assertTrue(String.valueOf(e.getCause()).contains("over troupe.spill.max-size = 300000 bytes"),
                        String.valueOf(e.getCause()));
            } finally {
                ctx.release();
            }
            assertNothingLeft(space, arena);
            assertEquals(0, space.heldBytes());
        }
    }

    private static void assertNothingLeft(SpillSpace space, MemoryArena arena) {
        assertEquals(0, space.fileCount(), "spill files left");
        assertEquals(0, arena.inUseBytes(), "memory held");
    }

    // ------------------------------------------------------------------ the harness

    /**
     * Sorts {@code input} (one list of batches per worker) under {@code budget}, reads it with one
     * reader ({@code streams == 0}) or that many streams merged as a Gather Merge merges them, then
     * releases the query and checks it left no file and no memory.
     */
    private Outcome sort(List<List<Batch>> input, long budget, boolean spillOn, long offset, long count, int streams)
            throws Exception {
        MemoryArena arena = new MemoryArena(4096, 0, budget);
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, spillOn)) {
            QuerySpill spill = space.forQuery(1);
            ExecContext ctx = new ExecContext(1, BATCH, arena.forQuery(1), spill, null);
            StateKey<SortedResult> key = new StateKey<>("sort", SortedResult.class);
            Sink sink = offset == 0 && count == Long.MAX_VALUE ? SortSink.sort(SPEC, key)
                    : SortSink.topN(SPEC, count, offset, key);
            try {
                long spilledByWorkers = drive(sink, input, ctx);
                List<String> rows = streams == 0 ? drain(new SortedSource(key).open(ctx).reader())
                        : mergeStreams(new SortedSource(key).streams(streams).open(ctx), streams, offset, count);
                MemoryReservation account = ctx.memory().reservations().get(0);
                assertEquals(account.spilledBytes(), spill.writtenBytes(), "the sort's account counts what it spilled");
                return new Outcome(rows, spilledByWorkers, spill.writtenBytes(), account.peakBytes(),
                        streams == 0 ? space.fileCount() : 0);
            } finally {
                ctx.release();
                assertEquals(0, space.fileCount(), "files left after the query");
                assertEquals(0, arena.inUseBytes(), "memory held after the query");
            }
        }
    }

    /**
     * Every worker's batches through its own local on its own thread (every local made first, as the
     * executors bind every worker before any starts), then the finalize work on all; returns the bytes
     * spilled by the workers.
     */
    private static long drive(Sink sink, List<List<Batch>> input, ExecContext ctx) throws Exception {
        Sink.SinkState state = sink.open(ctx);
        List<BatchConsumer> locals = new ArrayList<>();
        for (int w = 0; w < input.size(); w++) {
            locals.add(state.local());
        }
        onEveryWorker(input.size(), w -> {
            BatchConsumer local = locals.get(w);
            for (Batch b : input.get(w)) {
                assertTrue(local.accept(b));
            }
            local.finish();
        });
        long spilledByWorkers = ctx.spill().writtenBytes();
        FinalizeWork work = state.prepareFinalize();
        onEveryWorker(input.size(), w -> {
            while (work.step()) {
                ctx.checkCancelled();
            }
        });
        state.finalizeSink();
        return spilledByWorkers;
    }

    private static void onEveryWorker(int workers, IntConsumer task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int worker = w;
                done.add(pool.submit(() -> task.accept(worker)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> drain(Source.SourceReader reader) {
        List<String> rows = new ArrayList<>();
        for (Batch b = reader.next(); b != null; b = reader.next()) {
            assertTrue(b.size() > 0 && b.size() <= BATCH, "a batch of " + b.size() + " rows");
            for (int i = 0; i < b.size(); i++) {
                rows.add(Arrays.toString(b.rowObjects(i)));
            }
        }
        return rows;
    }

    /** The streams' readers, all open at once, pulled as a Gather Merge pulls its channels. */
    private static List<String> mergeStreams(Source.SourceState state, int streams, long offset, long count) {
        List<Source.SourceReader> readers = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            readers.add(state.reader());
        }
        StreamMerger merger = new StreamMerger(SPEC, streams, offset, count, BATCH);
        List<String> rows = new ArrayList<>();
        while (!merger.isDone()) {
            Batch b = merger.next();
            if (b != null) {
                for (int i = 0; i < b.size(); i++) {
                    rows.add(Arrays.toString(b.rowObjects(i)));
                }
                continue;
            }
            for (int s = 0; s < streams; s++) {
                if (merger.needsBatch(s)) {
                    Batch next = readers.get(s).next();
                    if (next == null) {
                        merger.end(s);
                    } else {
                        merger.add(s, next);
                    }
                }
            }
        }
        return rows;
    }

    // ------------------------------------------------------------------ data

    private static List<String> expected(List<List<Batch>> input, long offset, long count) {
        List<Object[]> rows = new ArrayList<>();
        for (List<Batch> batches : input) {
            for (Batch b : batches) {
                for (int i = 0; i < b.size(); i++) {
                    rows.add(b.rowObjects(i));
                }
            }
        }
        rows.sort(ORDER);
        int from = (int) Math.min(rows.size(), offset);
        int to = (int) Math.min(rows.size(), offset + Math.min(count, Integer.MAX_VALUE));
        return rows.subList(from, to).stream().map(Arrays::toString).toList();
    }

    /**
     * {@code workers} lists of batches of (s, k, id) of random sizes, every third with a selection that
     * drops some rows: s with shared prefixes longer than a key word, duplicates and NULLs; k with
     * duplicates and NULLs; id unique, so the order is total.
     */
    private static List<List<Batch>> workload(int workers, int rowsPerWorker, Random random) {
        String[] prefixes = {"", "a", "alpha-", "alphabet-soup-", "\u00e9t\u00e9-", "zz"};
        List<List<Batch>> out = new ArrayList<>();
        int id = 0;
        for (int w = 0; w < workers; w++) {
            List<Batch> batches = new ArrayList<>();
            int left = rowsPerWorker;
            while (left > 0) {
                int n = Math.min(left, 1 + random.nextInt(900));
                left -= n;
                VectorBuilder s = new VectorBuilder(DataType.VARCHAR, n);
                VectorBuilder k = new VectorBuilder(DataType.INT64, n);
                VectorBuilder ids = new VectorBuilder(DataType.INT32, n);
                for (int i = 0; i < n; i++) {
                    String prefix = prefixes[random.nextInt(prefixes.length)];
                    s.appendObject(random.nextInt(12) == 0 ? null
                            : prefix + random.nextInt(random.nextBoolean() ? 50 : 1_000_000));
                    k.appendObject(random.nextInt(10) == 0 ? null
                            : random.nextInt(4) == 0 ? random.nextLong() : (long) random.nextInt(30));
                    ids.appendInt(id++);
                }
                Batch b = Batch.of(n, new ColumnVector[] {s.build(), k.build(), ids.build()});
                batches.add(batches.size() % 3 == 2 ? SortSinkTest.dropSome(b, 5, random) : b);
            }
            out.add(batches);
        }
        return out;
    }

    private static int utf8Order(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
