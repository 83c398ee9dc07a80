package io.troupe.operators.exec;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.spill.SpillSpace;
import io.troupe.operators.table.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LocalRun}, the leader's resumable run: it passes its named states in order and agrees with
 * DuckDB, its own deadline cancels it at the first step past it (an injected clock: no timing), an
 * Error from an operator fails the query with the Error as its cause, and every end (success,
 * failure, timeout, stop) releases the query's memory and reports the end exactly once.
 */
class LocalRunTest {

    private static final long N = 20_000;
    private static final long BUILD = 6_000;

    /** x in 1..N joined with the multiples of 3 in 1..BUILD: the build side takes hash memory. */
    private static final Plan JOIN = Plan.series("x", 1, N)
            .join(Plan.series("y", 1, BUILD).filter(col("y").mod(lit(3L)).eq(lit(0L))), JoinType.INNER,
                    col("x").eq(col("y")))
            .aggregate(List.of(), count().as("n"), sum(col("x")).as("s"));

    private final MemoryArena arena = MemoryArena.onDemand(ExecContext.DEFAULT_CHUNK_BYTES);
    private final AtomicInteger ends = new AtomicInteger();

    @Test
    @Timeout(60)
    void passesItsStatesInOrderAndAgreesWithDuckDb() throws SQLException {
        PlanCompiler.CompiledQuery query = compile(JOIN);
        ExecContext ctx = new ExecContext(1, 64, arena.forQuery(1));
        LocalRun run = LocalRun.toSink(query.pipelines(), ctx, null, r -> ends.incrementAndGet());
        List<LocalRun.State> seen = new ArrayList<>();
        seen.add(run.state());
        long peakHeld = 0;
        while (run.step()) {
            if (seen.get(seen.size() - 1) != run.state()) {
                seen.add(run.state());
            }
            peakHeld = Math.max(peakHeld, ctx.memory().heldBytes());
        }
        seen.add(run.state());
        // Three pipelines (the build, the probe into the aggregate, the aggregate's output), each opened,
        // driven and finalized.
        List<LocalRun.State> once = List.of(LocalRun.State.OPENING, LocalRun.State.DRIVING, LocalRun.State.FINALIZING);
        List<LocalRun.State> expected = new ArrayList<>();
        for (int p = 0; p < query.pipelines().size(); p++) {
            expected.addAll(once);
        }
        expected.add(LocalRun.State.ENDED);
        assertEquals(expected, seen);
        assertFalse(run.step(), "an ended run stays ended");
        assertTrue(peakHeld > 0, "the build's hash table held arena memory");
        assertEquals(0, arena.inUseBytes());
        assertEquals(1, ends.get());

        List<Object> row = rows(ctx, query).get(0);
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("select count(*), sum(x) from generate_series(1, " + N + ") a(x) "
                     + "join (select y from generate_series(1, " + BUILD + ") b(y) where y % 3 = 0) b on x = y")) {
            assertTrue(rs.next());
            assertEquals(List.of(rs.getLong(1), rs.getLong(2)), List.of(((Number) row.get(0)).longValue(),
                    ((Number) row.get(1)).longValue()));
        }
    }

    @Test
    void theDeadlineCancelsAtTheFirstStepPastIt() {
        PlanCompiler.CompiledQuery query = compile(JOIN);
        ExecContext ctx = new ExecContext(2, 64, arena.forQuery(2));
        long start = 1_000_000_000L;
        LocalRun run = LocalRun.toSink(query.pipelines(), ctx, Duration.ofMillis(10), r -> ends.incrementAndGet(),
                start);
        long justBefore = start + Duration.ofMillis(10).toNanos() - 1;
        for (int i = 0; i < 200; i++) {
            assertTrue(run.step(justBefore));
        }
        assertTrue(ctx.memory().heldBytes() > 0, "well into the query: the build holds memory");
        QueryCancelledException e = assertThrows(QueryCancelledException.class, () -> run.step(justBefore + 1));
        assertEquals("query 2 cancelled: timed out after 10 ms", e.getMessage());
        assertEquals(LocalRun.State.FAILED, run.state());
        assertSame(e, assertThrows(QueryCancelledException.class, run::step), "the same failure again");
        assertEquals(0, arena.inUseBytes());
        assertEquals(1, ends.get());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OutOfMemoryError", "StackOverflowError", "AssertionError"})
    @Timeout(60)
    void anErrorFromAnOperatorFailsTheQueryWithTheErrorAsItsCause(String kind) {
        Supplier<Error> error = switch (kind) {
            case "OutOfMemoryError" -> () -> new OutOfMemoryError("Java heap space (injected)");
            case "StackOverflowError" -> StackOverflowError::new;
            default -> () -> new AssertionError("injected");
        };
        PlanCompiler.CompiledQuery query = compile(JOIN);
        ExecContext ctx = new ExecContext(3, 64, arena.forQuery(3), SpillSpace.disabled().forQuery(3), new ThrowingProbe(ThrowingProbe.DEPENDENT, 5, error));
        LocalRun run = LocalRun.toSink(query.pipelines(), ctx, null, r -> ends.incrementAndGet());
        long[] held = {0};
        QueryFailedException e = assertThrows(QueryFailedException.class, () -> {
            while (run.step()) {
                held[0] = Math.max(held[0], ctx.memory().heldBytes());
            }
        });
        assertInstanceOf(Error.class, e.getCause());
        assertEquals(kind, e.getCause().getClass().getSimpleName());
        assertTrue(e.getMessage().startsWith("query 3 failed: java.lang." + kind), e.getMessage());
        assertTrue(held[0] > 0, "the build's table was held when the probe failed");
        assertEquals(LocalRun.State.FAILED, run.state());
        assertEquals(0, arena.inUseBytes());
        assertEquals(1, ends.get());
        assertSame(e, assertThrows(QueryFailedException.class, run::step));
    }

    @Test
    void aRuntimeExceptionFromAnOperatorIsRethrownAsItIs() {
        PlanCompiler.CompiledQuery query = compile(JOIN);
        IllegalStateException thrown = new IllegalStateException("injected");
        ExecContext ctx = new ExecContext(4, 64, arena.forQuery(4), SpillSpace.disabled().forQuery(4),
                new ThrowingProbe(ThrowingProbe.DEPENDENT, 0, () -> thrown));
        LocalRun run = LocalRun.toSink(query.pipelines(), ctx, null, r -> ends.incrementAndGet());
        assertSame(thrown, assertThrows(IllegalStateException.class, run::runToEnd));
        assertEquals(0, arena.inUseBytes());
        assertEquals(1, ends.get());
    }

    @Test
    void aRunToAnOutputHandsOutTheLastPipelinesBatchesAndStopDropsThem() {
        Plan plan = Plan.series("x", 1, N).filter(col("x").mod(lit(2L)).eq(lit(0L)));
        PlanCompiler.CompiledQuery query = compile(plan);
        ExecContext ctx = new ExecContext(5, 64, arena.forQuery(5));
        LocalRun run = LocalRun.toOutput(query.pipelines(), ctx, null, r -> ends.incrementAndGet());
        long rows = 0;
        long sum = 0;
        for (int taken = 0; taken < 10; ) {
            run.step();
            for (Batch b = run.takeOutput(); b != null; b = run.takeOutput()) {
                taken++;
                rows += b.size();
                for (int i = 0; i < b.size(); i++) {
                    sum += (Long) b.rowObjects(i)[0];
                }
            }
        }
        assertTrue(rows > 0 && rows < N / 2, rows + " rows");
        assertEquals(rows * (rows + 1), sum, "the even numbers 2..2*rows, in order");
        run.step();
        run.stop("the stream was closed");
        assertNull(run.takeOutput(), "stop drops what was not taken");
        assertEquals(LocalRun.State.FAILED, run.state());
        QueryCancelledException e = assertThrows(QueryCancelledException.class, run::step);
        assertEquals("query 5 cancelled: the stream was closed", e.getMessage());
        assertEquals(1, ends.get());
        run.stop("again");
        assertEquals(1, ends.get(), "the end is reported once");
    }

    @Test
    void aCancelFromAnotherThreadStopsTheNextStep() throws InterruptedException {
        PlanCompiler.CompiledQuery query = compile(JOIN);
        ExecContext ctx = new ExecContext(6, 64, arena.forQuery(6));
        LocalRun run = LocalRun.toSink(query.pipelines(), ctx, null, r -> ends.incrementAndGet());
        run.step();
        Thread canceller = new Thread(() -> run.cancel("the Troupe closed"));
        canceller.start();
        canceller.join(10_000);
        QueryCancelledException e = assertThrows(QueryCancelledException.class, run::step);
        assertEquals("query 6 cancelled: the Troupe closed", e.getMessage());
        assertEquals(0, arena.inUseBytes());
        assertEquals(1, ends.get());
    }

    private static PlanCompiler.CompiledQuery compile(Plan plan) {
        return new PlanCompiler(new Catalog(), TroupeSettings.load().withBatchSize(64)).compile(plan);
    }

    private static List<List<Object>> rows(ExecContext ctx, PlanCompiler.CompiledQuery query) {
        return new QueryResult(query.schema(), ctx.lookup(query.result()).batches()).rows();
    }
}
