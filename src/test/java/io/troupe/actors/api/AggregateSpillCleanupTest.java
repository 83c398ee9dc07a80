package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hash aggregate that spills and then ends badly (a cancel, a timeout, an error in its input, the
 * spill space's cap) leaves nothing behind: no spill file, no memory held, no worker; and the next
 * query on the same Troupe spills and answers as if nothing had happened.
 */
class AggregateSpillCleanupTest {

    private static final long BUDGET = 512 * 1024;

    private static Troupe start(long spillCap) {
        TroupeSettings s = TroupeSettings.load();
        return Troupe.start(s.withMemory(new TroupeSettings.Memory(TroupeSettings.Memory.MIN_CHUNK_BYTES, 0, BUDGET))
                .withSpill(new TroupeSettings.Spill(true, s.spill().directory(), spillCap)));
    }

    /** Groups of unique keys, far more than the budget holds: it spills from the first few batches on. */
    private static Plan grouping(long rows) {
        return Plan.series("x", 1, rows).aggregate(List.of(col("x")), Expr.count().as("n"), Expr.sum(col("x")).as("s"))
                .having(col("n").gt(lit(1L)));
    }

    private static void assertNothingLeft(Troupe troupe) {
        assertEquals(0, troupe.spillSpace().fileCount(), "spill files left");
        assertEquals(0, troupe.spillSpace().heldBytes(), "spill bytes held");
        assertEquals(0, troupe.memoryArena().inUseBytes(), "memory held");
        TroupeStatus status = troupe.status();
        assertEquals(0, status.runningQueries(), status::toString);
        assertEquals(0, status.liveWorkers(), status::toString);
    }

    /** The next query spills and answers: nothing of the last one is in its way. */
    private static void assertTheNextQueryRuns(Troupe troupe, int workers) {
        long written = troupe.spillSpace().writtenBytes();
        assertEquals(0, troupe.execute(grouping(50_000), QueryOptions.defaults().withWorkers(workers)).rowCount());
        assertTrue(troupe.spillSpace().writtenBytes() > written, "the next query spilled too");
        assertNothingLeft(troupe);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {2, 4})
    @Timeout(120)
    void aCancelWhileSpillingLeavesNothing(int workers) throws Exception {
        try (Troupe troupe = start(Long.MAX_VALUE)) {
            RunningQuery running = troupe.submit(grouping(1_000_000_000L), QueryOptions.defaults().withWorkers(workers));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (troupe.spillSpace().fileCount() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(troupe.spillSpace().fileCount() > 0, "the query spilled before the cancel");
            running.cancel("test");
            assertThrows(QueryCancelledException.class, running::await);
            assertNothingLeft(troupe);
            assertTheNextQueryRuns(troupe, workers);
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(120)
    void aTimeoutWhileSpillingLeavesNothing(int workers) {
        try (Troupe troupe = start(Long.MAX_VALUE)) {
            QueryCancelledException e = assertThrows(QueryCancelledException.class, () -> troupe.execute(
                    grouping(1_000_000_000L), QueryOptions.defaults().withWorkers(workers).withTimeout(Duration.ofSeconds(2))));
            assertTrue(e.getMessage().contains("timed out after 2000 ms"), e.getMessage());
            assertTrue(troupe.spillSpace().writtenBytes() > 0, "the query spilled before its timeout");
            assertNothingLeft(troupe);
            assertTheNextQueryRuns(troupe, workers);
        }
    }

    /** A division by zero at x = 300,000, long after the aggregate began to spill. */
    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(120)
    void anErrorAfterSpillingLeavesNothing(int workers) {
        try (Troupe troupe = start(Long.MAX_VALUE)) {
            Plan failing = Plan.series("x", 1, 400_000).aggregate(List.of(col("x")),
                    Expr.sum(lit(1L).div(col("x").minus(lit(300_000L)))).as("q"));
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(failing, QueryOptions.defaults().withWorkers(workers)));
            assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
            assertTrue(troupe.spillSpace().writtenBytes() > 0, "the query spilled before it failed");
            assertNothingLeft(troupe);
            assertTheNextQueryRuns(troupe, workers);
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(120)
    void theSpillCapFailsTheQueryNamingItAndLeavesNothing(int workers) {
        try (Troupe troupe = start(4L * 1024 * 1024)) {
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(grouping(2_000_000), QueryOptions.defaults().withWorkers(workers)));
            assertTrue(e.getMessage().contains("over troupe.spill.max-size = 4194304 bytes"), e.getMessage());
            assertTrue(e.getMessage().contains("hash aggregate"), e.getMessage());
            assertNothingLeft(troupe);
            assertTheNextQueryRuns(troupe, workers);
        }
    }
}
