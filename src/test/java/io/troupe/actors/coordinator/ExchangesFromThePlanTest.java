package io.troupe.actors.coordinator;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.fragment.ExchangeSpec;
import io.troupe.operators.fragment.FragmentPlan;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.table.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The coordinator builds the exchanges the plan names and no other: the planned Gather Merge delivers
 * an ORDER BY in order over channels; the same fragments with every exchange elided run with no
 * channel at all (the workers feed the result sink themselves); and an exchange that one JVM cannot
 * run over channels fails the query with an error naming it, leaving nothing behind. The expected
 * rows are computed here, apart from the engine.
 */
@Timeout(60)
class ExchangesFromThePlanTest {

    private static final long ROWS = 100_000;
    private static final int GROUPS = 13;
    private static final int WORKERS = 2;
    private static final long WAIT_SECONDS = 30;

    @TempDir
    Path dir;
    private ExecutorRuntime runtime;
    private MemoryArena arena;
    private TroupeSettings settings;
    private long nextQuery = 1;

    @BeforeEach
    void start() {
        settings = TroupeSettings.from(ConfigFactory.parseString(
                "troupe.transport.dir = \"" + dir + "\"\ntroupe.gather.transport = aeron"));
        runtime = ExecutorRuntime.start("exchanges-from-the-plan", settings, new LongAdder());
        arena = new MemoryArena(settings.memory().chunkBytes(), 0, settings.memory().budgetBytes());
    }

    @AfterEach
    void stop() {
        runtime.close();
    }

    @Test
    void theGatherMergeThePlanNamesDeliversTheGroupsInOrder() throws Exception {
        PlanCompiler.CompiledQuery query = compile(grouped().sort(col("g").desc()));
        List<ExchangeSpec> channels = query.fragments().overChannels();
        assertEquals(1, channels.size(), query.fragments().toString());
        assertInstanceOf(ExchangeKind.GatherMerge.class, channels.get(0).kind(), query.fragments().toString());
        List<List<Long>> expected = new ArrayList<>(expectedGroups());
        expected.sort((a, b) -> Long.compare(b.get(0), a.get(0)));
        assertEquals(expected, rows(run(query, query.fragments())));
        assertTrue(runtime.idleChannels() > 0, "the Gather Merge's channels went back to the pool");
        assertNothingLeft();
    }

    @Test
    void theSameFragmentsWithEveryExchangeElidedOpenNoChannel() throws Exception {
        PlanCompiler.CompiledQuery query = compile(grouped());
        List<List<Long>> rows = rows(run(query, query.fragments().leaderAlone()));
        rows.sort((a, b) -> Long.compare(a.get(0), b.get(0)));
        assertEquals(expectedGroups(), rows);
        assertEquals(0, runtime.idleChannels(), "no exchange was built, so no channel was ever opened");
        PlanCompiler.CompiledQuery gathered = compile(grouped());
        assertEquals(GROUPS, rows(run(gathered, gathered.fragments())).size());
        assertTrue(runtime.idleChannels() > 0, "the planned Gather opened channels");
        assertNothingLeft();
    }

    @Test
    void anExchangeOneJvmCannotRunOverChannelsFailsTheQueryNamingIt() throws Exception {
        PlanCompiler.CompiledQuery query = compile(grouped());
        FragmentPlan planned = query.fragments();
        ExchangeSpec top = planned.overChannels().get(0);
        List<ExchangeSpec> exchanges = new ArrayList<>(planned.exchanges());
        exchanges.set(top.id(), new ExchangeSpec(top.id(), new ExchangeKind.Broadcast(), top.producer(),
                top.consumer(), top.from(), top.to(), ExchangeSpec.Mode.CHANNELS));
        Running running = run(query, new FragmentPlan(planned.fragments(), exchanges));
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> running.done().get(WAIT_SECONDS, TimeUnit.SECONDS));
        QueryFailedException failure = assertInstanceOf(QueryFailedException.class, e.getCause());
        assertTrue(failure.getMessage().contains("Broadcast") && failure.getMessage().contains("over channels"),
                failure.getMessage());
        assertNothingLeft();
    }

    @Test
    void anExchangeBuiltWithAPipelineTheQueryLacksIsRefusedBeforeAnythingRuns() throws Exception {
        PlanCompiler.CompiledQuery grouped = compile(grouped());
        PlanCompiler.CompiledQuery threePipelines = compile(grouped().join(Plan.series("j", 1, 5), JoinType.INNER,
                col("g").eq(col("j"))));
        long id = nextQuery++;
        ExecContext ctx = new ExecContext(id, 1024, arena.forQuery(id));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> runtime.spawnCoordinator(
                runtime.spec(ctx, grouped.pipelines(), threePipelines.fragments(), WORKERS, null,
                        new CompletableFuture<>())));
        assertTrue(e.getMessage().contains("which the query does not have"), e.getMessage());
        ctx.release();
        assertNothingLeft();
    }

    // ------------------------------------------------------------------ helpers

    /** GROUP BY i % GROUPS over 1..ROWS: (g, count). */
    private static Plan grouped() {
        return Plan.series("i", 1, ROWS).aggregate(List.of(col("i").mod(lit((long) GROUPS)).as("g")), count().as("n"));
    }

    private static List<List<Long>> expectedGroups() {
        long[] counts = new long[GROUPS];
        for (long i = 1; i <= ROWS; i++) {
            counts[(int) (i % GROUPS)]++;
        }
        List<List<Long>> groups = new ArrayList<>();
        for (int g = 0; g < GROUPS; g++) {
            groups.add(List.of((long) g, counts[g]));
        }
        return groups;
    }

    private PlanCompiler.CompiledQuery compile(Plan plan) {
        return new PlanCompiler(new Catalog(), settings).compile(plan);
    }

    private record Running(ExecContext ctx, PlanCompiler.CompiledQuery query, CompletableFuture<Void> done) {
    }

    private Running run(PlanCompiler.CompiledQuery query, FragmentPlan fragments) {
        long id = nextQuery++;
        ExecContext ctx = new ExecContext(id, 1024, arena.forQuery(id));
        CompletableFuture<Void> done = new CompletableFuture<>();
        runtime.spawnCoordinator(runtime.spec(ctx, query.pipelines(), fragments, WORKERS, null, done));
        return new Running(ctx, query, done);
    }

    /** The query's rows, in the order they were delivered. */
    private static List<List<Long>> rows(Running running) throws Exception {
        running.done().get(WAIT_SECONDS, TimeUnit.SECONDS);
        List<List<Long>> rows = new ArrayList<>();
        for (Batch batch : running.ctx().lookup(running.query().result()).batches()) {
            for (int r = 0; r < batch.size(); r++) {
                Object[] row = batch.rowObjects(r);
                rows.add(List.of(((Number) row[0]).longValue(), ((Number) row[1]).longValue()));
            }
        }
        return rows;
    }

    /** Every actor of every query has stopped, its channels closed and its memory returned (bounded wait). */
    private void assertNothingLeft() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < deadline && (runtime.runningQueries() != 0 || runtime.liveWorkers() != 0)) {
            Thread.sleep(5);
        }
        assertEquals(List.of(0, 0, 0, 0L), List.of(runtime.runningQueries(), runtime.liveWorkers(),
                runtime.openChannels(), arena.inUseBytes()), "running queries, live workers, open channels, memory");
    }
}
