package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.memory.QueryMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Admission alone, over a real arena: the concurrency limit, memory reserved on admission, the
 * bounded FIFO queue, its timeout, rejections that say why, withdrawal, close; and many threads
 * admitting and finishing at once never pass the limit or the budget, and leave nothing behind.
 */
class AdmissionTest {

    private static final int CHUNK = 32 * 1024;
    private static final long BUDGET = 1_000_000;

    private static Admission admission(int maxConcurrent, int queueSize, Duration timeout, long queryMemory) {
        MemoryArena arena = new MemoryArena(CHUNK, 0, BUDGET);
        return new Admission(arena, new TroupeSettings.Admission(maxConcurrent, queueSize, timeout, queryMemory), BUDGET);
    }

    @Test
    @Timeout(30)
    void atMostMaxConcurrentRunAndTheNextWaitsInOrderForOneToFinish() {
        try (Admission admission = admission(2, 10, Duration.ofMinutes(1), 100_000)) {
            QueryMemory a = admission.admit(1).join();
            QueryMemory b = admission.admit(2).join();
            assertEquals(200_000, reserved(a, b), "each reserved its share on admission");
            CompletableFuture<QueryMemory> c = admission.admit(3);
            CompletableFuture<QueryMemory> d = admission.admit(4);
            assertFalse(c.isDone());
            assertEquals(2, admission.queued());
            a.releaseAll();
            admission.finished();
            assertTrue(c.isDone(), "the head of the queue goes first");
            assertFalse(d.isDone());
            assertEquals(3, c.join().queryId());
            assertEquals(100_000, c.join().reservationBytes());
            b.releaseAll();
            admission.finished();
            assertEquals(4, d.join().queryId());
            c.join().releaseAll();
            admission.finished();
            d.join().releaseAll();
            admission.finished();
            assertEquals(0, admission.running());
            assertEquals(4, admission.admittedTotal());
        }
    }

    @Test
    @Timeout(30)
    void theHeadWaitsForItsMemoryEvenWithASlotFree() {
        try (Admission admission = admission(4, 10, Duration.ofMinutes(1), 400_000)) {
            QueryMemory a = admission.admit(1).join();
            QueryMemory b = admission.admit(2).join();
            CompletableFuture<QueryMemory> c = admission.admit(3);
            assertFalse(c.isDone(), "800 000 of 1 000 000 bytes are set aside: 400 000 more do not fit");
            assertEquals(2, admission.running());
            a.releaseAll();
            admission.finished();
            assertTrue(c.isDone());
            b.releaseAll();
            admission.finished();
            c.join().releaseAll();
            admission.finished();
        }
    }

    @Test
    @Timeout(30)
    void aFullQueueRejectsAtOnceSayingWhy() {
        try (Admission admission = admission(1, 1, Duration.ofMinutes(1), 0)) {
            QueryMemory a = admission.admit(1).join();
            CompletableFuture<QueryMemory> waiting = admission.admit(2);
            QueryRejectedException e = rejected(admission.admit(3));
            assertEquals(QueryRejectedException.Reason.QUEUE_FULL, e.reason());
            assertEquals("query 3 rejected: 1 queries already wait to be admitted (troupe.admission.queue-size = 1), "
                    + "1 run (troupe.admission.max-concurrent = 1)", e.getMessage());
            assertEquals(1, admission.rejectedTotal());
            a.releaseAll();
            admission.finished();
            waiting.join().releaseAll();
            admission.finished();
        }
    }

    @Test
    @Timeout(30)
    void aQueryThatWaitsPastTheTimeoutIsRejectedAndLeavesTheQueue() {
        try (Admission admission = admission(1, 5, Duration.ofMillis(50), 0)) {
            QueryMemory a = admission.admit(1).join();
            QueryRejectedException e = rejected(admission.admit(2));
            assertEquals(QueryRejectedException.Reason.QUEUE_TIMEOUT, e.reason());
            assertTrue(e.getMessage().startsWith("query 2 rejected: it waited "), e.getMessage());
            assertTrue(e.getMessage().endsWith(" ms to be admitted (troupe.admission.queue-timeout = 50 ms)"),
                    e.getMessage());
            assertEquals(0, admission.queued());
            a.releaseAll();
            admission.finished();
            assertEquals(0, admission.running(), "the timed-out query never ran");
        }
    }

