package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.ExecContext;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Gather Merge's kernel without actors: sorted streams whose batches arrive in random
 * interleavings merge into the order one sort of all rows gives, the window (OFFSET, LIMIT) applies
 * once to the merged order, and no row goes out while a live input holds nothing. Also the sorted
 * source's streams, one run per reader, which feed it.
 */
class StreamMergerTest {

    /** Rows (k BIGINT nullable, s VARCHAR nullable, id INT unique) by k DESC NULLS FIRST, s ASC NULLS LAST, id. */
    private static final Comparator<Object[]> ORDER = Comparator
            .<Object[], Long>comparing(r -> (Long) r[0], Comparator.nullsFirst(Comparator.<Long>reverseOrder()))
            .thenComparing(r -> (String) r[1], Comparator.nullsLast(StreamMergerTest::utf8Order))
            .thenComparing(r -> (Integer) r[2]);

    private final SortSpec spec = new SortSpec(List.of(
            new OrderKey(new ColumnExpression(0, DataType.INT64, "k"), false, true),
            new OrderKey(new ColumnExpression(1, DataType.VARCHAR, "s"), true, false),
            new OrderKey(new ColumnExpression(2, DataType.INT32, "id"), true, false)), 3, "Sort k DESC, s, id");

    @Test
    void shouldMergeInterleavedStreamsAsOneSortWould() {
        Random random = new Random(17);
        for (int round = 0; round < 60; round++) {
            int inputs = 1 + random.nextInt(6);
            int rows = random.nextInt(3) == 0 ? random.nextInt(5) : random.nextInt(3000);
            long offset = random.nextInt(4) == 0 ? random.nextInt(rows + 5) : 0;
            long count = random.nextInt(3) == 0 ? random.nextInt(rows + 5) : Long.MAX_VALUE;
            int batchSize = 1 + random.nextInt(random.nextBoolean() ? 8 : 500);
            List<Object[]> all = rows(rows, random);
            List<List<Batch>> streams = streams(all, inputs, random);
            List<Object[]> expected = new ArrayList<>(all);
            expected.sort(ORDER);
            int from = (int) Math.min(expected.size(), offset);
            int to = (int) Math.min(expected.size(), offset + Math.min(count, Integer.MAX_VALUE));
            String what = "round " + round + ": inputs=" + inputs + ", rows=" + rows + ", offset=" + offset
                    + ", count=" + count + ", batchSize=" + batchSize;
            assertEquals(describe(expected.subList(from, to)),
                    describe(merge(new StreamMerger(spec, inputs, offset, count, batchSize), streams, random, batchSize)),
                    what);
        }
    }

    @Test
    void shouldEmitNothingUntilEveryLiveInputHoldsARow() {
        List<List<Batch>> streams = streams(rows(40, new Random(3)), 3, new Random(4));
        StreamMerger merger = new StreamMerger(spec, 3, 0, Long.MAX_VALUE, 16);
        merger.add(0, streams.get(0).get(0));
        merger.add(1, streams.get(1).get(0));
        assertNull(merger.next());
        assertTrue(merger.stalled());
        merger.end(2);
        assertFalse(merger.stalled());
        assertTrue(merger.next() != null, "inputs 0 and 1 hold rows and input 2 ended: rows may go out");
    }

    @Test
    void shouldBeDoneAtLimitZeroAndWithEveryInputEmpty() {
        StreamMerger none = new StreamMerger(spec, 2, 0, 0, 16);
        assertTrue(none.isDone());
        assertFalse(none.stalled());
        assertNull(none.next());
        StreamMerger empty = new StreamMerger(spec, 2, 3, 5, 16);
        assertFalse(empty.isDone());
        empty.end(0);
        empty.end(1);
        assertTrue(empty.isDone());
        assertNull(empty.next());
    }

