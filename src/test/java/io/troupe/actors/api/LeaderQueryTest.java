package io.troupe.actors.api;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.exec.ThrowingProbe;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queries of the leader alone (0 workers), run on the caller's thread by a {@code LocalRun}: a
 * timeout leaves nothing behind once the query ended (no timer, no actor system), {@link Troupe#close()}
 * stops them within a batch, and an Error thrown by an operator fails only its query.
 */
class LeaderQueryTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final QueryOptions LEADER = QueryOptions.defaults().withWorkers(0);

    /** A probe side that would run for hours over facts' hash table (which holds arena memory). */
    private static final Plan ENDLESS_JOIN = Plan.series("x", 1, 1_000_000_000_000L)
            .join(Plan.scan("facts"), JoinType.INNER, col("x").eq(col("facts.id")))
            .aggregate(List.of(), count().as("n"));

    private Troupe troupe;

    @BeforeEach
    void start() {
        // With 0 default workers the actor system starts with the first query that asks for workers.
        troupe = FactsAndDims.start(FactsAndDims.settings().withDefaultWorkers(0));
    }

    @AfterEach
    void close() {
        troupe.close();
    }

    @Test
    @Timeout(120)
    void aTimeoutKeepsNothingOnceTheQueryEnded() throws Exception {
        Plan plan = Plan.series("x", 1, 20_000).project(col("x").times(lit(2L)).as("y"));
        QueryOptions longTimeout = LEADER.withTimeout(Duration.ofHours(1));
        List<WeakReference<Batch>> results = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            QueryResult result = troupe.execute(plan, longTimeout);
            assertEquals(20_000, result.rowCount());
            results.add(new WeakReference<>(result.batches().get(0)));
            try (QueryStream stream = troupe.stream(plan, longTimeout)) {
                results.add(new WeakReference<>(stream.next(WAIT)));
            }
        }
        assertNull(troupe.actorSystemName(), "a leader's timeout starts no actor system");
        assertEquals(0, troupe.status().runningQueries());
        // No timer or registry holds an ended query's context, so its results go with the caller's last use.
        awaitTrue(() -> {
            System.gc();
            return results.stream().allMatch(r -> r.get() == null);
        }, "every result of an ended query is collected");
    }

    @Test
    @Timeout(60)
    void aShortTimeoutStillCancelsTheLeader() {
        QueryCancelledException e = assertThrows(QueryCancelledException.class,
                () -> troupe.execute(ENDLESS_JOIN, LEADER.withTimeout(Duration.ofMillis(30))));
        assertTrue(e.getMessage().endsWith("cancelled: timed out after 30 ms"), e.getMessage());
        assertEquals(0, troupe.memoryArena().inUseBytes());
        assertNull(troupe.actorSystemName());
    }

    @Test
    @Timeout(60)
    void closeStopsAQueryRunningOnItsCallersThread() throws Exception {
        MemoryArena arena = troupe.memoryArena();
        ExecutorService caller = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "leader-query-caller");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<QueryResult> running = caller.submit(() -> troupe.execute(ENDLESS_JOIN, LEADER));
            awaitTrue(() -> arena.inUseBytes() > 0, "the query built its hash table and probes");
            assertEquals(1, troupe.status().runningQueries());
            troupe.close();
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> running.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            QueryCancelledException cancelled = assertInstanceOf(QueryCancelledException.class, e.getCause());
            assertTrue(cancelled.getMessage().endsWith("cancelled: the Troupe closed"), cancelled.getMessage());
            assertEquals(0, arena.inUseBytes());
            assertEquals(0, troupe.status().runningQueries());
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    @Timeout(60)
    void closeEndsTheLeadersStreams() throws Exception {
        MemoryArena arena = troupe.memoryArena();
        QueryStream stream = troupe.stream(Plan.series("x", 1, 1_000_000_000_000L)
                .join(Plan.scan("facts"), JoinType.INNER, col("x").eq(col("facts.id"))), LEADER);
        try {
            assertNotNull(stream.next(WAIT));
            assertTrue(arena.inUseBytes() > 0, "the hash table is held while the probe streams");
            troupe.close();
            QueryCancelledException e = assertThrows(QueryCancelledException.class, () -> {
                for (Batch b = stream.next(WAIT); b != null; b = stream.next(WAIT)) {
                    assertTrue(b.size() > 0);
                }
            });
            assertTrue(e.getMessage().endsWith("cancelled: the Troupe closed"), e.getMessage());
            assertEquals(0, arena.inUseBytes());
        } finally {
            stream.close();
        }
        assertThrows(IllegalStateException.class, () -> troupe.execute(Plan.scan("facts"), LEADER));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"execute", "stream"})
    @Timeout(60)
    void anErrorFromAnOperatorFailsOnlyItsQuery(String how) throws Exception {
        Plan plan = Plan.scan("facts").join(Plan.scan("dims"), JoinType.INNER, col("facts.k").eq(col("dims.k")));
        long rows = troupe.execute(plan, LEADER).rowCount();
        assertTrue(rows > 0);
        for (Supplier<Error> error : List.<Supplier<Error>>of(() -> new OutOfMemoryError("Java heap space (injected)"),
                StackOverflowError::new)) {
            PlanCompiler.CompiledQuery query = new PlanCompiler(troupe.catalog(), troupe.settings()).compile(plan);
            ThrowingProbe probe = new ThrowingProbe(ThrowingProbe.DEPENDENT, 10, error);
            QueryFailedException e = assertThrows(QueryFailedException.class, () -> {
                if (how.equals("execute")) {
                    troupe.submit(query, LEADER, probe).await();
                    return;
                }
                try (QueryStream stream = troupe.stream(query, LEADER, probe)) {
                    stream.remaining();
                }
            });
            Error cause = assertInstanceOf(Error.class, e.getCause());
            assertTrue(e.getMessage().contains(" failed: " + cause), e.getMessage());
            assertEquals(0, troupe.memoryArena().inUseBytes());
            assertEquals(0, troupe.status().runningQueries());
            // The Troupe goes on: the same join, without the fault, returns what it returned before.
            assertEquals(rows, troupe.execute(plan, LEADER).rowCount());
        }
    }

    /** Waits, bounded, for a condition that another thread makes true (not a timing assertion). */
    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "never happened: " + what);
            Thread.sleep(10);
        }
    }
}
