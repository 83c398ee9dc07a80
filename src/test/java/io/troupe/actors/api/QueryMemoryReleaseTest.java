package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lesson 2 end to end: whatever way a query ends (rows, an error, a cancel or timeout), the leader
 * alone and the actor executor return all of its hash-join memory to the Troupe's arena, and the
 * next query reuses it; a query over the budget fails with the budget's message.
 */
class QueryMemoryReleaseTest {

    private static final int CHUNK = 32 * 1024;

    private static Troupe start(long preallocate, long budget) {
        return start(preallocate, budget, TroupeSettings.load().spill());
    }

    private static Troupe start(long preallocate, long budget, TroupeSettings.Spill spill) {
        // Plans as written: each test's hash table is the side it wrote.
        Troupe troupe = Troupe.start(TroupeSettings.load().withBatchSize(256).withOptimizePlans(false)
                .withMemory(new TroupeSettings.Memory(CHUNK, preallocate, budget)).withSpill(spill));
        // 5000 build rows in chunks of 100: more than one join chunk (4096 INT32-keyed rows at 32 KiB).
        TableBuilder facts = new TableBuilder("facts", Schema.of(Field.of("id", DataType.INT64),
                Field.of("k", DataType.INT32), Field.of("s", DataType.VARCHAR)), 100);
        for (int i = 0; i < 5000; i++) {
            facts.addRow((long) i, i % 50, "s" + (i % 13));
        }
        TableBuilder dims = new TableBuilder("dims", Schema.of(Field.of("k", DataType.INT32),
                Field.of("name", DataType.VARCHAR)), 7);
        for (int k = 0; k < 60; k += 2) {
            dims.addRow(k, "d" + k);
        }
        return troupe.register(facts.build()).register(dims.build());
    }

    private static void assertBackToStart(MemoryArena arena, long freeAtStart, long allocatedAtStart) {
        assertEquals(0, arena.inUseBytes(), "bytes still held");
        assertEquals(freeAtStart, arena.freeChunks(), "chunks on the free list");
        assertEquals(allocatedAtStart, arena.allocatedChunks(), "chunks allocated: the preallocated ones were reused");
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void successfulJoinsGiveEveryChunkBack(int workers) {
        try (Troupe troupe = start(16L * CHUNK, Long.MAX_VALUE)) {
            MemoryArena arena = troupe.memoryArena();
            long free = arena.freeChunks();
            long allocated = arena.allocatedChunks();
            for (JoinType type : JoinType.values()) {
                // facts is the build side: its 5000 rows take two or more chunks.
                Plan plan = Plan.scan("dims").join(Plan.scan("facts"), type, col("dims.k").eq(col("facts.k")))
                        .aggregate(List.of(), Expr.count());
                troupe.execute(plan, QueryOptions.defaults().withWorkers(workers));
                assertBackToStart(arena, free, allocated);
            }
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void onDemandJoinsAllocateAndKeepNothing(int workers) {
        try (Troupe troupe = start(0, Long.MAX_VALUE)) {
            MemoryArena arena = troupe.memoryArena();
            Plan plan = Plan.scan("dims").join(Plan.scan("facts"), JoinType.INNER, col("dims.k").eq(col("facts.k")));
            assertEquals(2500, troupe.execute(plan, QueryOptions.defaults().withWorkers(workers)).rows().size());
            assertTrue(arena.allocatedChunks() >= 2, "the build took its chunks from the arena");
            assertEquals(0, arena.inUseBytes());
            assertEquals(0, arena.freeChunks());
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void aFailingQueryGivesEveryChunkBack(int workers) {
        try (Troupe troupe = start(16L * CHUNK, Long.MAX_VALUE)) {
            MemoryArena arena = troupe.memoryArena();
            long free = arena.freeChunks();
            long allocated = arena.allocatedChunks();
            // Fails in the probe, after the build table holds its chunks.
            Plan plan = Plan.scan("dims").join(Plan.scan("facts"), JoinType.INNER, col("dims.k").eq(col("facts.k")))
                    .project(col("facts.id").div(col("dims.k").minus(col("dims.k"))).as("q"));
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(workers)));
            assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
            assertBackToStart(arena, free, allocated);
            Plan join = Plan.scan("dims").join(Plan.scan("facts"), JoinType.INNER, col("dims.k").eq(col("facts.k")));
            assertEquals(2500, troupe.execute(join, QueryOptions.defaults().withWorkers(workers)).rows().size());
            assertBackToStart(arena, free, allocated);
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void aCancelledQueryGivesEveryChunkBack(int workers) {
        try (Troupe troupe = start(16L * CHUNK, Long.MAX_VALUE)) {
            MemoryArena arena = troupe.memoryArena();
            long free = arena.freeChunks();
            long allocated = arena.allocatedChunks();
            // Builds facts (5000 rows), then probes with far more rows than run before the timeout.
            Plan plan = Plan.series("x", 1, 1_000_000_000L)
                    .join(Plan.scan("facts"), JoinType.INNER, col("x").eq(col("facts.id")))
                    .aggregate(List.of(), Expr.count());
            QueryCancelledException e = assertThrows(QueryCancelledException.class, () -> troupe.execute(plan,
                    QueryOptions.defaults().withWorkers(workers).withTimeout(Duration.ofMillis(300))));
            assertTrue(e.getMessage().contains("timed out after 300 ms"), e.getMessage());
            assertBackToStart(arena, free, allocated);
            if (workers > 0) {
                RunningQuery running = troupe.submit(plan, QueryOptions.defaults().withWorkers(workers));
                running.cancel("test");
                assertThrows(QueryCancelledException.class, running::await);
                assertBackToStart(arena, free, allocated);
            }
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void overTheBudgetFailsTheQueryNamingBudgetAmountAndJoin(int workers) {
        // Room for one build chunk's entries and columns and a small result: facts (5000 build rows)
        // needs two chunks, dims (30 rows) one. With spilling off (on, the join spills: JoinSpillTest).
        TroupeSettings.Spill off = TroupeSettings.load().spill();
        off = new TroupeSettings.Spill(false, off.directory(), off.maxSizeBytes());
        try (Troupe troupe = start(CHUNK, 200_000, off)) {
            MemoryArena arena = troupe.memoryArena();
            Plan plan = Plan.scan("dims").join(Plan.scan("facts"), JoinType.INNER, col("dims.k").eq(col("facts.k")));
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(workers)));
            assertTrue(e.getMessage().contains(": hash join "), e.getMessage());
            assertTrue(e.getMessage().contains(" bytes, over troupe.memory.budget = 200000 bytes"), e.getMessage());
            assertEquals(0, arena.inUseBytes());
            // Within budget (one build worker, 30 rows: one chunk), the next query runs.
            Plan small = Plan.scan("facts").join(Plan.scan("dims"), JoinType.INNER, col("facts.k").eq(col("dims.k")));
            assertEquals(2500, troupe.execute(small, QueryOptions.defaults().withWorkers(0)).rows().size());
            assertEquals(0, arena.inUseBytes());
        }
    }
}
