package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two threads build one shared table: both materialise rows into their own chunks at the same
 * time, then both link chunks into the bucket array with CAS at the same time. Every key is
 * present in both threads' input (so their rows meet in the same buckets), and every row must be
 * found exactly once on its key's chain.
 */
class HashJoinTableConcurrencyTest {

    private static final int ROWS_PER_THREAD = 120_000;
    private static final int DISTINCT_KEYS = 30_000;
    private static final int BATCH_ROWS = 1000;

    /** INT32 keys use the packed layout (one long per row), INT64 keys the two-long one. */
    @ParameterizedTest(name = "{0} keys")
    @ValueSource(strings = {"INT32", "INT64"})
    @Timeout(60)
    void shouldFindEveryRowWhenTwoThreadsBuildOneTable(String keyType) throws Exception {
        DataType type = DataType.parse(keyType);
        StateKey<HashJoinTable> key = new StateKey<>("table", HashJoinTable.class);
        HashJoinBuildSink sink = new HashJoinBuildSink(key, "test join",
                List.of(new ColumnExpression(0, type, "k")),
                new DataType[] {type, DataType.INT32}, false);
        HashJoinBuildSink.BuildState state = (HashJoinBuildSink.BuildState) sink.open(new ExecContext(1, 1024));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CyclicBarrier together = new CyclicBarrier(2);
            List<Future<?>> building = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int thread = t;
                building.add(pool.submit(() -> {
                    BatchConsumer local = state.local();
                    together.await();
                    for (int start = 0; start < ROWS_PER_THREAD; start += BATCH_ROWS) {
                        local.accept(batch(type, thread, start));
                    }
                    local.finish();
                    return null;
                }));
            }
            for (Future<?> f : building) {
                f.get();
            }
            HashJoinTable table = state.table();
            table.allocate();
            assertTrue(table.chunkCount() > 20, "both threads should have filled many chunks: " + table.chunkCount());
            List<Future<Integer>> inserting = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                inserting.add(pool.submit(() -> {
                    together.await();
                    int chunks = 0;
                    while (table.insertNextChunk()) {
                        chunks++;
                    }
                    return chunks;
                }));
            }
            int inserted = 0;
            for (Future<Integer> f : inserting) {
                inserted += f.get();
            }
            table.startProbing();
            assertEquals(table.chunkCount(), inserted);
            assertEquals(2L * ROWS_PER_THREAD, table.rowCount());
            assertEquals(type.isIntBacked(), table.packed());
            assertEveryRowOnItsChain(table);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Thread {@code thread}'s rows from {@code start}: key row % DISTINCT_KEYS (NULL every 97th), a unique tag. */
    private static Batch batch(DataType type, int thread, int start) {
        int n = Math.min(BATCH_ROWS, ROWS_PER_THREAD - start);
        ColumnVector keys = ColumnVector.allocate(type, n);
        IntVector tags = new IntVector(DataType.INT32, n);
        for (int i = 0; i < n; i++) {
            int row = start + i;
            if (keys instanceof IntVector ints) {
                ints.set(i, row % DISTINCT_KEYS);
            } else {
                ((LongVector) keys).set(i, row % DISTINCT_KEYS);
            }
            if (row % 97 == 0) {
                keys.setNull(i);
            }
            tags.set(i, thread * ROWS_PER_THREAD + row);
        }
        return Batch.of(n, keys, tags);
    }

    private static void assertEveryRowOnItsChain(HashJoinTable table) {
        int[] seen = new int[2 * ROWS_PER_THREAD];
        long[][] entries = table.entries();
        for (long k = 0; k < DISTINCT_KEYS; k++) {
            int id = table.heads()[(int) io.troupe.operators.batch.VectorHash.mix(k) & table.mask()];
            while (id >= 0) {
                long[] e = entries[id >>> table.chunkShift()];
                int o = id & (table.chunkRows() - 1);
                if (HashJoinTable.stored(e, o, table.packed()) == k) {
                    int tag = ((IntVector) table.chunk(id >>> table.chunkShift()).payload[1]).get(o);
                    seen[tag]++;
                }
                id = HashJoinTable.next(e, o, table.packed());
            }
        }
        for (int tag = 0; tag < seen.length; tag++) {
            int row = tag % ROWS_PER_THREAD;
            int expected = row % 97 == 0 ? 0 : 1;
            assertEquals(expected, seen[tag], "row " + tag + " (key " + (row % DISTINCT_KEYS) + ") found "
                    + seen[tag] + " times");
        }
    }
}
