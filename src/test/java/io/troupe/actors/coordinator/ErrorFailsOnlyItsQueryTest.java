package io.troupe.actors.coordinator;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.Operator;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.PipelineRun;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.table.Catalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An Error (OutOfMemoryError, StackOverflowError) thrown by the kernel code an
 * actor runs fails that query alone, with a {@link QueryFailedException} that names the query, where
 * it was thrown and the error (its cause), and never ends the JVM (Pekko's
 * {@code jvm-exit-on-fatal-error} did: the surefire fork died with exit 255 before the fix). The
 * Troupe runs on: a query running beside the failing one and the next query return their right rows,
 * and nothing of the failed query is left (queries, workers, channels, memory).
 *
 * <p>The fault is spliced into a real plan's compiled pipelines: an operator that throws on a chosen
 * thread (a worker's, or the Gather's for its leader task), in its open or its bind, or a sink
 * wrapper that throws in its finalize work (on the workers) or in prepare / finalize (on the
 * coordinator). A StackOverflowError is a real one (unbounded recursion); an OutOfMemoryError is
 * thrown as the VM throws it (a real one is {@code HostSurvivesOutOfMemoryTest}'s).
 */
@Timeout(120)
class ErrorFailsOnlyItsQueryTest {

    private static final long ROWS = 200_000;
    private static final int GROUPS = 97;
    private static final int WORKERS = 2;
    private static final long WAIT_SECONDS = 30;

    @TempDir
    static Path dir;
    private static ExecutorRuntime runtime;
    private static MemoryArena arena;
    private static TroupeSettings settings;
    private static final AtomicLong QUERY_IDS = new AtomicLong(1);

    /** Where the fault is thrown, and what the failure must name there. */
    enum Where {
        /** A worker's batch, in the aggregate's input pipeline (the Gather has no part in it). */
        WORKER_BATCH("aggregate worker"),
        /** A worker binding its chain (in the actor's setup). */
        WORKER_BIND("aggregate worker"),
        /** A worker's unit of the aggregate's finalize work (merging a partition). */
        WORKER_FINALIZE("aggregate worker"),
        /** The Gather's own task over the last pipeline (leader participation). */
        GATHER_LEADER("the Gather"),
        /** The operators the Gather Merge runs above an ORDER BY's merge. */
        GATHER_MERGE("the Gather Merge"),
        /** The coordinator opening a pipeline's operators. */
        COORDINATOR_OPEN("the coordinator"),
        /** The coordinator preparing the aggregate's finalize work. */
        COORDINATOR_PREPARE("the coordinator"),
        /** The coordinator finalizing the aggregate's sink. */
        COORDINATOR_FINALIZE("the coordinator");

        final String named;

        Where(String named) {
            this.named = named;
        }
    }

    enum Kind {
        OUT_OF_MEMORY(OutOfMemoryError.class),
        STACK_OVERFLOW(StackOverflowError.class);

        final Class<? extends Error> type;

        Kind(Class<? extends Error> type) {
            this.type = type;
        }

        void raise() {
            if (this == OUT_OF_MEMORY) {
                throw new OutOfMemoryError("Java heap space");
            }
            recurse(0);
        }
    }

    private static long recurse(long depth) {
        return recurse(depth + 1) + 1;
    }

    @BeforeAll
    static void start() {
        settings = TroupeSettings.from(ConfigFactory.parseString(
                "troupe.transport.dir = \"" + dir + "\"\ntroupe.workers.threads = " + WORKERS));
        runtime = ExecutorRuntime.start("error-fails-only-its-query", settings, new LongAdder());
        arena = new MemoryArena(settings.memory().chunkBytes(), 0, settings.memory().budgetBytes());
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    static Stream<Arguments> faults() {
        List<Arguments> all = new ArrayList<>();
        for (Where where : Where.values()) {
            for (Kind kind : Kind.values()) {
                all.add(Arguments.of(where, kind));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{1} in {0}")
    @MethodSource("faults")
    void shouldFailOnlyTheQueryWhoseOperatorThrewAnError(Where where, Kind kind) throws Exception {
        Plan grouped = Plan.series("i", 1, ROWS)
                .aggregate(List.of(col("i").mod(lit((long) GROUPS)).as("g")), sum(col("i")).as("s"), count().as("n"));
        PlanCompiler.CompiledQuery good = compile(grouped);
        PlanCompiler.CompiledQuery ordered = compile(grouped.sort(col("g").asc()));
        PlanCompiler.CompiledQuery faulty = withFault(where == Where.GATHER_MERGE ? ordered : good, where, kind);

        Running beside = submit(good);
        Running failing = submit(faulty);
        ExecutionException thrown = assertThrows(ExecutionException.class,
                () -> failing.done().get(WAIT_SECONDS, TimeUnit.SECONDS));
        QueryFailedException failure = assertInstanceOf(QueryFailedException.class, thrown.getCause());
        String message = failure.getMessage();
        assertTrue(message.startsWith("query " + failing.ctx().queryId() + " failed in "), message);
        assertTrue(message.contains(where.named), message);
        assertTrue(message.contains(kind.type.getName()), message);
        assertInstanceOf(kind.type, failure.getCause(), "the Error is the cause");

        assertEquals(expectedGroups(), groups(beside), "the query running beside it");
        assertEquals(expectedGroups(), groups(submit(good)), "the next query");
        assertEquals(expectedGroups(), groups(submit(ordered)), "the next ORDER BY query");
        assertNothingLeft();
    }

    // ------------------------------------------------------------------ running queries

    /** A compiler compiles one query. */
    private static PlanCompiler.CompiledQuery compile(Plan plan) {
        return new PlanCompiler(new Catalog(), settings).compile(plan);
    }

    private record Running(ExecContext ctx, PlanCompiler.CompiledQuery query, CompletableFuture<Void> done) {
    }

    private static Running submit(PlanCompiler.CompiledQuery query) {
        long id = QUERY_IDS.getAndIncrement();
        ExecContext ctx = new ExecContext(id, 1024, arena.forQuery(id));
        CompletableFuture<Void> done = new CompletableFuture<>();
        runtime.spawnCoordinator(runtime.spec(ctx, query.pipelines(), query.fragments(), WORKERS, null, done));
        return new Running(ctx, query, done);
    }

    /** The query's rows as group -> [sum, count]. */
    private static Map<Long, List<Long>> groups(Running running) throws Exception {
        running.done().get(WAIT_SECONDS, TimeUnit.SECONDS);
        Map<Long, List<Long>> groups = new TreeMap<>();
        for (Batch batch : running.ctx().lookup(running.query().result()).batches()) {
            for (int r = 0; r < batch.size(); r++) {
                Object[] row = batch.rowObjects(r);
                groups.put(((Number) row[0]).longValue(), List.of(((Number) row[1]).longValue(),
                        ((Number) row[2]).longValue()));
            }
        }
        return groups;
    }

    /** Computed here, apart from the engine: sum and count of 1..ROWS per i % GROUPS. */
    private static Map<Long, List<Long>> expectedGroups() {
        long[] sums = new long[GROUPS];
        long[] counts = new long[GROUPS];
        for (long i = 1; i <= ROWS; i++) {
            sums[(int) (i % GROUPS)] += i;
            counts[(int) (i % GROUPS)]++;
        }
        Map<Long, List<Long>> groups = new TreeMap<>();
        for (int g = 0; g < GROUPS; g++) {
            groups.put((long) g, List.of(sums[g], counts[g]));
        }
        return groups;
    }

    /** Every actor of every query has stopped, its channels closed and its memory returned (bounded wait). */
    private static void assertNothingLeft() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < deadline && (runtime.runningQueries() != 0 || runtime.liveWorkers() != 0)) {
            Thread.sleep(5);
        }
        assertEquals(List.of(0, 0, 0, 0L), List.of(runtime.runningQueries(), runtime.liveWorkers(),
                runtime.openChannels(), arena.inUseBytes()), "running queries, live workers, open channels, memory in use");
    }

    // ------------------------------------------------------------------ the faults

    /**
     * {@code query} with the fault at {@code where}: pipeline 0 is the aggregate's input (series into
     * the aggregate's sink), the last reads the aggregate (or, ordered, the sort) and is gathered.
     */
    private static PlanCompiler.CompiledQuery withFault(PlanCompiler.CompiledQuery query, Where where, Kind kind) {
        List<Pipeline> pipelines = new ArrayList<>(PipelineRun.inDependencyOrder(query.pipelines()));
        int first = 0;
        int last = pipelines.size() - 1;
        switch (where) {
            case WORKER_BATCH -> pipelines.set(first, withOperator(pipelines.get(first), new Throwing(kind, Point.ACCEPT, "worker")));
            case WORKER_BIND -> pipelines.set(first, withOperator(pipelines.get(first), new Throwing(kind, Point.BIND, "worker")));
            case COORDINATOR_OPEN -> pipelines.set(first, withOperator(pipelines.get(first), new Throwing(kind, Point.OPEN, "")));
            case GATHER_LEADER -> pipelines.set(last, withOperator(pipelines.get(last), new Throwing(kind, Point.ACCEPT, "gather")));
            case GATHER_MERGE -> pipelines.set(last, withOperator(pipelines.get(last), new Throwing(kind, Point.ACCEPT, "")));
            case WORKER_FINALIZE, COORDINATOR_PREPARE, COORDINATOR_FINALIZE -> {
                Pipeline p = pipelines.get(first);
                pipelines.set(first, new Pipeline(p.id(), p.branches(), new ThrowingSink(p.sink(), kind, where), p.dependencies()));
            }
            default -> throw new AssertionError(where);
        }
        // Later pipelines name the first among their dependencies: point them at the replacement.
        List<Pipeline> relinked = new ArrayList<>();
        for (Pipeline p : pipelines) {
            List<Pipeline> dependencies = new ArrayList<>();
            for (Pipeline d : p.dependencies()) {
                dependencies.add(relinked.stream().filter(r -> r.id() == d.id()).findFirst().orElse(d));
            }
            relinked.add(new Pipeline(p.id(), p.branches(), p.sink(), dependencies));
        }
        return new PlanCompiler.CompiledQuery(query.schema(), relinked, query.result(), query.fragments());
    }

    private static Pipeline withOperator(Pipeline pipeline, Operator operator) {
        List<Pipeline.Branch> branches = new ArrayList<>();
        for (Pipeline.Branch b : pipeline.branches()) {
            List<Operator> operators = new ArrayList<>();
            operators.add(operator);
            operators.addAll(b.operators());
            branches.add(new Pipeline.Branch(b.source(), operators));
        }
        return new Pipeline(pipeline.id(), branches, pipeline.sink(), pipeline.dependencies());
    }

    private enum Point { OPEN, BIND, ACCEPT }

    /**
     * Passes batches on, but raises its error at {@code point} on a thread whose name contains
     * {@code thread} (Pekko names dispatcher threads after the dispatcher): in accept or finish, so
     * that a chain that got no batch raises it too.
     */
    private record Throwing(Kind kind, Point point, String thread) implements Operator {

        @Override
        public OperatorState open(ExecContext ctx) {
            raiseAt(Point.OPEN);
            return downstream -> {
                raiseAt(Point.BIND);
                return new BatchConsumer() {
                    @Override
                    public boolean accept(Batch batch) {
                        raiseAt(Point.ACCEPT);
                        return downstream.accept(batch);
                    }

                    @Override
                    public void finish() {
                        raiseAt(Point.ACCEPT);
                        downstream.finish();
                    }
                };
            };
        }

        private void raiseAt(Point at) {
            if (at == point && Thread.currentThread().getName().contains(thread)) {
                kind.raise();
            }
        }
    }

    /** The sink it wraps, raising its error in the finalize work's first unit, in prepare or in finalize. */
    private record ThrowingSink(Sink sink, Kind kind, Where where) implements Sink {

        @Override
        public SinkState open(ExecContext ctx) {
            SinkState state = sink.open(ctx);
            return new SinkState() {
                @Override
                public BatchConsumer local() {
                    return state.local();
                }

                @Override
                public FinalizeWork prepareFinalize() {
                    if (where == Where.COORDINATOR_PREPARE) {
                        kind.raise();
                    }
                    FinalizeWork work = state.prepareFinalize();
                    return where != Where.WORKER_FINALIZE ? work : () -> {
                        kind.raise();
                        return work.step();
                    };
                }

                @Override
                public void finalizeSink() {
                    if (where == Where.COORDINATOR_FINALIZE) {
                        kind.raise();
                    }
                    state.finalizeSink();
                }
            };
        }

        @Override
        public String role() {
            return sink.role();
        }
    }
}
