package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
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
 * A spilled partition's table whose account is refused its spill buffers because another operator
 * of the query holds the budget (an aggregate above the join; TPC-DS q2 at 1/20 of its memory met
 * it under load). Beside other partitions it fails, to be tried again alone; alone, nothing of the
 * join holds memory and no wait gives the rest back, so its buffers trail the account as the join's
 * own table's do, and it spills by the next level's bits instead of failing the query.
 */
class PartitionAloneTest {

    private static final int CHUNK = 4096;
    private static final long BUDGET = 64 * 1024;
    private static final int ROWS = 3000;

    @TempDir
    Path spillDirectory;
    private QueryMemory query;
    private QuerySpill spill;

    @BeforeEach
    void start() {
        query = new MemoryArena(CHUNK, 0, BUDGET).forQuery(1);
        spill = new SpillSpace(spillDirectory, 1L << 30, true).forQuery(1);
    }

    @AfterEach
    void end() {
        spill.releaseAll();
        query.releaseAll();
    }

    @Test
    void besideOtherPartitionsItIsRefusedAndTriedAgainAlone() {
        HashJoinTable partition = partition(false);
        assertThrows(JoinOverBudgetException.class, () -> build(partition));
    }

    @Test
    void aloneItSpillsByTheNextLevelsBitsInsteadOfFailing() {
        HashJoinTable partition = partition(true);
        build(partition);
        assertTrue(partition.spilled());
        long rows = 0;
        for (int p = 0; p < Radix.PARTITIONS; p++) {
            rows += partition.spilledBuildRows(p);
            assertTrue(partition.spilledBuildHashesDiffer(p) || partition.spilledBuildRows(p) <= 1);
        }
        assertEquals(ROWS, rows, "every build row is in the next level's files");
        assertFalse(partition.spilledBuildFiles(0).isEmpty());
    }

    /**
     * A level-1 partition's table of the join (an INT64 key and an INT64 column), with an aggregate
     * of the same query holding all of the budget but less than a chunk and its columns: no room for the
     * rows, nor for the buffers of the files they would spill to.
     */
    private HashJoinTable partition(boolean alone) {
        MemoryReservation join = query.reservation("join", "hash join j");
        MemoryReservation aggregate = query.reservation("aggregate", "hash aggregate above j");
        HashJoinTable table = new HashJoinTable("j", new DataType[] {DataType.INT64},
                new DataType[] {DataType.INT64, DataType.INT64}, 0, false, join, CHUNK / Long.BYTES, spill);
        aggregate.grow(BUDGET - CHUNK - 1000);
        return table.forPartition("j partition 3", 1, null, ROWS, alone);
    }

    private static void build(HashJoinTable table) {
        BuildWorker builder = new BuildWorker(table, table.fileKeys());
        for (int start = 0; start < ROWS; start += 500) {
            LongVector keys = new LongVector(DataType.INT64, 500);
            LongVector values = new LongVector(DataType.INT64, 500);
            for (int i = 0; i < 500; i++) {
                keys.set(i, (start + i) * 7919L);
                values.set(i, start + i);
            }
            builder.accept(Batch.of(500, keys, values));
        }
        builder.finish();
        table.allocate();
    }
}
