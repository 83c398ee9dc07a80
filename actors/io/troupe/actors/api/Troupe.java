package io.troupe.actors.api;

import io.troupe.actors.coordinator.ExecutorRuntime;
import io.troupe.actors.coordinator.QueryCoordinator;
import io.troupe.actors.exchange.BatchHandOver;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.ExecutionProbe;
import io.troupe.operators.exec.LocalExecutor;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.profile.Profiler;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.spill.SpillSpace;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.transport.aeron.EmbeddedAeron;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An embedded Troupe: a catalog of tables and the executor that runs plans over them.
 *
 * <pre>{@code
 * try (Troupe troupe = Troupe.start()) {
 *     troupe.register(table);
 *     QueryResult r = troupe.execute(Plan.scan("t").filter(col("a").gt(lit(1))));
 * }
 * }</pre>
 *
 * <p>A query runs on the caller's thread (the leader alone) when it asks for 0 workers, which is
 * what {@code troupe.workers.default = 0} gives {@link #execute(Plan)}; with workers it runs in the
 * actor executor ({@link ExecutorRuntime}): a coordinator per query and worker actors per pipeline.
 * The actor system starts in {@link #start} when {@code troupe.workers.default > 0}, else with the
 * first query that asks for workers (or a timeout): a Troupe used by the leader alone, as most tests
 * use it, pays nothing for it.
 * {@link #close()} terminates it and waits, bounded, for its threads. {@link #stream} runs a query
 * the same ways and hands its result out batch by batch, with back-pressure ({@link QueryStream}).
 *
 * <p>A service that runs a Pekko actor system of its own starts Troupe in it instead
 * ({@link #start(TroupeSettings, ActorSystem)}): Troupe's actors then live under one actor of its
 * own in the host's system, on Troupe's own threads, and {@link #close()} stops them and leaves the
 * host running.
 *
 * <p>Hash-table memory comes from one {@link MemoryArena} per Troupe, made (and preallocated, when
 * {@code troupe.memory.preallocate} asks) in {@link #start}; each query's share is released when
 * the query ends, by {@link LocalExecutor} or by the query's coordinator.
 *
 * <p>Threadsafe: tables may be registered and queries run from any number of threads at once.
 */
public final class Troupe implements AutoCloseable {

    private final TroupeSettings settings;
    private final Catalog catalog = new Catalog();
    private final MemoryArena arena;
    private final SpillSpace spillSpace;
    private final AtomicLong nextQueryId = new AtomicLong(1);
    /** The service's actor system that the executor runs in; null: the executor starts its own. */
    private final ActorSystem<?> host;
    private volatile boolean closed;
    /** Started on first use; guarded by this. */
    private ExecutorRuntime runtime;

    private Troupe(TroupeSettings settings, ActorSystem<?> host) {
        this.settings = settings;
        this.host = host;
        TroupeSettings.Memory memory = settings.memory();
        this.arena = new MemoryArena(memory.chunkBytes(), memory.preallocateBytes(), memory.budgetBytes());
        TroupeSettings.Spill spill = settings.spill();
        this.spillSpace = new SpillSpace(spill.directoryPath(), spill.maxSizeBytes(), spill.enabled());
    }

    /** Starts a Troupe with the settings of reference.conf, application.conf and -Dtroupe.* properties. */
    public static Troupe start() {
        return start(TroupeSettings.load());
    }

    /**
     * Starts a Troupe. With {@code troupe.workers.default > 0} the actor system and the transport start
     * here, so that the first query does not pay for them; otherwise with the first query that asks for
     * workers.
     */
    public static Troupe start(TroupeSettings settings) {
        return started(new Troupe(settings, null));
    }

    /**
     * Starts a Troupe whose actors run inside {@code host}, a service's own actor system, instead of
     * an actor system of Troupe's own; it starts as {@link #start(TroupeSettings)} does. (A classic
     * system: pass {@code Adapter.toTyped(system)}.)
     *
     * <p>Troupe spawns one actor in {@code host}, a system actor named {@code troupe-N}, and every actor
     * of its queries under it. They run on dispatchers Troupe adds to {@code host} at run time, over
     * threads of its own ({@code troupe-N-worker-dispatcher-*} for the workers, sized by
     * {@code troupe.workers.threads}; {@code -gather-} and {@code -coordinator-dispatcher-*}), never on
     * the host's default dispatcher: the host's configuration needs nothing for Troupe, a query does not
     * take the host's threads, and the host's actors do not slow Troupe's workers. Several Troupes may
     * share one host. {@link #close()} stops Troupe's actors, waits (bounded) for them and for Troupe's
     * threads, and closes Troupe's transport; the host and its actors run on. A host that terminates
     * first stops Troupe's actors with its own: running queries fail, later ones with workers are
     * refused, and {@link #close()} still ends Troupe's threads.
     *
     * <p>The host's settings stay the host's, {@code pekko.jvm-exit-on-fatal-error} among them. Troupe
     * relies on none of them: an Error that escapes one of its actors ends on Troupe's own threads,
     * whose handler logs it, and never reaches the host's fatal-error handler (which would exit the
     * JVM, or terminate the host's system). Only the queries' timeouts run on the host's scheduler.
     *
     * @throws NullPointerException when {@code host} is null
     * @throws IllegalStateException when {@code host} has terminated
     */
    public static Troupe start(TroupeSettings settings, ActorSystem<?> host) {
        return started(new Troupe(settings, Objects.requireNonNull(host, "host")));
    }

    private static Troupe started(Troupe troupe) {
        if (troupe.settings.workers().defaultWorkers() > 0) {
            troupe.runtime();
        }
        return troupe;
    }

    public TroupeSettings settings() {
        return settings;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** The hash-table memory that every query of this Troupe takes from (for monitoring). */
    public MemoryArena memoryArena() {
        return arena;
    }

    /** Makes {@code table} scannable by its name, replacing a table of the same name. */
    public Troupe register(Table table) {
        checkOpen();
        catalog.register(table);
        return this;
    }

    /**
     * Validates and runs {@code plan} with {@link QueryOptions#defaults()}, returning all its rows.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     * @throws io.troupe.operators.exec.QueryFailedException when it fails while running
     */
    public QueryResult execute(Plan plan) {
        return execute(plan, QueryOptions.defaults());
    }

    /**
     * Validates and runs {@code plan} with {@code options}, waiting for all its rows.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     * @throws io.troupe.operators.exec.QueryFailedException when it fails while running, with the
     *         first cause; a {@link io.troupe.operators.exec.QueryCancelledException} on a timeout
     */
    public QueryResult execute(Plan plan, QueryOptions options) {
        return submit(plan, options).await();
    }

    /**
     * Validates {@code plan} and starts it with {@code options}. With workers, it returns at once and
     * the query runs in the actor executor; with 0 workers it runs on the calling thread before this
     * returns (the handle is then complete).
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     */
    public RunningQuery submit(Plan plan, QueryOptions options) {
        checkOpen();
        return submit(new PlanCompiler(catalog, settings).compile(plan), workers(options), options, null);
    }

    /**
     * EXPLAIN ANALYZE: validates and runs {@code plan} with {@code options}, for real, counting rows,
     * batches and time per plan node and per worker, and returns its rows with that profile
     * ({@link QueryProfile#render()} prints it as PostgreSQL does; {@link io.troupe.operators.profile.NodeProfile}
     * says what each number means). Only such a query wraps its chains with counters.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     * @throws io.troupe.operators.exec.QueryFailedException when it fails while running, as {@link #execute}
     */
    public QueryProfile explainAnalyze(Plan plan, QueryOptions options) {
        checkOpen();
        PlanCompiler compiler = new PlanCompiler(catalog, settings);
        PlanCompiler.CompiledQuery query = compiler.compile(plan);
        int workers = workers(options);
        if (workers > 0) {
            runtime(); // started before the clock: its start is no part of the query's time
        }
        Profiler profiler = new Profiler();
        long start = System.nanoTime();
        QueryResult result = submit(query, workers, options, profiler).await();
        long elapsed = System.nanoTime() - start;
        return profiler.profile(plan, query.pipelines(), compiler::origin, workers, elapsed, result);
    }

    private int workers(QueryOptions options) {
        return options.workers() == QueryOptions.DEFAULT_WORKERS ? settings.workers().defaultWorkers() : options.workers();
    }

    /** Starts {@code query}; {@code probe} is EXPLAIN ANALYZE's, null for an ordinary query. */
    private RunningQuery submit(PlanCompiler.CompiledQuery query, int workers, QueryOptions options, ExecutionProbe probe) {
        long queryId = nextQueryId.getAndIncrement();
        ExecContext ctx = newContext(queryId, probe);
        CompletableFuture<QueryResult> result = new CompletableFuture<>();
        if (workers == 0) {
            if (options.timeout() != null) {
                runtime().scheduleOnce(options.timeout(),
                        () -> ctx.cancel("timed out after " + options.timeout().toMillis() + " ms"));
            }
            try {
                new LocalExecutor().run(query.pipelines(), ctx);
                result.complete(new QueryResult(query.schema(), ctx.lookup(query.result()).batches()));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
            return new RunningQuery(queryId, result, ctx::cancel);
        }
        ExecutorRuntime executor = runtime();
        CompletableFuture<Void> done = new CompletableFuture<>();
        done.whenComplete((v, e) -> {
            if (e == null) {
                result.complete(new QueryResult(query.schema(), ctx.lookup(query.result()).batches()));
            } else {
                result.completeExceptionally(e);
            }
        });
        ActorRef<QueryCoordinator.Command> coordinator;
        try {
            coordinator = executor.spawnCoordinator(executor.spec(ctx, query.pipelines(), workers, options.timeout(), done));
        } catch (RuntimeException e) {
            ctx.release();
            throw e;
        }
        return new RunningQuery(queryId, result, reason -> coordinator.tell(new QueryCoordinator.Cancel(reason)));
    }

    /**
     * Validates {@code plan} and starts it with {@code options}, its result to be pulled batch by
     * batch: a caller slower than the query holds it back (see {@link QueryStream}). With workers the
     * query starts at once in the actor executor; with 0 workers it runs lazily on the thread that
     * reads the stream. Close the stream (try-with-resources) to release the query early.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     */
    public QueryStream stream(Plan plan, QueryOptions options) {
        checkOpen();
        PlanCompiler.CompiledQuery query = new PlanCompiler(catalog, settings).compile(plan);
        long queryId = nextQueryId.getAndIncrement();
        ExecContext ctx = newContext(queryId, null);
        int workers = options.workers() == QueryOptions.DEFAULT_WORKERS ? settings.workers().defaultWorkers() : options.workers();
        if (workers == 0) {
            return QueryStream.local(query.schema(), query.pipelines(), ctx, options.timeout());
        }
        ExecutorRuntime executor = runtime();
        BatchHandOver handOver = new BatchHandOver(QueryStream.HAND_OVER_BATCHES);
        CompletableFuture<Void> done = new CompletableFuture<>();
        ActorRef<QueryCoordinator.Command> coordinator;
        try {
            coordinator = executor.spawnCoordinator(
                    executor.spec(ctx, query.pipelines(), workers, options.timeout(), done, handOver));
        } catch (RuntimeException e) {
            ctx.release();
            throw e;
        }
        return QueryStream.parallel(queryId, query.schema(), handOver, done,
                reason -> coordinator.tell(new QueryCoordinator.Cancel(reason)));
    }

    /** A query's context: its memory under the budget, its spill files, EXPLAIN ANALYZE's probe or null. */
    private ExecContext newContext(long queryId, ExecutionProbe probe) {
        return new ExecContext(queryId, settings.batchSize(),
                arena.forQuery(queryId, settings.memory().queryLimitBytes()), spillSpace.forQuery(queryId), probe);
    }

    /** The spill files of this Troupe's queries (for monitoring: bytes held and written, files now). */
    public SpillSpace spillSpace() {
        return spillSpace;
    }

    /** Runs {@code plan} and registers its result as table {@code name} (CREATE TABLE AS). */
    public Table createTable(String name, Plan plan) {
        Table table = execute(plan).toTable(name);
        register(table);
        return table;
    }

    /** The validated plan tree with each node's output columns and types. */
    public String explain(Plan plan) {
        checkOpen();
        return plan.explain(catalog);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this Troupe is closed");
        }
    }

    private synchronized ExecutorRuntime runtime() {
        checkOpen();
        if (runtime == null) {
            runtime = host == null ? ExecutorRuntime.start(settings) : ExecutorRuntime.start(settings, host);
        }
        return runtime;
    }

    /** What this Troupe holds now: running queries, workers, channels, memory (see {@link TroupeStatus}). */
    public synchronized TroupeStatus status() {
        if (runtime == null) {
            return new TroupeStatus(0, 0, 0, 0, 0, arena.inUseBytes());
        }
        return new TroupeStatus(runtime.runningQueries(), runtime.liveWorkers(), runtime.openChannels(),
                runtime.idleChannels(), runtime.transport().aeron().map(EmbeddedAeron::driverPublications).orElse(0),
                arena.inUseBytes());
    }

    // visible for testing: the executor's name (troupe-N, which starts its threads' names; null before it
    // started), live workers, channels in use, queries in the actor executor not finished yet
    synchronized String actorSystemName() {
        return runtime == null ? null : runtime.name();
    }

    synchronized int liveWorkers() {
        return runtime == null ? 0 : runtime.liveWorkers();
    }

    synchronized int openChannels() {
        return runtime == null ? 0 : runtime.openChannels();
    }

    // visible for testing: Aeron logs of cleanly ended channels, kept idle for the next queries
    // (the driver counts their publications and subscriptions as live)
    synchronized int idleChannels() {
        return runtime == null ? 0 : runtime.idleChannels();
    }

    synchronized int runningQueries() {
        return runtime == null ? 0 : runtime.runningQueries();
    }

    /** The embedded Aeron of the running executor, when it has one (for the driver's counters). */
    synchronized Optional<EmbeddedAeron> embeddedAeron() {
        return runtime == null ? Optional.empty() : runtime.transport().aeron();
    }

    /** Stops every running query, terminates the actor system and waits for it (bounded). Idempotent. */
    @Override
    public void close() {
        ExecutorRuntime toClose;
        synchronized (this) {
            closed = true;
            toClose = runtime;
            runtime = null;
        }
        try {
            if (toClose != null) {
                toClose.close();
            }
        } finally {
            spillSpace.close();
        }
    }
}
