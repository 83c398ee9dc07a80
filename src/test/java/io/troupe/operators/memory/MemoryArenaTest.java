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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The arena alone: reuse, preallocation, on-demand mode, reservations, admission and limits, the
 * budget's errors, and concurrent use.
 */
class MemoryArenaTest {

    private static final int KIB_32 = 32 * 1024;

    /**
     * An operator that spills when refused stops at 7/8 of the budget; the last eighth is for those that cannot
     * (an aggregate without keys), so that one which could have spilled never starves one that cannot.
     */
    @Test
    void spillableGrowthLeavesTheBudgetsLastEighthToWhatCannotSpill() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, 8L * KIB_32);
        QueryMemory q = arena.forQuery(1);
        MemoryReservation spills = q.reservation("a", "partial aggregate");
        MemoryReservation cannot = q.reservation("b", "aggregate without keys");
        assertTrue(spills.tryGrowSpillable(7L * KIB_32));
        assertFalse(spills.tryGrowSpillable(1), "past 7/8 of the budget");
        assertTrue(cannot.tryGrow(KIB_32), "the last eighth");
        assertFalse(cannot.tryGrow(1), "nothing past the budget");
        spills.shrink(7L * KIB_32);
        assertTrue(spills.tryGrowSpillable(6L * KIB_32));
        q.releaseAll();
    }

    /** A spilling join's chunks too: they took a small budget whole, and the count above the join was refused. */
    @Test
    void spillableChunksLeaveTheBudgetsLastEighthToWhatCannotSpill() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, 4L * KIB_32);
        QueryMemory q = arena.forQuery(1);
        MemoryReservation join = q.reservation("j", "hash join");
        MemoryReservation count = q.reservation("c", "aggregate without keys");
        for (int c = 0; c < 3; c++) {
            assertNotNull(join.tryTakeChunkSpillable(), "chunk " + c);
        }
        assertNull(join.tryTakeChunkSpillable(), "the fourth chunk would leave nothing of the last eighth");
        count.grow(528);
        assertNull(join.tryTakeChunk(), "nor, now, as one that may not spill");
        q.releaseAll();
    }

    /** A chunk given back keeping its bytes leaves the query's use as it was, until the account shrinks them. */
    @Test
    void aChunkGivenBackKeepingItsBytesStaysReservedUntilShrunk() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, 2L * KIB_32);
        QueryMemory q = arena.forQuery(1);
        MemoryReservation join = q.reservation("j", "hash join");
        join.returnChunkKeepingItsBytes(join.takeChunk());
        assertEquals(KIB_32, join.heldBytes());
        assertEquals(KIB_32, arena.inUseBytes());
        join.shrink(KIB_32);
        assertEquals(0, arena.inUseBytes());
        q.releaseAll();
    }

    @Test
    void chunksComeBackAndTheNextQueryReusesThem() {
        MemoryArena arena = new MemoryArena(KIB_32, 3L * KIB_32, Long.MAX_VALUE);
        QueryMemory first = arena.forQuery(1);
        Set<long[]> taken = identitySet();
        for (int i = 0; i < 3; i++) {
            long[] chunk = take(first, "op");
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
            assertTrue(taken.contains(take(second, "op")), "the first query's chunk again");
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
            take(q, "op");
        }
        assertEquals(8, arena.allocatedChunks());
        assertEquals(0, arena.freeChunks());
        take(q, "op");
        assertEquals(9, arena.allocatedChunks(), "the ninth comes on demand");
        q.releaseAll();
        assertEquals(8, arena.freeChunks(), "the free list keeps the preallocated amount, drops the rest");
        assertEquals(0, arena.inUseBytes());
        QueryMemory again = arena.forQuery(2);
        for (int i = 0; i < 8; i++) {
            take(again, "op");
        }
        assertEquals(9, arena.allocatedChunks(), "the next query reuses them");
        again.releaseAll();
    }

    @Test
    void onDemandAllocatesEveryChunkAndKeepsNone() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, Long.MAX_VALUE);
        assertEquals(0, arena.allocatedChunks());
        QueryMemory q = arena.forQuery(1);
        take(q, "op");
        q.releaseAll();
        assertEquals(0, arena.freeChunks());
        QueryMemory next = arena.forQuery(2);
        take(next, "op");
        assertEquals(2, arena.allocatedChunks());
        next.releaseAll();
        assertEquals(0, arena.inUseBytes());
    }

    @Test
    void overTheBudgetIsAQueryFailureThatNamesBudgetAmountAndOperator() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, 2L * KIB_32 + 5);
        QueryMemory q = arena.forQuery(7);
        take(q, "hash join j");
        take(q, "hash join j");
        QueryFailedException e = assertThrows(QueryFailedException.class, () -> take(q, "hash join j"));
        assertEquals("query 7: hash join j asked for 32768 bytes, over troupe.memory.budget = 65541 bytes "
                + "(65536 bytes held by all queries); this query holds 65536 bytes", e.getMessage());
        assertEquals(2L * KIB_32, arena.inUseBytes(), "the failed take reserved nothing");
        q.releaseAll();
        assertEquals(0, arena.inUseBytes());
        QueryMemory next = arena.forQuery(8);
        take(next, "hash join j");
        next.releaseAll();
    }

    @Test
    void aTakeAfterTheReleaseFailsAndKeepsNothing() {
        MemoryArena arena = new MemoryArena(KIB_32, KIB_32, Long.MAX_VALUE);
        QueryMemory q = arena.forQuery(3);
        take(q, "op");
        q.releaseAll();
        q.releaseAll();
        QueryFailedException e = assertThrows(QueryFailedException.class, () -> take(q, "late op"));
        assertEquals("query 3: late op asked for memory after the query's memory was released", e.getMessage());
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
                            long[] chunk = take(q, "op");
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

    @Test
    void reservationsCountTheirBytesAndPeaksAndTheQueryCountsThemAll() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, 1 << 20);
        QueryMemory q = arena.forQuery(1);
        MemoryReservation build = q.reservation("build", "hash join j");
        MemoryReservation sort = q.reservation("sort", "sort s");
        build.grow(1000);
        sort.grow(500);
        build.shrink(600);
        assertEquals(400, build.heldBytes());
        assertEquals(1000, build.peakBytes());
        assertEquals(500, sort.peakBytes());
        assertEquals(900, q.heldBytes());
        assertEquals(1500, q.peakBytes());
        assertEquals(900, arena.inUseBytes());
        assertEquals(List.of(build, sort), q.reservations());
        assertThrows(IllegalStateException.class, () -> sort.shrink(501), "nobody gives back more than it holds");
        q.releaseAll();
        assertEquals(0, arena.inUseBytes());
        assertEquals(0, q.heldBytes());
    }

    @Test
    void tryGrowRefusesPastTheBudgetWithoutReservingAndTheQueryLimitBindsToo() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, 100_000);
        QueryMemory a = arena.tryAdmit(1, 0, 60_000);
        MemoryReservation r = a.reservation("op", "aggregate a");
        assertTrue(r.tryGrow(60_000));
        assertFalse(r.tryGrow(1), "the query's limit");
        QueryFailedException limit = assertThrows(QueryFailedException.class, () -> r.grow(10));
        assertEquals("query 1: aggregate a asked for 10 bytes, over the query's limit troupe.memory.query-limit = "
                + "60000 bytes; this query holds 60000 bytes", limit.getMessage());
        QueryMemory b = arena.forQuery(2);
        MemoryReservation other = b.reservation("op", "sort b");
        assertFalse(other.tryGrow(40_001), "the budget: 60000 + 40001 > 100000");
        assertEquals(60_000, arena.inUseBytes(), "a refused grow reserves nothing");
        assertTrue(other.tryGrow(40_000));
        a.releaseAll();
        b.releaseAll();
        assertEquals(0, arena.inUseBytes());
    }

    @Test
    void anAdmittedQueryHoldsItsReservationFirstAndGrowsPastItIntoTheFreeBudget() {
        MemoryArena arena = new MemoryArena(KIB_32, 0, 100_000);
        QueryMemory q = arena.tryAdmit(1, 30_000, 100_000);
        assertEquals(30_000, arena.inUseBytes(), "set aside on admission");
        MemoryReservation r = q.reservation("op", "op");
        r.grow(20_000);
        assertEquals(30_000, arena.inUseBytes(), "used within the reservation");
        r.grow(20_000);
        assertEquals(40_000, arena.inUseBytes(), "past it, from the free budget");
        assertNull(arena.tryAdmit(2, 60_001, 100_000), "the reservation does not fit now");
        assertEquals(40_000, arena.inUseBytes(), "a refused admission reserves nothing");
        r.shrink(35_000);
        assertEquals(30_000, arena.inUseBytes(), "shrinking gives back only what is past the reservation");
        QueryMemory next = arena.tryAdmit(2, 60_000, 100_000);
        assertEquals(90_000, arena.inUseBytes());
        IllegalArgumentException never = assertThrows(IllegalArgumentException.class,
                () -> arena.tryAdmit(3, 100_001, 200_000));
        assertEquals("query 3: a reservation of 100001 bytes can never fit: troupe.memory.budget = 100000 bytes, "
                + "the query's limit 200000 bytes", never.getMessage());
        q.releaseAll();
        next.releaseAll();
        assertEquals(0, arena.inUseBytes());
    }

    @Test
    void aChunkReturnedBeforeTheEndGoesBackToTheArenaAndTheBudget() {
        MemoryArena arena = new MemoryArena(KIB_32, 2L * KIB_32, 2L * KIB_32);
        QueryMemory q = arena.forQuery(1);
        MemoryReservation r = q.reservation("build", "hash join j");
        long[] first = r.takeChunk();
        long[] second = r.takeChunk();
        assertNull(r.tryTakeChunk(), "the budget holds two");
        r.returnChunk(first);
        assertEquals(KIB_32, arena.inUseBytes());
        assertEquals(KIB_32, r.heldBytes());
        assertSame(first, r.takeChunk(), "the returned chunk is the next one handed out");
        assertThrows(IllegalArgumentException.class, () -> r.returnChunk(new long[KIB_32 / Long.BYTES]));
        q.releaseAll();
        assertEquals(0, arena.inUseBytes());
        assertEquals(2, arena.freeChunks());
        assertTrue(second.length > 0);
    }

    @Test
    void freeChunksCountInTheBudgetAndGiveWayToAReservationThatNeedsTheirRoom() {
        // Four chunks' budget, three of them preallocated: the free list holds three quarters of it.
        MemoryArena arena = new MemoryArena(KIB_32, 3L * KIB_32, 4L * KIB_32);
        QueryMemory q = arena.forQuery(1);
        MemoryReservation table = q.reservation("agg", "aggregate a");
        assertTrue(table.tryGrow(KIB_32), "the one chunk's room nobody caches");
        assertEquals(3, arena.freeChunks(), "the free list untouched while the budget had room");
        assertTrue(table.tryGrow(2L * KIB_32));
        assertEquals(1, arena.freeChunks(), "two free chunks dropped for the reservation");
        MemoryReservation join = q.reservation("build", "hash join j");
        long[] chunk = join.takeChunk();
        assertEquals(0, arena.freeChunks(), "the last free chunk went to the join, counted once");
        assertEquals(3, arena.allocatedChunks(), "and was not allocated anew");
        assertNull(join.tryTakeChunk(), "the budget is full");
        assertFalse(table.tryGrow(1));
        q.releaseAll();
        assertEquals(0, arena.inUseBytes());
        assertEquals(1, arena.freeChunks(), "the chunk came back to the list");
        assertTrue(chunk.length > 0);
    }

    @Test
    void preallocatingMoreThanTheBudgetIsASettingsError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MemoryArena(KIB_32, 4L * KIB_32, 2L * KIB_32));
        assertEquals("troupe.memory.preallocate (131072 bytes) is larger than troupe.memory.budget (65536 bytes): "
                + "queries could never use what it keeps", e.getMessage());
    }

    @Test
    void preallocatingMoreThanTheHeapFailsBeforeAllocatingAnything() {
        long heap = Runtime.getRuntime().maxMemory();
        long tooMuch = (heap / KIB_32 + 1) * KIB_32;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MemoryArena(KIB_32, tooMuch, Long.MAX_VALUE));
        assertEquals("troupe.memory.preallocate (" + tooMuch + " bytes) is larger than the maximum heap ("
                + heap + " bytes, -Xmx)", e.getMessage());
    }

    private static long[] take(QueryMemory q, String operator) {
        return q.reservation(operator, operator).takeChunk();
    }

    private static Set<long[]> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }

    @Test
    void theSameChunkComesBackToTheSameHolderWhenAloneOnTheArena() {
        MemoryArena arena = new MemoryArena(KIB_32, KIB_32, Long.MAX_VALUE);
        QueryMemory q = arena.forQuery(1);
        long[] chunk = take(q, "op");
        q.releaseAll();
        QueryMemory next = arena.forQuery(2);
        assertSame(chunk, take(next, "op"));
        next.releaseAll();
    }
}