    @Test
    @Timeout(30)
    void aReservationLargerThanAQueryMayHoldIsRejectedAtOnce() {
        try (Admission admission = admission(2, 5, Duration.ofMinutes(1), 0)) {
            QueryRejectedException e = rejected(admission.admit(7, BUDGET + 1));
            assertEquals(QueryRejectedException.Reason.NEVER_FITS, e.reason());
            assertEquals("query 7 rejected: it asks for 1000001 bytes of memory, more than a query may ever hold "
                    + "(1000000 bytes: troupe.memory.budget = 1000000, troupe.memory.query-limit)", e.getMessage());
            assertEquals(0, admission.running());
        }
    }

    @Test
    @Timeout(30)
    void aWithdrawnQueryLeavesTheQueueAndItsTimerAndClosingRejectsTheRest() {
        Admission admission = admission(1, 5, Duration.ofMinutes(10), 0);
        QueryMemory a = admission.admit(1).join();
        CompletableFuture<QueryMemory> b = admission.admit(2);
        CompletableFuture<QueryMemory> c = admission.admit(3);
        assertTrue(admission.withdraw(2, "the caller cancelled"));
        assertFalse(admission.withdraw(2, "again"));
        CompletionException cancelled = assertThrows(CompletionException.class, b::join);
        assertInstanceOf(QueryCancelledException.class, cancelled.getCause());
        assertEquals(1, admission.queued());
        admission.close();
        assertEquals(QueryRejectedException.Reason.CLOSED, rejected(c).reason());
        assertEquals(QueryRejectedException.Reason.CLOSED, rejected(admission.admit(4)).reason());
        a.releaseAll();
    }

    /**
     * Eight threads admit, hold briefly and finish 300 queries each, some with a short queue timeout:
     * never more than max-concurrent run, the arena never holds more than the budget, every query is
     * admitted or rejected, and at the end nothing runs, waits or is held.
     */
    @Test
    @Timeout(60)
    void manyThreadsNeverPassTheLimitOrTheBudgetAndLeaveNothingBehind() throws Exception {
        MemoryArena arena = new MemoryArena(CHUNK, 0, BUDGET);
        int limit = 3;
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        List<Throwable> failures = new ArrayList<>();
        try (Admission admission = new Admission(arena,
                new TroupeSettings.Admission(limit, 4, Duration.ofMillis(20), 300_000), BUDGET)) {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            CountDownLatch start = new CountDownLatch(1);
            for (int t = 0; t < 8; t++) {
                int thread = t;
                pool.submit(() -> {
                    Random random = new Random(thread);
                    try {
                        start.await();
                        for (int i = 0; i < 300; i++) {
                            QueryMemory memory;
                            try {
                                memory = admission.admit(thread * 1000L + i).join();
                            } catch (CompletionException e) {
                                assertInstanceOf(QueryRejectedException.class, e.getCause());
                                done.incrementAndGet();
                                continue;
                            }
                            most.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                            assertTrue(arena.inUseBytes() <= BUDGET);
                            memory.reservation("op", "op").tryGrow(random.nextInt(200_000));
                            Thread.sleep(0, random.nextInt(200_000));
                            concurrent.decrementAndGet();
                            memory.releaseAll();
                            admission.finished();
                            done.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                    return null;
                });
            }
            start.countDown();
            pool.shutdown();
            assertTrue(pool.awaitTermination(50, TimeUnit.SECONDS));
            assertEquals(List.of(), failures);
            assertEquals(8 * 300, done.get());
            assertTrue(most.get() <= limit, "most at once: " + most.get());
            assertEquals(0, admission.running());
            assertEquals(0, admission.queued());
            assertEquals(8 * 300, admission.admittedTotal() + admission.rejectedTotal());
        }
        assertEquals(0, arena.inUseBytes());
    }

    private static long reserved(QueryMemory... queries) {
        long total = 0;
        for (QueryMemory q : queries) {
            total += q.reservationBytes();
        }
        return total;
    }

    private static QueryRejectedException rejected(CompletableFuture<QueryMemory> future) {
        CompletionException e = assertThrows(CompletionException.class, future::join);
        return assertInstanceOf(QueryRejectedException.class, e.getCause());
    }
}
