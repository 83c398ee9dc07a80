package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.memory.QueryMemory;
import io.troupe.operators.spill.QuerySpill;
import io.troupe.operators.spill.SpillSpace;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * W1's join (one INT32 key, no column) under a budget of three chunks, with a count above it that cannot
 * spill: the join's chunks leave the budget's last eighth to the count, and its files' buffers are paid out
 * of the chunks it wrote out, so that neither its build nor its probe asks the budget for memory once it
 * spilled. W1 under a quarter of its memory met the first (the chunks took the whole 96 KiB, the count was
 * refused 528 bytes: 1 run in 8 under load), TPC-DS q2 at a twentieth the second (its probe files asked for
 * 64 KiB with 60 KiB free).
 */
class SpillingJoinMemoryTest {

    private static final int CHUNK = 4096;
    /** Rows a chunk's entries hold: one long each, the key packed with its link. */
    private static final int CHUNK_ROWS = CHUNK / Long.BYTES;
    private static final long BUDGET = 3 * CHUNK;
    /** A file's buffer is an eighth of a chunk, and there is one per partition. */
    private static final long ROOM = Radix.PARTITIONS * (CHUNK / 8);
    private static final int COUNT_BYTES = 528;

    @TempDir
    Path spillDirectory;
    private QueryMemory query;
    private QuerySpill spill;
    private MemoryReservation join;
    private MemoryReservation count;
    private HashJoinTable table;

    @BeforeEach
    void start() {
        query = new MemoryArena(CHUNK, 0, BUDGET).forQuery(1);
        spill = new SpillSpace(spillDirectory, 1L << 30, true).forQuery(1);
        join = query.reservation("join", "hash join j");
        count = query.reservation("count", "aggregate without keys above j");
        table = new HashJoinTable("j", new DataType[] {DataType.INT32}, new DataType[0], -1, false, join,
                CHUNK / Long.BYTES, spill);
    }

    @AfterEach
    void end() {
        spill.releaseAll();
        query.releaseAll();
    }

    @Test
    void theJoinLeavesTheLastEighthAndItsFilesAskTheBudgetForNothing() {
        BuildWorker builder = new BuildWorker(table, table.fileKeys());
        builder.accept(keys(0, 3 * CHUNK_ROWS));
        assertTrue(table.spilled(), "a third chunk would have left less than an eighth of the budget");
        assertEquals(ROOM, join.heldBytes(), "two chunks' bytes stay, for the files' buffers");
        count.grow(COUNT_BYTES);

        builder.accept(keys(3 * CHUNK_ROWS, 1000));
        builder.finish();
        table.allocate();
        assertEquals(3 * CHUNK_ROWS + 1000, buildRows(table));
        MemoryReservation other = query.reservation("other", "another join's build");
        other.grow(BUDGET - ROOM - COUNT_BYTES);
        PartitionWriters probeFiles = table.probeFiles(new DataType[] {DataType.INT32});
        probeFiles.reserveAll(table::overBudget);
        assertEquals(ROOM, join.heldBytes(), "the probe's buffers are the build's");
        table.finishProbeFiles();
        assertEquals(0, join.heldBytes(), "the room goes back once both sides' files are finished");
    }

    /**
     * A partition's table beside another's that holds less than its files' buffers would take is refused
     * at the last eighth, and tried again alone rather than spilling: spilling would ask the budget for more
     * than it gives back.
     */
    @Test
    void aPartitionBesideAnotherIsRefusedAtTheLastEighthAndTriedAgainAlone() {
        HashJoinTable first = table.forPartition("j partition 1", 1, null, 2 * CHUNK_ROWS, false);
        HashJoinTable second = table.forPartition("j partition 2", 1, null, CHUNK_ROWS, false);
        new BuildWorker(first, first.fileKeys()).accept(keys(0, 2 * CHUNK_ROWS));
        assertFalse(first.spilled());
        BuildWorker refused = new BuildWorker(second, second.fileKeys());
        assertThrows(JoinOverBudgetException.class, () -> refused.accept(keys(2 * CHUNK_ROWS, 1)));
        assertFalse(second.spilled());
        assertEquals(2L * CHUNK, join.heldBytes(), "the refused partition holds nothing");
        count.grow(COUNT_BYTES);
    }

    private static long buildRows(HashJoinTable spilled) {
        long rows = 0;
        for (int p = 0; p < Radix.PARTITIONS; p++) {
            rows += spilled.spilledBuildRows(p);
        }
        return rows;
    }

    /** Keys {@code from * 7919 ...} of {@code n} rows, which spread over every partition. */
    private static Batch keys(int from, int n) {
        IntVector keys = new IntVector(DataType.INT32, n);
        for (int i = 0; i < n; i++) {
            keys.set(i, (from + i) * 7919);
        }
        return Batch.of(n, keys);
    }
}
