package io.troupe.actors.api;

import io.troupe.actors.coordinator.ExecutorRuntime;
import io.troupe.actors.coordinator.QueryCoordinator;
import io.troupe.actors.exchange.BatchHandOver;
import io.troupe.actors.exchange.CountingNodeLinks;
import io.troupe.actors.exchange.NodeLinks;
import io.troupe.config.TroupeSettings;
import io.troupe.formats.FileTables;
import io.troupe.formats.csv.CsvOptions;
import io.troupe.formats.csv.CsvReader;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.ExecutionProbe;
import io.troupe.operators.exec.LocalRun;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.memory.QueryMemory;
import io.troupe.operators.fragment.ExchangeSpec;
import io.troupe.operators.fragment.SpreadPlan;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.profile.PartProfile;
import io.troupe.operators.profile.Profiler;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.spill.SpillSpace;
import io.troupe.operators.sql.PlanOptimizer;
import io.troupe.operators.sql.SqlPlanner;
import io.troupe.operators.sql.SqlStatements;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableStatistics;
import io.troupe.operators.udf.UserFunctions;
import io.troupe.transport.aeron.EmbeddedAeron;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import static io.troupe.operators.Arguments.notNull;

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
 * <p>A query runs in the actor executor ({@link ExecutorRuntime}: a coordinator per query and worker
 * actors per pipeline) with {@code troupe.workers.default} workers, one per processor unless set, or
 * as many as its {@link QueryOptions} ask; with 0 workers it runs on the caller's thread (the leader
 * alone). The actor system starts in {@link #start} when {@code troupe.workers.default > 0}, else
 * with the first query that asks for workers: a Troupe used by the leader alone pays nothing for it
 * (a leader's query checks its own timeout, between batches, with no timer).
 * {@link #stream} runs a query the same ways and hands its result out batch by batch, with
 * back-pressure ({@link QueryStream}). Both {@link #submit} and {@link #stream} start a query
 * through one path ({@link #start}): with 0 workers a {@link LocalRun}, stepped by the caller's
 * thread, which this Troupe tracks until it ends; with workers a coordinator.
 *
 * <p>{@link #close()} cancels every query: the leader's runs stop within a batch on their callers'
 * threads (with a {@link io.troupe.operators.exec.QueryCancelledException} that names the close), and
 * the actor system terminates; close waits, bounded, for its threads.
 *
 * <p>A service that runs a Pekko actor system of its own starts Troupe in it instead
 * ({@link #start(TroupeSettings, ActorSystem)}): Troupe's actors then live under one actor of its
 * own in the host's system, on Troupe's own threads, and {@link #close()} stops them and leaves the
 * host running.
 *
 * <p>Memory: every query is admitted first ({@link Admission}: at most
 * {@code troupe.admission.max-concurrent} at once, each with its share of the budget set aside, the
 * others queued, bounded, on their callers' threads), then reserves what it builds from one
 * {@link MemoryArena} per Troupe (made, and preallocated when {@code troupe.memory.preallocate}
 * asks, in {@link #start}) and spills past it into the Troupe's {@link SpillSpace}; its memory and
 * files go back when it ends, by its {@link LocalRun} or its coordinator, and then its admission slot.
 *
 * <p>Monitoring: {@link #status()} is what the Troupe holds now, {@link #counters()} what it counted
 * since it started, and a {@link QueryListener} ({@link #addQueryListener}) is told of every query's end
 * once, whether it ran or was rejected; {@code io.troupe.actors.metrics.TroupeMetrics} binds them all to
 * a Micrometer registry, and {@code troupe.metrics.jmx = on} registers them as an MXBean
 * ({@link TroupeMXBean}).
 *
 * <p>A null argument is an {@link IllegalArgumentException} naming it, before anything runs.
 *
 * <p>Threadsafe: tables and functions ({@link #functions}) may be registered and queries run from any number of
 * threads at once; a query's functions of one's own run on its workers' threads, many at once.
 */
public final class Troupe implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Troupe.class);
    private static final AtomicInteger TROUPES = new AtomicInteger();

    /** troupe-N, unique in the JVM: its actor system's, its threads' and its MXBean's name. */
    private final String name = "troupe-" + TROUPES.incrementAndGet();
    private final TroupeSettings settings;
    private final Catalog catalog = new Catalog(new UserFunctions(SqlPlanner::functionNames));
    private final MemoryArena arena;
    private final SpillSpace spillSpace;
    private final Admission admission;
    private final QueryEvents events = new QueryEvents();
    /** Waits of workers on full gather channels ({@code GatherOutlet}); the Troupe's, to outlive its executor. */
    private final LongAdder backPressureEvents = new LongAdder();
    private final AtomicBoolean warnedHeap = new AtomicBoolean();
    /** Why close() cancels a query; the actor executor says the same. */
    private static final String CLOSED = "the Troupe closed";

    private final AtomicLong nextQueryId = new AtomicLong(1);
    /** The leader's queries not ended yet (a stream's until it ends or closes): close() cancels them. */
    private final Set<LocalRun> leaderRuns = ConcurrentHashMap.newKeySet();
    /** The service's actor system that the executor runs in; null: the executor starts its own. */
    private final ActorSystem<?> host;
    private volatile boolean closed;
    /** Started on first use; guarded by this. */
    private ExecutorRuntime runtime;
    /** The MXBean of {@code troupe.metrics.jmx = on}, registered once started, else null. Guarded by this. */
    private TroupeJmx jmx;

    private Troupe(TroupeSettings settings, ActorSystem<?> host) {
        this.settings = settings;
        this.host = host;
        TroupeSettings.Memory memory = settings.memory();
        this.arena = new MemoryArena(memory.chunkBytes(), memory.preallocateBytes(), memory.budgetBytes());
        TroupeSettings.Spill spill = settings.spill();
        this.spillSpace = new SpillSpace(spill.directoryPath(), spill.maxSizeBytes(), spill.enabled());
        this.admission = new Admission(arena, settings.admission(), memory.queryLimitBytes());
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
        notNull(settings, "Troupe.start", "settings");
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
     * @throws IllegalArgumentException when {@code settings} or {@code host} is null
     * @throws IllegalStateException when {@code host} has terminated
     */
    public static Troupe start(TroupeSettings settings, ActorSystem<?> host) {
        notNull(settings, "Troupe.start", "settings");
        notNull(host, "Troupe.start", "host");
        return started(new Troupe(settings, host));
    }

    private static Troupe started(Troupe troupe) {
        if (troupe.settings.workers().defaultWorkers() > 0) {
            try {
                troupe.runtime();
            } catch (RuntimeException | Error e) {
                troupe.close();
                throw e;
            }
        }
        if (troupe.settings.metrics().jmx()) {
            TroupeJmx registered = TroupeJmx.register(troupe);
            synchronized (troupe) {
                troupe.jmx = registered;
            }
        }
        return troupe;
    }

    /** {@code troupe-N}, unique in the JVM: its actor system, its threads and its MXBean are named after it. */
    public String name() {
        return name;
    }

    public TroupeSettings settings() {
        return settings;
    }

    public Catalog catalog() {
        return catalog;
    }

    /**
     * This Troupe's functions of its own, to register Java functions that its SQL and plans call by name
     * ({@link UserFunctions}); another Troupe does not see them. Registration is threadsafe, and the functions run
     * on many worker threads at once, so they must be threadsafe too.
     */
    public UserFunctions functions() {
        return catalog.functions();
    }

    /**
     * ANALYZE: the statistics the SQL planner orders joins by (row count; per column distinct values,
     * NULLs, least and greatest value), read now if not yet read for the table registered as {@code table}.
     * The planner reads them itself for the tables of the first statement that uses them; call this after
     * {@link #register} to pay that cost up front (some 0.05 s per million rows and column; see
     * {@link TableStatistics}).
     *
     * @throws io.troupe.operators.TroupeException naming the known tables when there is no such table
     */
    public TableStatistics analyze(String table) {
        notNull(table, "Troupe.analyze", "table");
        checkOpen();
        return catalog.statistics(table);
    }

    /** The hash-table memory that every query of this Troupe takes from (for monitoring). */
    public MemoryArena memoryArena() {
        return arena;
    }

    /**
     * Makes {@code table} scannable by its name, replacing a table of the same name. Tables live on
     * the heap outside {@code troupe.memory.budget}: when the tables and the budget together pass the
     * heap, this logs a warning once (queries could then run the heap out before their budget).
     */
    public Troupe register(Table table) {
        notNull(table, "Troupe.register", "table");
        checkOpen();
        catalog.register(table);
        long tables = catalog.sizeInBytes();
        long heap = Runtime.getRuntime().maxMemory();
        if (tables + arena.budgetBytes() > heap && !warnedHeap.getAndSet(true)) {
            LOG.warn("registered tables hold {} bytes and troupe.memory.budget is {} bytes: together more than the "
                    + "heap ({} bytes, -Xmx); lower the budget or raise the heap", tables, arena.budgetBytes(), heap);
        }
        return this;
    }

    /**
     * Loads {@code file} as table {@code name} and registers it ({@link #register(Table)}), its format known by
     * the file's name: a {@code .csv}, {@code .tsv} or {@code .txt} with its dialect, header and column types
     * detected as DuckDB detects them (docs/files.md), a {@code .parquet} with the columns and types it has
     * (docs/parquet.md). A file that fails to load registers nothing.
     *
     * @throws io.troupe.operators.TroupeException (QUERY) naming the file, and the line, column and value of
     *                                             what did not load
     */
    public Troupe register(String name, Path file) {
        notNull(name, "Troupe.register", "name");
        notNull(file, "Troupe.register", "file");
        return register(FileTables.read(file, name));
    }

    /** Loads the CSV {@code file} as table {@code name} as {@code options} fix it, detecting the rest, and registers it. */
    public Troupe register(String name, Path file, CsvOptions options) {
        notNull(name, "Troupe.register", "name");
        notNull(file, "Troupe.register", "file");
        notNull(options, "Troupe.register", "options");
        return register(CsvReader.read(file, name, options));
    }

    /**
     * Validates and runs {@code plan} with {@link QueryOptions#defaults()}, returning all its rows.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     * @throws io.troupe.operators.exec.QueryFailedException when it fails while running
     */
    public QueryResult execute(Plan plan) {
        notNull(plan, "Troupe.execute", "plan");
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
        notNull(plan, "Troupe.execute", "plan");
        notNull(options, "Troupe.execute", "options");
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
        notNull(plan, "Troupe.submit", "plan");
        notNull(options, "Troupe.submit", "options");
        return submit(compile(new PlanCompiler(catalog, settings), runnable(plan)), options, null);
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
        notNull(plan, "Troupe.explainAnalyze", "plan");
        notNull(options, "Troupe.explainAnalyze", "options");
        return analyze(plan, options, (query, profiler) -> submit(query, options, profiler).await());
    }

    /**
     * EXPLAIN ANALYZE as {@link #explainAnalyze}, the rows dropped batch by batch as they come (as PostgreSQL's
     * EXPLAIN ANALYZE discards them) rather than collected: what it holds does not grow with the result, and the
     * profile's {@link QueryProfile#result()} has no rows.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     * @throws io.troupe.operators.exec.QueryFailedException when it fails while running, or the thread is
     *                                                       interrupted (the query is then cancelled)
     */
    public QueryProfile explainAnalyzeDiscarding(Plan plan, QueryOptions options) {
        notNull(plan, "Troupe.explainAnalyzeDiscarding", "plan");
        notNull(options, "Troupe.explainAnalyzeDiscarding", "options");
        return analyze(plan, options, (query, profiler) -> {
            try (QueryStream stream = stream(query, options, profiler)) {
                while (stream.next() != null) {
                    // dropped: only the counts matter
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new QueryCancelledException("EXPLAIN ANALYZE interrupted");
            }
            return new QueryResult(query.schema(), List.of());
        });
    }

    /** Compiles {@code plan}, runs it with {@code run} under a profiler, timed, and profiles it with its result. */
    private QueryProfile analyze(Plan plan, QueryOptions options,
                                 BiFunction<PlanCompiler.CompiledQuery, Profiler, QueryResult> run) {
        Plan runnable = runnable(plan);
        PlanCompiler compiler = new PlanCompiler(catalog, settings);
        PlanCompiler.CompiledQuery query = compile(compiler, runnable);
        int workers = workers(options);
        if (workers > 0) {
            runtime(); // started before the clock: its start is no part of the query's time
        }
        Profiler profiler = new Profiler();
        long start = System.nanoTime();
        QueryResult result = run.apply(query, profiler);
        long elapsed = System.nanoTime() - start;
        return profiler.profile(runnable, query, compiler, workers, elapsed, result);
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
        notNull(plan, "Troupe.stream", "plan");
        notNull(options, "Troupe.stream", "options");
        return stream(compile(new PlanCompiler(catalog, settings), runnable(plan)), options, null);
    }

    /**
     * Validates {@code plan} and starts this node's part of it, spread over the nodes {@code links} reach
     * (see {@link SpreadPlan}): every node calls this with the same plan and options, on the same tables,
     * and each reads its share of them. The part of node {@link SpreadPlan#COORDINATOR} completes with the
     * query's rows; the others complete empty once their rows were sent. Each part runs with at least one
     * worker. A part fails alone: the caller that started the parts cancels the others (the cluster does).
     * The links are closed when the part ends, however it ends.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     */
    public RunningQuery submitPart(Plan plan, QueryOptions options, NodeLinks links) {
        notNull(plan, "Troupe.submitPart", "plan");
        notNull(options, "Troupe.submitPart", "options");
        notNull(links, "Troupe.submitPart", "links");
        return submit(compilePart(new PlanCompiler(catalog, settings, true), part(plan), links, true), options,
                null, links);
    }

    /**
     * EXPLAIN ANALYZE of this node's part of a query spread over nodes: as {@link #submitPart}, with
     * counters on its chains as {@link #explainAnalyze} puts them, and on every stream between this node
     * and the others ({@link CountingNodeLinks}). Every node of the query calls this; once all ended, the
     * coordinator (or whoever started them) merges their {@link AnalyzedPart#awaitProfile profiles} into a
     * {@link io.troupe.operators.profile.SpreadProfile}.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     */
    public AnalyzedPart analyzePart(Plan plan, QueryOptions options, NodeLinks links) {
        notNull(plan, "Troupe.analyzePart", "plan");
        notNull(options, "Troupe.analyzePart", "options");
        notNull(links, "Troupe.analyzePart", "links");
        Plan runnable = part(plan);
        PlanCompiler compiler = new PlanCompiler(catalog, settings, true);
        PlanCompiler.CompiledQuery query = compilePart(compiler, runnable, links, true);
        int workers = Math.max(1, workers(options));
        runtime(); // started before the clock: its start is no part of the query's time
        CountingNodeLinks counted = new CountingNodeLinks(links);
        Profiler profiler = new Profiler();
        long start = System.nanoTime();
        RunningQuery running = submit(query, options, profiler, counted);
        CompletableFuture<PartProfile> profile = running.result().thenApply(result -> {
            QueryProfile part = profiler.profilePart(runnable, query, compiler, workers, System.nanoTime() - start, result);
            SpreadPlan spread = SpreadPlan.of(query.pipelines(), query.fragments());
            List<PartProfile.Drawn> traffic = new ArrayList<>();
            for (int pipeline : counted.pipelines()) {
                Plan above = query.fragments().exchanges().stream()
                        .filter(e -> e.from() == pipeline && e.to() != ExchangeSpec.RESULT)
                        .findFirst().map(compiler::drawnAbove).orElse(null);
                traffic.add(counted.traffic(pipeline, spread.label(pipeline), above));
            }
            return PartProfile.of(links.self(), links.nodeName(links.self()), part, traffic);
        });
        return new AnalyzedPart(running, profile);
    }

    /**
     * As {@link #submitPart}, for the coordinator's part ({@code links.self()} is
     * {@link SpreadPlan#COORDINATOR}), whose result is pulled batch by batch as {@link #stream} does:
     * every node's rows go through one Gather into the stream.
     *
     * @throws IllegalArgumentException when {@code links} are not the coordinator's
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run (before anything runs)
     */
    public QueryStream streamPart(Plan plan, QueryOptions options, NodeLinks links) {
        notNull(plan, "Troupe.streamPart", "plan");
        notNull(options, "Troupe.streamPart", "options");
        notNull(links, "Troupe.streamPart", "links");
        return stream(compilePart(new PlanCompiler(catalog, settings, true), part(plan), links,
                links.self() == SpreadPlan.COORDINATOR), options, null, links);
    }

    /**
     * Compiles {@code plan} to run spread over nodes; closes {@code links} when it cannot, or when
     * {@code allowed} is false (a stream of a part other than the coordinator's).
     */
    private PlanCompiler.CompiledQuery compilePart(PlanCompiler compiler, Plan plan, NodeLinks links, boolean allowed) {
        try {
            if (!allowed) {
                throw new IllegalArgumentException("only the coordinator's part streams the result; this is node "
                        + links.self() + "'s: submit it with submitPart");
            }
            return compile(compiler, plan);
        } catch (RuntimeException e) {
            links.close();
            throw e;
        }
    }

    // visible for testing: starts a compiled query whose executor reports to probe (null for none)
    RunningQuery submit(PlanCompiler.CompiledQuery query, QueryOptions options, ExecutionProbe probe) {
        return submit(query, options, probe, null);
    }

    /** Starts a compiled query, or with {@code links} this node's part of it ({@link #submitPart}). */
    private RunningQuery submit(PlanCompiler.CompiledQuery query, QueryOptions options, ExecutionProbe probe,
                                NodeLinks links) {
        Started started = start(query, options, probe, Delivery.COLLECT, links);
        CompletableFuture<QueryResult> result = new CompletableFuture<>();
        if (started instanceof OnLeader leader) {
            try {
                leader.run().runToEnd();
                result.complete(resultOf(query, started.ctx()));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
            // The run has ended: nothing is left to cancel, and the handle keeps none of its state.
            return new RunningQuery(started.ctx().queryId(), result, reason -> { });
        }
        OnActors actors = (OnActors) started;
        boolean rowsHere = links == null || links.self() == SpreadPlan.COORDINATOR;
        actors.done().whenComplete((v, e) -> {
            if (e == null) {
                result.complete(rowsHere ? resultOf(query, started.ctx()) : new QueryResult(query.schema(), List.of()));
            } else {
                result.completeExceptionally(e);
            }
        });
        return new RunningQuery(started.ctx().queryId(), result, actors::cancel);
    }

    // visible for testing: as submit
    QueryStream stream(PlanCompiler.CompiledQuery query, QueryOptions options, ExecutionProbe probe) {
        return stream(query, options, probe, null);
    }

    /** Starts a compiled query to stream, or with {@code links} the coordinator's part of it ({@link #streamPart}). */
    private QueryStream stream(PlanCompiler.CompiledQuery query, QueryOptions options, ExecutionProbe probe,
                               NodeLinks links) {
        Started started = start(query, options, probe, Delivery.STREAM, links);
        if (started instanceof OnLeader leader) {
            return QueryStream.local(query.schema(), leader.run());
        }
        OnActors actors = (OnActors) started;
        return QueryStream.parallel(started.ctx().queryId(), query.schema(), actors.handOver(), actors.done(),
                actors::cancel);
    }

    /** Where a query's result goes: collected whole (submit), or handed out batch by batch (stream). */
    private enum Delivery { COLLECT, STREAM }

    /** A query as {@link #start} left it: the leader's run, not stepped yet, or its coordinator, running. */
    private sealed interface Started permits OnLeader, OnActors {
        ExecContext ctx();
    }

    /** 0 workers: the run the caller's thread steps ({@link LocalRun#toOutput} for a stream). */
    private record OnLeader(ExecContext ctx, LocalRun run) implements Started {
    }

    /**
     * Workers: the query's coordinator, {@code done} once every actor of it has stopped, and for a
     * stream the hand-over its Gather fills (null when collected).
     */
    private record OnActors(ExecContext ctx, ActorRef<QueryCoordinator.Command> coordinator,
                            CompletableFuture<Void> done, BatchHandOver handOver) implements Started {
        void cancel(String reason) {
            coordinator.tell(new QueryCoordinator.Cancel(reason));
        }
    }

    /**
     * The one start path of every query: its id, its admission (the calling thread waits while the
     * query is queued: see {@link Admission}), its context (with {@code probe}, EXPLAIN ANALYZE's, or
     * null), then with 0 workers a {@link LocalRun} that this Troupe tracks until it ends (so that
     * {@link #close()} can stop it), or with workers its coordinator spawned in the actor executor (the
     * query's memory released if the spawn fails). Either way admission hears of the query's end once
     * its memory is back, and then {@link QueryEvents} (counters, listeners), before the caller does; a
     * query admission turned away is told to {@link QueryEvents} as it is thrown. With {@code links},
     * this node's part of a spread query (collected, on at least one worker), whose links close with it.
     */
    private Started start(PlanCompiler.CompiledQuery query, QueryOptions options, ExecutionProbe probe,
                          Delivery delivery, NodeLinks links) {
        SpreadPlan spreadPlan;
        try {
            spreadPlan = links == null ? null : SpreadPlan.of(query.pipelines(), query.fragments());
        } catch (RuntimeException e) {
            links.close();
            throw e;
        }
        long queryId = nextQueryId.getAndIncrement();
        int workers = links == null ? workers(options) : Math.max(1, workers(options));
        long arrivedNanos = System.nanoTime();
        QueryMemory memory;
        try {
            memory = admitted(queryId, options);
        } catch (RuntimeException e) {
            events.rejected(queryId, workers, arrivedNanos, e);
            if (links != null) {
                links.close();
            }
            throw e;
        }
        Duration timeout = options.timeout();
        QueryEvents.Admitted admitted = new QueryEvents.Admitted(queryId, workers, arrivedNanos, System.nanoTime(),
                timeout);
        ExecContext ctx = new ExecContext(queryId, settings.batchSize(), memory, spillSpace.forQuery(queryId), probe,
                spreadPlan == null ? source -> ScanShare.WHOLE : spreadPlan.shares(links.self(), links.nodes()));
        if (workers == 0) {
            Consumer<LocalRun> ended = run -> {
                leaderRuns.remove(run);
                admission.finished();
                events.ended(admitted, ctx, QueryEvents.RunEnd.of(run, ctx));
            };
            LocalRun run = delivery == Delivery.STREAM
                    ? LocalRun.toOutput(query.pipelines(), ctx, timeout, ended)
                    : LocalRun.toSink(query.pipelines(), ctx, timeout, ended);
            leaderRuns.add(run);
            // close() sets closed before it cancels the runs it finds: a run added meanwhile sees the flag.
            if (closed) {
                run.cancel(CLOSED);
            }
            return new OnLeader(ctx, run);
        }
        BatchHandOver handOver = delivery == Delivery.STREAM ? new BatchHandOver(QueryStream.HAND_OVER_BATCHES,
                memory.reservation(QueryStream.class, "the stream's hand-over")) : null;
        CompletableFuture<Void> done = new CompletableFuture<>();
        ActorRef<QueryCoordinator.Command> coordinator;
        try {
            ExecutorRuntime executor = runtime();
            coordinator = executor.spawnCoordinator(executor.spec(ctx, query.pipelines(), query.fragments(), workers,
                    timeout, done, handOver, links == null ? null : new QueryCoordinator.Spread(spreadPlan, links)));
        } catch (RuntimeException e) {
            if (links != null) {
                links.close();
            }
            ctx.release();
            admission.finished();
            events.ended(admitted, ctx, QueryEvents.RunEnd.FAILED);
            throw e;
        }
        // The caller hears of the end (with the coordinator's own cause) only once the query was counted.
        CompletableFuture<Void> ended = new CompletableFuture<>();
        done.whenComplete((v, e) -> {
            try {
                admission.finished();
                events.ended(admitted, ctx, QueryEvents.RunEnd.of(e));
            } finally {
                if (e == null) {
                    ended.complete(null);
                } else {
                    ended.completeExceptionally(e);
                }
            }
        });
        return new OnActors(ctx, coordinator, ended, handOver);
    }

    /**
     * Waits until query {@code queryId} is admitted and returns its memory: bounded by
     * {@code troupe.admission.queue-timeout} (the query's own timeout counts from its admission, as
     * Trino's execution time does), and ended by an interrupt.
     *
     * @throws QueryRejectedException when admission turned it away
     * @throws io.troupe.operators.exec.QueryCancelledException when the thread was interrupted while it
     *         waited (the interrupt stays set)
     */
    private QueryMemory admitted(long queryId, QueryOptions options) {
        CompletableFuture<QueryMemory> admitted = options.memoryBytes() == QueryOptions.DEFAULT_MEMORY
                ? admission.admit(queryId) : admission.admit(queryId, options.memoryBytes());
        try {
            return admitted.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failed) {
                throw failed;
            }
            throw new QueryFailedException("query " + queryId + " could not be admitted: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            String gaveUp = "interrupted while it waited to be admitted";
            if (!admission.withdraw(queryId, gaveUp)) {
                // Admitted in the meantime: it never runs, so its memory and its slot go back at once.
                admitted.join().releaseAll();
                admission.finished();
            }
            throw new QueryCancelledException("query " + queryId + " " + gaveUp);
        }
    }

    private int workers(QueryOptions options) {
        return options.workers() == QueryOptions.DEFAULT_WORKERS
                ? settings.workers().defaultWorkers() : options.workers();
    }

    private static QueryResult resultOf(PlanCompiler.CompiledQuery query, ExecContext ctx) {
        return new QueryResult(query.schema(), ctx.lookup(query.result()).batches());
    }

    private PlanCompiler.CompiledQuery compile(PlanCompiler compiler, Plan plan) {
        checkOpen();
        return compiler.compile(plan);
    }

    /**
     * The plan that runs for {@code plan} in this JVM: {@link #optimize optimized} unless
     * {@code troupe.sql.optimize-plans} is off, without its pins either way, its calls of this Troupe's functions
     * bound to them ({@link #functions}). A node's part of a spread query ({@link #submitPart}) runs as given
     * instead ({@link #part}): every node must compile the same plan, and each one's statistics would be of its own
     * share of the tables.
     */
    private Plan runnable(Plan plan) {
        return (settings.sql().optimizePlans() ? optimize(plan) : catalog.functions().resolve(plan)).unpinned();
    }

    /** A node's part of a spread query as it runs: unpinned, its calls of this Troupe's functions bound to them. */
    private Plan part(Plan plan) {
        return catalog.functions().resolve(plan.unpinned());
    }

    /** The spill files of this Troupe's queries (for monitoring: bytes held and written, files now). */
    public SpillSpace spillSpace() {
        return spillSpace;
    }

    /** Runs {@code plan} and registers its result as table {@code name} (CREATE TABLE AS). */
    public Table createTable(String name, Plan plan) {
        notNull(name, "Troupe.createTable", "name");
        notNull(plan, "Troupe.createTable", "plan");
        Table table = execute(plan).toTable(name);
        register(table);
        return table;
    }

    /**
     * Runs one SQL statement with {@link QueryOptions#defaults()}: a query's rows, as {@link #execute(Plan)} runs
     * the plan it lowers to ({@link #planSql}), or the update count of CREATE TABLE [AS], INSERT, DROP TABLE or
     * COPY ({@link QueryResult#updateCount}; see {@link SqlStatements}).
     *
     * @throws io.troupe.operators.sql.SqlException when the statement cannot be planned (before anything runs)
     * @throws io.troupe.operators.exec.QueryFailedException when it fails while running
     */
    public QueryResult sql(String sql) {
        notNull(sql, "Troupe.sql", "sql");
        return sql(sql, QueryOptions.defaults());
    }

    /**
     * Runs one SQL statement with {@code options} (those of the queries it runs), waiting for its end.
     *
     * @throws io.troupe.operators.sql.SqlException when the statement cannot be planned (before anything runs)
     * @throws io.troupe.operators.exec.QueryFailedException when it fails while running, as {@link #execute}
     */
    public QueryResult sql(String sql, QueryOptions options) {
        notNull(sql, "Troupe.sql", "sql");
        notNull(options, "Troupe.sql", "options");
        checkOpen();
        return new SqlStatements(catalog, sqlPlanner(options), plan -> execute(plan, options)).run(sql);
    }

    /**
     * The plan one SQL SELECT statement lowers to over this Troupe's tables (Calcite parses, validates and
     * rewrites it; see {@link SqlPlanner}): the same plan nodes the Java API builds, to run, explain or keep.
     *
     * @throws io.troupe.operators.sql.SqlException when the statement cannot be planned
     */
    public Plan planSql(String sql) {
        return planSql(sql, QueryOptions.defaults());
    }

    /** As {@link #planSql(String)}, in the SQL session's time zone of {@code options}. */
    public Plan planSql(String sql, QueryOptions options) {
        notNull(sql, "Troupe.planSql", "sql");
        notNull(options, "Troupe.planSql", "options");
        checkOpen();
        return sqlPlanner(options).plan(sql);
    }

    /**
     * One SQL SELECT statement with parameters ({@code ?}) planned once, to run with each execution's values
     * ({@link PreparedSql}). A parameter takes the type of where it stands ({@code qty > ?} an INTEGER).
     *
     * @throws io.troupe.operators.sql.SqlException when the statement cannot be planned, or a parameter's type
     *                                              cannot be told ({@code SELECT ? FROM t})
     */
    public PreparedSql prepareSql(String sql) {
        return prepareSql(sql, QueryOptions.defaults());
    }

    /** As {@link #prepareSql(String)}, in the SQL session's time zone of {@code options}. */
    public PreparedSql prepareSql(String sql, QueryOptions options) {
        notNull(sql, "Troupe.prepareSql", "sql");
        notNull(options, "Troupe.prepareSql", "options");
        checkOpen();
        return new PreparedSql(this, sqlPlanner(options).prepare(sql));
    }

    /**
     * {@code plan}, built with the Java API, optimized as a SQL statement is ({@link PlanOptimizer}): in each tree of
     * inner joins and filters over table scans, the filters pushed down to the scans and the joins ordered and
     * their build sides chosen by the tables' statistics, within {@code troupe.sql.join-order-limit}; the same
     * rows, columns and column names. The rest of the plan, its pinned subplans ({@link Plan#pin}) and a region
     * whose conditions use what the optimizer does not carry stay as written; the regions it planned come back
     * pinned, so that running the result plans nothing again. What {@link #execute}, {@link #submit},
     * {@link #stream} and the EXPLAINs do first, unless {@code troupe.sql.optimize-plans} is off. Runs nothing.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan is not valid over this Troupe's tables
     */
    public Plan optimize(Plan plan) {
        notNull(plan, "Troupe.optimize", "plan");
        checkOpen();
        return new PlanOptimizer(catalog, settings.sql().joinOrderLimit()).optimize(plan);
    }

    /**
     * A planner over this Troupe's catalog, bounded by {@code troupe.sql.join-order-limit}, in the time zone of
     * {@code options} or else {@code troupe.sql.time-zone}.
     */
    private SqlPlanner sqlPlanner(QueryOptions options) {
        return new SqlPlanner(catalog, settings.sql().joinOrderLimit(),
                options.timeZone() != null ? options.timeZone() : settings.sql().timeZone());
    }

    /** EXPLAIN of a SQL statement, as {@link #explain(Plan)} prints the plan it lowers to. Runs nothing. */
    public String explainSql(String sql) {
        notNull(sql, "Troupe.explainSql", "sql");
        return explain(planSql(sql));
    }

    /** EXPLAIN of a SQL statement as it runs with {@code options} (see {@link #explain(Plan, QueryOptions)}). */
    public String explainSql(String sql, QueryOptions options) {
        notNull(sql, "Troupe.explainSql", "sql");
        notNull(options, "Troupe.explainSql", "options");
        return explain(planSql(sql, options), options);
    }

    /**
     * EXPLAIN: the validated plan tree with each node's output columns and types, and the exchanges
     * that move batches when it runs with the default workers (see {@link #explain(Plan, QueryOptions)}).
     */
    public String explain(Plan plan) {
        return explain(plan, QueryOptions.defaults());
    }

    /**
     * EXPLAIN of {@code plan} as it runs with {@code options}: the validated plan tree with each node's
     * output columns and types, and, with workers, a line for every exchange that moves batches (the
     * Gather, or a Gather Merge above an ORDER BY at the top) with its workers planned, as PostgreSQL
     * prints them. Runs nothing.
     *
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run
     */
    public String explain(Plan plan, QueryOptions options) {
        notNull(plan, "Troupe.explain", "plan");
        notNull(options, "Troupe.explain", "options");
        PlanCompiler compiler = new PlanCompiler(catalog, settings);
        return compiler.explain(compile(compiler, runnable(plan)), workers(options));
    }

    /**
     * EXPLAIN of {@code plan} spread over {@code nodes} nodes ({@link #submitPart}) with {@code options}'
     * workers on each (at least one): the plan tree with every exchange between nodes drawn above the node
     * whose output crosses it (a join's build side broadcast, an aggregate's input repartitioned by its
     * keys, rows gathered to the coordinator) and where its rows come from. Runs nothing.
     *
     * @throws IllegalArgumentException when {@code nodes} is below 2
     * @throws io.troupe.operators.plan.PlanException when the plan cannot run
     */
    public String explainSpread(Plan plan, QueryOptions options, int nodes) {
        notNull(plan, "Troupe.explainSpread", "plan");
        notNull(options, "Troupe.explainSpread", "options");
        if (nodes < 2) {
            throw new IllegalArgumentException("a query spreads over 2 nodes or more, got " + nodes
                    + ": explain(plan, options) draws it on one");
        }
        PlanCompiler compiler = new PlanCompiler(catalog, settings, true);
        PlanCompiler.CompiledQuery query = compile(compiler, plan.unpinned());
        return compiler.explainSpread(query, SpreadPlan.of(query.pipelines(), query.fragments()), nodes,
                Math.max(1, workers(options)));
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this Troupe is closed");
        }
    }

    private synchronized ExecutorRuntime runtime() {
        checkOpen();
        if (runtime == null) {
            runtime = host == null ? ExecutorRuntime.start(name, settings, backPressureEvents)
                    : ExecutorRuntime.start(name, settings, host, backPressureEvents);
        }
        return runtime;
    }

    /**
     * What this Troupe holds now: running queries, workers, channels, memory (see {@link TroupeStatus}).
     * A query runs from its admission until it has ended ({@link #start}), the count admission keeps: so
     * it is back to 0 before the caller of the last query hears of its end.
     */
    public synchronized TroupeStatus status() {
        if (runtime == null) {
            return new TroupeStatus(admission.running(), 0, 0, 0, 0, arena.inUseBytes(), admission.queued(),
                    spillSpace.heldBytes());
        }
        return new TroupeStatus(admission.running(), runtime.liveWorkers(),
                runtime.openChannels(), runtime.idleChannels(),
                runtime.transport().aeron().map(EmbeddedAeron::driverPublications).orElse(0),
                arena.inUseBytes(), admission.queued(), spillSpace.heldBytes());
    }

    /**
     * What this Troupe counted since it started: queries admitted, ended by outcome, rejected by reason;
     * waits on full channels; bytes spilled (see {@link TroupeCounters}).
     */
    public TroupeCounters counters() {
        return new TroupeCounters(admission.admittedTotal(), events.endedCounts(), events.rejectedCounts(),
                backPressureEvents.sum(), spillSpace.writtenBytes());
    }

    /**
     * Tells {@code listener} of every query that ends from now on, once each, however it ends
     * ({@link QueryListener} says on which thread, and when).
     */
    public Troupe addQueryListener(QueryListener listener) {
        events.add(notNull(listener, "Troupe.addQueryListener", "listener"));
        return this;
    }

    /** Stops telling {@code listener}; true if it was listening. */
    public boolean removeQueryListener(QueryListener listener) {
        return events.remove(notNull(listener, "Troupe.removeQueryListener", "listener"));
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

    /**
     * Stops every running query, terminates the actor system and waits for it (bounded). The leader's
     * queries stop on their callers' threads, within a batch, and release their memory there; a
     * stream's, at its next call. Idempotent.
     */
    @Override
    public void close() {
        ExecutorRuntime toClose;
        TroupeJmx toUnregister;
        synchronized (this) {
            closed = true;
            toClose = runtime;
            runtime = null;
            toUnregister = jmx;
            jmx = null;
        }
        admission.close();
        for (LocalRun run : leaderRuns) {
            run.cancel(CLOSED);
        }
        try {
            if (toClose != null) {
                toClose.close();
            }
        } finally {
            spillSpace.close();
            if (toUnregister != null) {
                toUnregister.unregister();
            }
        }
    }
}
