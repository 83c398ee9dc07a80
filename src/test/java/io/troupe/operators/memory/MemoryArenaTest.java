package io.troupe.operators.memory;

import io.troupe.operators.exec.QueryFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The arena alone: reuse, preallocation, on-demand mode, the budget's error, and concurrent use. */
class MemoryArenaTest {

    private static final int KIB_32 = 32 * 1024;

    @Test
    void chunksComeBackAndTheNextQueryReusesThem() {
        MemoryArena arena = new MemoryArena(KIB_32, 3L * KIB_32, Long.MAX_VALUE);
        QueryMemory first = arena.forQuery(1);
        Set<long[]> taken = identitySet();
        for (int i = 0; i < 3; i++) {
            long[] chunk = first.take("op");
            assertEquals(KIB_32 / Long.BYTES, chunk.length);
            taken.add(chunk);
        }
        assertEquals(3L * KIB_32, arena.inUseBytes());
        assertEquals(3L * KIB_32, first.heldBytes());
        first.releaseAll();
        assertEquals(0, arena.inUseBytes());
        assertEquals(0, first.heldBytes());
        assertEquals(3, arena.freeChunks());

        QueryMemory second = arena.forQuery(2);
        for (int i = 0; i < 3; i++) {
            assertTrue(taken.contains(second.take("op")), "the first query's chunk again");
        }
        assertEquals(3, arena.allocatedChunks(), "no chunk allocated after the preallocated three");
        second.releaseAll();
        assertEquals(3, arena.freeChunks());
    }

    @Test
    void preallocationAllocatesAndTouchesUpFrontAndOnlyBeyondItAllocatesOnDemand() {
        MemoryArena arena = new MemoryArena(KIB_32, 8L * KIB_32 + 100, Long.MAX_VALUE);
        // Rounded down to whole chunks, all made (and every page written) before any query.
        assertEquals(8, arena.allocatedChunks());
        assertEquals(8, arena.freeChunks());
        QueryMemory q = arena.forQuery(1);
        for (int i = 0; i < 8; i++) {
            q.take("op");
        }
        assertEquals(8, arena.allocatedChunks());
        assertEquals(0, arena.freeChunks());
        q.take("op");
        assertEquals(9, arena.allocatedChunks(), "the ninth comes on demand");
        q.releaseAll();
        assertEquals(8, arena.freeChunks(), "the free list keeps the preallocated amount, drops the rest");
        assertEquals(0, arena.inUseBytes());
        QueryMemory again = arena.forQuery(2);
        for (int i = 0; i < 8; i++) {
            again.take("op");
        }
        assertEquals(9, arena.allocatedChunks(), "the next query reuses them");
        again.releaseAll();
    }

    @Test
    void onDemandAllocatesEveryChunkAndKeepsNone() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, Long.MAX_VALUE);
        assertEquals(0, arena.allocatedChunks());
        QueryMemory q = arena.forQuery(1);
        q.take("op");
        q.releaseAll();
        assertEquals(0, arena.freeChunks());
        QueryMemory next = arena.forQuery(2);
        next.take("op");
        assertEquals(2, arena.allocatedChunks());
        next.releaseAll();
        assertEquals(0, arena.inUseBytes());
    }

    @Test
    void overTheBudgetIsAQueryFailureThatNamesBudgetAmountAndOperator() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, 2L * KIB_32 + 5);
        QueryMemory q = arena.forQuery(7);
        q.take("hash join j");
        q.take("hash join j");
        QueryFailedException e = assertThrows(QueryFailedException.class, () -> q.take("hash join j"));
        assertEquals("query 7: hash join j asked for 32768 bytes of hash memory, over troupe.memory.budget = "
                + "65541 bytes (65536 bytes in use, 65536 by this query)", e.getMessage());
        assertEquals(2L * KIB_32, arena.inUseBytes(), "the failed take reserved nothing");
        q.releaseAll();
        assertEquals(0, arena.inUseBytes());
        QueryMemory next = arena.forQuery(8);
        next.take("hash join j");
        next.releaseAll();
    }

    @Test
    void aTakeAfterTheReleaseFailsAndKeepsNothing() {
        MemoryArena arena = new MemoryArena(KIB_32, KIB_32, Long.MAX_VALUE);
        QueryMemory q = arena.forQuery(3);
        q.take("op");
        q.releaseAll();
        q.releaseAll();
        QueryFailedException e = assertThrows(QueryFailedException.class, () -> q.take("late op"));
        assertEquals("query 3: late op asked for hash memory after the query's memory was released", e.getMessage());
        assertEquals(0, arena.inUseBytes());
        assertEquals(1, arena.freeChunks());
    }

    @Test
    void badSettingsFailWithTheirKey() {
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
                () -> new MemoryArena(3000, 0, Long.MAX_VALUE));
        assertEquals("troupe.hash.chunk-size must be a power of two in 4096..67108864 bytes, got 3000", size.getMessage());
        IllegalArgumentException budget = assertThrows(IllegalArgumentException.class,
                () -> new MemoryArena(KIB_32, 0, 100));
        assertTrue(budget.getMessage().startsWith("troupe.memory.budget"), budget.getMessage());
    }

    /**
     * Four threads take and return chunks at once, each its own queries over one arena (as workers of
     * concurrent queries do): no chunk is ever held by two at once (each writes its mark over the whole
     * chunk and finds it intact before it returns it), and at the end everything is back.
     */
    @Test
    @Timeout(60)
    void fourThreadsTakeAndReturnConcurrently() throws InterruptedException {
        int retained = 16;
        MemoryArena arena = new MemoryArena(MemoryArena.MIN_CHUNK_BYTES, (long) retained * MemoryArena.MIN_CHUNK_BYTES,
                Long.MAX_VALUE);
        int threads = 4;
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long mark = t + 1;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int round = 0; round < 2000; round++) {
                        QueryMemory q = arena.forQuery(mark * 1_000_000 + round);
                        List<long[]> mine = new ArrayList<>();
                        for (int i = 0; i < 1 + round % 7; i++) {
                            long[] chunk = q.take("op");
                            java.util.Arrays.fill(chunk, mark);
                            mine.add(chunk);
                        }
                        for (long[] chunk : mine) {
                            for (long v : chunk) {
                                if (v != mark) {
                                    throw new AssertionError("chunk shared between holders: " + v + " in " + mark + "'s");
                                }
                            }
                        }
                        q.releaseAll();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            thread.start();
            running.add(thread);
        }
        start.countDown();
        for (Thread t : running) {
            t.join();
        }
        assertNull(failure.get());
        assertEquals(0, arena.inUseBytes());
        assertEquals(retained, arena.freeChunks());
    }

    private static Set<long[]> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }

    @Test
    void theSameChunkComesBackToTheSameHolderWhenAloneOnTheArena() {
        MemoryArena arena = new MemoryArena(KIB_32, KIB_32, Long.MAX_VALUE);
        QueryMemory q = arena.forQuery(1);
        long[] chunk = q.take("op");
        q.releaseAll();
        QueryMemory next = arena.forQuery(2);
        assertSame(chunk, next.take("op"));
        next.releaseAll();
    }
}
