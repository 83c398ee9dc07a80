package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Admission through the facade: a stream holds its slot until it is closed, the next query waits in
 * the queue (and then runs right), a full queue or a query that can never fit is turned away at once
 * saying why, a query whose own timeout passes in the queue is cancelled, and under overload every
 * query either answers right or is rejected, and nothing is left behind.
 */
class AdmissionControlTest {

    private static final Plan COUNT = Plan.scan("facts").aggregate(List.of(), Expr.count());

    private static Troupe start(int maxConcurrent, int queueSize, Duration queueTimeout) {
        return FactsAndDims.start(FactsAndDims.settings().withAdmission(new TroupeSettings.Admission(maxConcurrent, queueSize, queueTimeout,
                TroupeSettings.Admission.AUTO)));
    }

    @Test
    @Timeout(60)
    void anOpenStreamHoldsItsSlotTheNextWaitsAndAFullQueueRejectsAtOnce() throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (Troupe troupe = start(1, 1, Duration.ofMinutes(1))) {
            long expected = count(troupe.execute(COUNT, QueryOptions.defaults().withWorkers(0)));
            QueryStream open = troupe.stream(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2));
            open.next(Duration.ofSeconds(10));
            Future<Long> waiting = caller.submit(() -> count(troupe.execute(COUNT, QueryOptions.defaults().withWorkers(2))));
            awaitQueued(troupe, 1);
            QueryRejectedException full = assertThrows(QueryRejectedException.class,
                    () -> troupe.execute(COUNT, QueryOptions.defaults().withWorkers(0)));
            assertEquals(QueryRejectedException.Reason.QUEUE_FULL, full.reason());
            assertTrue(full.getMessage().contains("(troupe.admission.queue-size = 1), 1 run "
                    + "(troupe.admission.max-concurrent = 1)"), full.getMessage());
            open.close();
            assertEquals(expected, waiting.get(30, TimeUnit.SECONDS), "the waiting query ran once the stream closed");
            assertNothingHeld(troupe);
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    @Timeout(60)
    void waitingPastTheQueueTimeoutIsARejectionAndAnInterruptEndsTheWait() throws Exception {
        try (Troupe troupe = start(1, 5, Duration.ofMillis(200))) {
            try (QueryStream open = troupe.stream(Plan.scan("facts"), QueryOptions.defaults().withWorkers(0))) {
                open.next(Duration.ofSeconds(10));
                QueryRejectedException late = assertThrows(QueryRejectedException.class,
                        () -> troupe.execute(COUNT, QueryOptions.defaults().withWorkers(2)));
                assertEquals(QueryRejectedException.Reason.QUEUE_TIMEOUT, late.reason());
                Thread.currentThread().interrupt();
                QueryCancelledException interrupted = assertThrows(QueryCancelledException.class,
                        () -> troupe.execute(COUNT, QueryOptions.defaults().withWorkers(0)));
                assertTrue(Thread.interrupted(), "the interrupt stays set");
                assertTrue(interrupted.getMessage().endsWith("interrupted while it waited to be admitted"),
                        interrupted.getMessage());
                assertEquals(0, troupe.status().queuedQueries());
            }
            assertEquals(5000, count(troupe.execute(Plan.scan("facts").aggregate(List.of(), Expr.count()))));
            assertNothingHeld(troupe);
        }
    }

    @Test
    @Timeout(60)
    void aQueryAskingForMoreMemoryThanAQueryMayHoldIsRejectedAtOnce() throws InterruptedException {
        try (Troupe troupe = start(2, 5, Duration.ofMinutes(1))) {
            long budget = troupe.memoryArena().budgetBytes();
            QueryRejectedException e = assertThrows(QueryRejectedException.class,
                    () -> troupe.execute(COUNT, QueryOptions.defaults().withMemory(budget + 1)));
            assertEquals(QueryRejectedException.Reason.NEVER_FITS, e.reason());
            assertTrue(e.getMessage().contains("asks for " + (budget + 1) + " bytes of memory"), e.getMessage());
            assertEquals(5000, count(troupe.execute(COUNT, QueryOptions.defaults().withMemory(budget / 2))));
            assertNothingHeld(troupe);
        }
    }

    /**
     * Six client threads send 25 queries each, parallel and on the leader, at a Troupe that runs two
     * at a time and queues three: each query returns the groups the leader alone found (checked once,
     * unloaded) or is rejected for a full queue or its queue timeout; nothing else fails, and afterwards
     * nothing runs, waits or is held.
     */
    @Test
    @Timeout(120)
    void underOverloadEveryQueryAnswersRightOrIsRejectedAndNothingIsLeftBehind() throws Exception {
        try (Troupe troupe = start(2, 3, Duration.ofMillis(500))) {
            Plan joined = Plan.scan("facts").filter(col("k").gt(lit(3))).aggregate(List.of(col("k")), Expr.count());
            long groups = troupe.execute(joined, QueryOptions.defaults().withWorkers(0)).rowCount();
            AtomicInteger answered = new AtomicInteger();
            AtomicInteger rejected = new AtomicInteger();
            List<Throwable> wrong = new ArrayList<>();
            ExecutorService clients = Executors.newFixedThreadPool(6);
            for (int c = 0; c < 6; c++) {
                int client = c;
                clients.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        try {
                            long rows = troupe.execute(joined, QueryOptions.defaults().withWorkers((client + i) % 3))
                                    .rowCount();
                            if (rows != groups) {
                                throw new AssertionError("client " + client + " query " + i + ": " + rows + " groups");
                            }
                            answered.incrementAndGet();
                        } catch (QueryRejectedException e) {
                            rejected.incrementAndGet();
                        } catch (Throwable e) {
                            synchronized (wrong) {
                                wrong.add(e);
                            }
                        }
                    }
                });
            }
            clients.shutdown();
            assertTrue(clients.awaitTermination(100, TimeUnit.SECONDS));
            assertEquals(List.of(), wrong);
            assertEquals(150, answered.get() + rejected.get());
            assertTrue(answered.get() > 0);
            assertNothingHeld(troupe);
        }
    }

    private static void assertNothingHeld(Troupe troupe) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        TroupeStatus status = troupe.status();
        while ((status.runningQueries() > 0 || status.liveWorkers() > 0) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            status = troupe.status();
        }
        assertEquals(0, status.runningQueries(), status::toString);
        assertEquals(0, status.queuedQueries(), status::toString);
        assertEquals(0, status.liveWorkers(), status::toString);
        assertEquals(0, status.openChannels(), status::toString);
        assertEquals(0, status.memoryInUseBytes(), status::toString);
    }

    private static void awaitQueued(Troupe troupe, int queued) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (troupe.status().queuedQueries() < queued) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no query queued: " + troupe.status());
            }
            Thread.sleep(5);
        }
    }

    private static long count(io.troupe.operators.exec.QueryResult result) {
        if (result.rowCount() != 1) {
            throw new QueryFailedException("expected one row, got " + result.rowCount());
        }
        return ((Number) result.rows().get(0).get(0)).longValue();
    }
}