    @Test
    void shouldRejectBatchesAfterTheEndAndOfTheWrongShape() {
        StreamMerger merger = new StreamMerger(spec, 1, 0, Long.MAX_VALUE, 16);
        Batch batch = streams(rows(5, new Random(1)), 1, new Random(2)).get(0).get(0);
        assertThrows(IllegalArgumentException.class, () -> merger.add(0, Batch.of(batch.size(), batch.column(0))));
        merger.end(0);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> merger.add(0, batch));
        assertTrue(e.getMessage().contains("input 0 sent a batch after its end of stream"), e.getMessage());
    }

    @Test
    void shouldStreamOneRunPerReaderInItsOwnOrder() {
        Random random = new Random(9);
        List<Object[]> all = rows(900, random);
        List<SortedRun> runs = new ArrayList<>();
        for (List<Batch> part : streams(all, 3, random)) {
            if (!part.isEmpty()) {
                runs.add(SortedRun.sort(spec, part, Integer.MAX_VALUE));
            }
        }
        ExecContext ctx = new ExecContext(1, 64);
        StateKey<SortedResult> key = new StateKey<>("sort", SortedResult.class);
        ctx.publish(key, new SortedResult(spec, runs.stream().map(WorkerRuns::inMemory).toList(), 10, 20, null));
        Source.SourceState state = new SortedSource(key).streams(4).open(ctx);
        List<List<Batch>> streams = new ArrayList<>();
        for (int reader = 0; reader < 4; reader++) {
            List<Batch> stream = new ArrayList<>();
            Source.SourceReader r = state.reader();
            Batch b;
            while ((b = r.next()) != null) {
                assertTrue(b.size() > 0 && b.size() <= 64, "a batch of " + b.size() + " rows");
                stream.add(b);
            }
            streams.add(stream);
        }
        for (int r = 0; r < runs.size(); r++) {
            List<Object[]> rowsOfRun = rowsOf(streams.get(r));
            assertEquals(Math.min(runs.get(r).size(), 30), rowsOfRun.size(),
                    "a stream emits its run up to the window's end: the merge applies the window");
            List<Object[]> sorted = new ArrayList<>(rowsOfRun);
            sorted.sort(ORDER);
            assertEquals(describe(sorted), describe(rowsOfRun), "stream " + r + " is in order");
        }
        assertEquals(List.of(), streams.get(3), "a reader past the last run gets nothing");
        List<Object[]> expected = new ArrayList<>(all);
        expected.sort(ORDER);
        assertEquals(describe(expected.subList(10, 30)),
                describe(merge(new StreamMerger(spec, 4, 10, 20, 64), streams, random, 64)));
    }

    // ------------------------------------------------------------------ helpers

    /**
     * Feeds {@code streams} into {@code merger} in a random interleaving (batches, then each
     * stream's end), draining it after every step; checks batch sizes and the stall rule.
     */
    private static List<Object[]> merge(StreamMerger merger, List<List<Batch>> streams, Random random, int batchSize) {
        int[] next = new int[streams.size()];
        boolean[] ended = new boolean[streams.size()];
        List<Object[]> out = new ArrayList<>();
        int live = streams.size();
        while (live > 0) {
            int i = random.nextInt(streams.size());
            if (ended[i]) {
                continue;
            }
            if (next[i] < streams.get(i).size()) {
                merger.add(i, streams.get(i).get(next[i]++));
            } else {
                merger.end(i);
                ended[i] = true;
                live--;
            }
            drain(merger, out, batchSize);
        }
        drain(merger, out, batchSize);
        assertTrue(merger.isDone(), "every input ended: the merge is done");
        return out;
    }

    private static void drain(StreamMerger merger, List<Object[]> out, int batchSize) {
        Batch b;
        while ((b = merger.next()) != null) {
            assertTrue(b.size() > 0 && b.size() <= batchSize, "a batch of " + b.size() + " rows at batch size " + batchSize);
            out.addAll(rowsOf(List.of(b)));
        }
        assertTrue(merger.isDone() || merger.stalled(), "next() gave nothing, so the merge must be done or stalled");
    }

    private static List<Object[]> rows(int n, Random random) {
        List<Object[]> rows = new ArrayList<>();
        String[] strings = {"", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgz", "prefix__1", "prefix__10", "\u00e9", "z"};
        for (int id = 0; id < n; id++) {
            Long k = random.nextInt(8) == 0 ? null : random.nextInt(4) == 0 ? random.nextLong() : (long) random.nextInt(20);
            String s = random.nextInt(7) == 0 ? null : strings[random.nextInt(strings.length)];
            rows.add(new Object[] {k, s, id});
        }
        return rows;
    }

    /** {@code rows} dealt to {@code inputs} streams (some may get none), each sorted and cut into random dense batches. */
    private static List<List<Batch>> streams(List<Object[]> rows, int inputs, Random random) {
        List<List<Object[]>> parts = new ArrayList<>();
        for (int i = 0; i < inputs; i++) {
            parts.add(new ArrayList<>());
        }
        // In one case in three, one input gets no row: a worker with an empty run.
        int starved = inputs > 1 && random.nextInt(3) == 0 ? random.nextInt(inputs) : -1;
        for (Object[] row : rows) {
            int i = random.nextInt(inputs);
            if (i == starved) {
                i = (i + 1) % inputs;
            }
            parts.get(i).add(row);
        }
        List<List<Batch>> streams = new ArrayList<>();
        for (List<Object[]> part : parts) {
            part.sort(ORDER);
            List<Batch> batches = new ArrayList<>();
            int at = 0;
            while (at < part.size()) {
                int n = Math.min(part.size() - at, 1 + random.nextInt(random.nextBoolean() ? 5 : 400));
                batches.add(batch(part.subList(at, at + n)));
                at += n;
            }
            streams.add(batches);
        }
        return streams;
    }

    private static Batch batch(List<Object[]> rows) {
        VectorBuilder k = new VectorBuilder(DataType.INT64, rows.size());
        VectorBuilder s = new VectorBuilder(DataType.VARCHAR, rows.size());
        VectorBuilder id = new VectorBuilder(DataType.INT32, rows.size());
        for (Object[] row : rows) {
            k.appendObject(row[0]);
            s.appendObject(row[1]);
            id.appendObject(row[2]);
        }
        return Batch.of(rows.size(), new ColumnVector[] {k.build(), s.build(), id.build()});
    }

    private static List<Object[]> rowsOf(List<Batch> batches) {
        List<Object[]> rows = new ArrayList<>();
        for (Batch b : batches) {
            for (int i = 0; i < b.size(); i++) {
                rows.add(b.rowObjects(i));
            }
        }
        return rows;
    }

    private static List<String> describe(List<Object[]> rows) {
        return rows.stream().map(Arrays::toString).toList();
    }

    /** VARCHAR order: unsigned UTF-8 bytes (what NormalisedKeys and DuckDB use). */
    private static int utf8Order(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
