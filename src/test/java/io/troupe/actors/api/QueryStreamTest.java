package io.troupe.actors.api;

import io.troupe.actors.exchange.BatchHandOver;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Troupe#stream}: the same rows as {@link Troupe#execute} (and DuckDB's), a slow reader holds
 * the query back with no more than the hand-over's batches in it, and a close, a failure or a
 * timeout ends the query with nothing left running or held.
 */
class QueryStreamTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private Troupe troupe;

    @BeforeEach
    void start() {
        troupe = FactsAndDims.start();
    }

    @AfterEach
    void close() {
        troupe.close();
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    @Timeout(120)
    void streamsTheRowsExecuteReturns(int workers) throws Exception {
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        for (Plan plan : ParallelExecutionTest.plans()) {
            List<Batch> taken = new ArrayList<>();
            try (QueryStream stream = troupe.stream(plan, options)) {
                for (Batch b = stream.next(WAIT); b != null; b = stream.next(WAIT)) {
                    assertTrue(b.size() > 0, "no empty batch is handed out");
                    taken.add(b);
                }
                assertNull(stream.next(WAIT), "the end stays the end");
                // Read only now: every batch is still valid after the calls that followed it.
                QueryResult streamed = new QueryResult(stream.schema(), taken);
                assertEquals(sorted(troupe.execute(plan, options)), sorted(streamed), () -> troupe.explain(plan));
            }
            assertEquals(0, troupe.openChannels());
            assertEquals(0, troupe.liveWorkers());
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void aSortAtTheTopStreamsInOrder(int workers) throws Exception {
        Plan plan = Plan.scan("facts").sort(col("v").desc()).limit(700);
        try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
            assertEquals(troupe.execute(plan, QueryOptions.defaults().withWorkers(0)).rows(), stream.remaining().rows());
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void agreesWithDuckDb(int workers) throws Exception {
        long n = 300_000;
        Plan plan = Plan.series("x", 1, n).filter(col("x").mod(lit(7L)).eq(lit(3L)))
                .project(col("x"), col("x").times(lit(2L)).as("y"));
        long rows = 0;
        long sumX = 0;
        long sumY = 0;
        try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
            for (Batch b = stream.next(WAIT); b != null; b = stream.next(WAIT)) {
                for (int i = 0; i < b.size(); i++) {
                    Object[] row = b.rowObjects(i);
                    rows++;
                    sumX += (Long) row[0];
                    sumY += (Long) row[1];
                }
            }
        }
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("select count(*), sum(x), sum(x * 2) from generate_series(1, " + n
                     + ") t(x) where x % 7 = 3")) {
            assertTrue(rs.next());
            assertEquals(List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3)), List.of(rows, sumX, sumY));
        } catch (SQLException e) {
            throw new AssertionError("DuckDB failed: " + e, e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TroupeSettings.GatherTransport.class)
    @Timeout(120)
    void aSlowReaderHoldsTheQueryBackWithABoundedHandOver(TroupeSettings.GatherTransport kind) throws Exception {
        long n = 2_000_000;
        long batches = n / 64;
        try (Troupe other = Troupe.start(withTransport(troupe.settings(), kind));
             QueryStream stream = other.stream(Plan.series("x", 1, n), QueryOptions.defaults().withWorkers(2))) {
            BatchHandOver handOver = stream.handOver();
            long rows = 0;
            long sum = 0;
            long taken = 0;
            // A slow reader: one batch, then nothing until the Gather has stopped for want of room.
            for (int i = 0; i < 20; i++) {
                Batch b = stream.next(WAIT);
                assertNotNull(b);
                taken++;
                rows += b.size();
                sum += sumOf(b);
                awaitTrue(handOver::producerParked, "the Gather parks on the full hand-over");
                long held = handOver.batchesIn() - taken;
                assertTrue(held > 0 && held <= handOver.capacity(), "parked with " + held + " batches held");
                assertEquals(2, other.liveWorkers(), "the workers wait on their full channels, not finished");
            }
            // Far fewer batches were produced than the query has: the rest waits for the reader.
            assertTrue(handOver.batchesIn() < batches / 10, handOver.batchesIn() + " of " + batches + " batches in");
            for (Batch b = stream.next(WAIT); b != null; b = stream.next(WAIT)) {
                taken++;
                rows += b.size();
                sum += sumOf(b);
            }
            assertEquals(n, rows);
            assertEquals(n * (n + 1) / 2, sum);
            assertEquals(taken, handOver.batchesIn());
            assertTrue(handOver.mostHeld() <= QueryStream.HAND_OVER_BATCHES, "held " + handOver.mostHeld());
            assertEquals(0, other.openChannels());
            assertEquals(0, other.liveWorkers());
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void closeMidStreamReleasesWorkersChannelsAndMemory(int workers) throws Exception {
        MemoryArena arena = troupe.memoryArena();
        // facts is the build side (its hash table holds arena memory); the probe side is long.
        Plan plan = Plan.series("x", 1, 100_000_000L).join(Plan.scan("facts"), JoinType.INNER, col("x").eq(col("facts.id")));
        try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
            assertNotNull(stream.next(WAIT));
            assertTrue(arena.inUseBytes() > 0, "the hash table is held while the probe streams");
        }
        assertEquals(0, arena.inUseBytes());
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
        assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(workers)).rowCount());
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void aFailureIsThrownByTheNextCallAndTheOnesAfter(int workers) throws Exception {
        Plan plan = Plan.scan("facts").project(col("id").div(col("k").minus(col("k"))).as("q"));
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        QueryFailedException executed = assertThrows(QueryFailedException.class, () -> troupe.execute(plan, options));
        try (QueryStream stream = troupe.stream(plan, options)) {
            QueryFailedException first = assertThrows(QueryFailedException.class, () -> stream.next(WAIT));
            assertEquals(executed.getMessage(), first.getMessage());
            assertTrue(first.getMessage().contains("division by zero"), first.getMessage());
            assertSame(first, assertThrows(QueryFailedException.class, () -> stream.next(WAIT)));
        }
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
        assertEquals(0, troupe.memoryArena().inUseBytes());
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void theQueryTimeoutFailsTheStream(int workers) {
        // No row passes until the very end: the stream has nothing to hand out when the timeout comes.
        Plan plan = Plan.series("x", 1, 1_000_000_000L).filter(col("x").eq(lit(1_000_000_000L)));
        try (QueryStream stream = troupe.stream(plan,
                QueryOptions.defaults().withWorkers(workers).withTimeout(Duration.ofMillis(50)))) {
            QueryCancelledException e = assertThrows(QueryCancelledException.class, () -> stream.next(WAIT));
            assertTrue(e.getMessage().contains("timed out after 50 ms"), e.getMessage());
        }
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void nextGivesUpAtItsTimeoutAndTheStreamGoesOn(int workers) throws Exception {
        Plan plan = Plan.series("x", 1, 1_000_000_000L).filter(col("x").eq(lit(1_000_000_000L)));
        try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
            assertThrows(TimeoutException.class, () -> stream.next(Duration.ofMillis(20)));
            assertThrows(TimeoutException.class, () -> stream.next(Duration.ZERO));
        }
        assertEquals(0, troupe.openChannels());
        assertEquals(0, troupe.liveWorkers());
        assertEquals(0, troupe.memoryArena().inUseBytes());
        assertThrows(IllegalStateException.class, () -> {
            try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
                stream.close();
                stream.next(WAIT);
            }
        });
    }

    @Test
    @Timeout(60)
    void closingTheTroupeEndsItsStreams() {
        Troupe other = Troupe.start(troupe.settings());
        QueryStream stream;
        try {
            stream = other.stream(Plan.series("x", 1, 1_000_000_000L), QueryOptions.defaults().withWorkers(2));
        } finally {
            other.close();
        }
        QueryCancelledException e = assertThrows(QueryCancelledException.class, () -> {
            for (Batch b = stream.next(WAIT); b != null; b = stream.next(WAIT)) {
                assertTrue(b.size() > 0);
            }
        });
        assertTrue(e.getMessage().contains("the Troupe closed"), e.getMessage());
        assertEquals(0, other.memoryArena().inUseBytes());
        stream.close();
    }

    /** Waits, bounded, for a condition that the query's actors make true (not a timing assertion). */
    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "never happened: " + what);
            Thread.sleep(1);
        }
    }

    private static long sumOf(Batch b) {
        long sum = 0;
        for (int i = 0; i < b.size(); i++) {
            sum += (Long) b.rowObjects(i)[0];
        }
        return sum;
    }

    private static List<List<Object>> sorted(QueryResult result) {
        List<List<Object>> rows = new ArrayList<>(result.rows());
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }

    private static TroupeSettings withTransport(TroupeSettings s, TroupeSettings.GatherTransport kind) {
        TroupeSettings.Transport t = s.transport();
        return new TroupeSettings(s.batchSize(), s.matchFlags(), new TroupeSettings.Transport(kind, t.wakeups(),
                t.queueCapacity(), t.termLengthBytes(), t.mtuBytes(), t.idleStrategy(), t.driverThreading(),
                t.directoryParent()), s.workers());
    }
}
