package io.troupe.actors.coordinator;

import io.troupe.actors.exchange.BatchHandOver;
import io.troupe.actors.exchange.Exchange;
import io.troupe.actors.exchange.ExchangeFactory;
import io.troupe.actors.exchange.GatherOutlet;
import io.troupe.actors.exchange.NodeLinks;
import io.troupe.actors.exchange.WorkerOutlet;
import io.troupe.actors.guard.ErrorGuard;
import io.troupe.actors.worker.PipelineWorker;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.PipelineOrder;
import io.troupe.operators.exec.PipelineRun;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.fragment.ExchangeSpec;
import io.troupe.operators.fragment.FragmentPlan;
import io.troupe.operators.fragment.SpreadPlan;
import io.troupe.transport.BatchChannel;
import io.troupe.transport.TransportRuntime;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Runs one query's compiled pipelines over worker actors, one pipeline after another in dependency
 * order. It compiles nothing: it takes the pipelines {@code PlanCompiler} made, and the exchanges
 * between their fragments as the compiler planned them ({@link FragmentPlan}): it builds each
 * exchange that moves batches over channels through {@link ExchangeFactory}, with the pipeline that
 * exchange names ({@link ExchangeFactory#stage}), and never infers one from the pipelines. In one
 * JVM that is the exchange at the top (a Gather, or a Gather Merge over an ORDER BY); the others are
 * elided, their consumers reading the producers' shared state once the producer's pipeline finalized.
 * For one node's part of a query spread over nodes ({@link Spread}), every pipeline this node takes part
 * in gets the exchange between nodes in front of its sink instead ({@link ExchangeFactory#acrossNodes}):
 * its workers route rows to the nodes, an exchange actor feeds this node's sink with the rows the others
 * send, and the pipeline finalizes once both are done; a pipeline this node only receives for runs no
 * worker here, and one it neither runs nor receives for is skipped.
 *
 * <h2>Phases, per pipeline</h2>
 * <ol>
 *   <li>{@code binding} (one: the coordinator): open the pipeline's states once
 *       ({@link PipelineRun#open}); where an exchange is built with the pipeline, let the factory open
 *       it instead, with one channel per worker, and spawn the exchange actor; spawn the workers on
 *       the worker dispatcher and watch them. All: each worker binds its chains (into its channel,
 *       where there is an exchange) and reports {@code WorkerBound}.</li>
 *   <li>{@code running}: once all are bound, {@code Start} to all, the exchange too (see
 *       {@link PipelineRun} for why nobody drives before everybody is bound). All drive their tasks
 *       and report {@code WorkerDone}; the exchange reports {@code Exchange.Done}.</li>
 *   <li>{@code finalizing}: once all are done (the barrier of a hash join build), one: the
 *       coordinator prepares the sink's finalize work ({@link PipelineRun#prepareFinalize}, which
 *       allocates a join's bucket array) and sends it to every worker; all: each steps it until no
 *       unit is left (a join's inserts) and reports {@code FinalizeDone}. Workers that feed an
 *       exchange have no sink of their own (the exchange feeds the result's) and skip this phase.</li>
 *   <li>One: finalize the sink, then the next pipeline's {@code binding} (or, where the sink ends a loop's body
 *       that runs again, the body's first pipeline's: {@link PipelineOrder}); after the last, stop.</li>
 * </ol>
 *
 * <b>Deadlock rule.</b> The barriers (bound before start; every worker done before the finalize
 * work) are passed by workers that hold no output: before anyone produced a batch, or after every
 * chain finished. The waits happen in the coordinator, not in a worker whose output may be full:
 * the exchange drains on its own dispatcher while the workers produce.
 *
 * <h2>Failure, cancel, timeout</h2>
 * A worker's or the exchange's failure, a crash seen through death watch, {@link Cancel} or the
 * timeout keeps the first cause (later ones are attached as suppressed), sets the query's cancel
 * flag (so a worker retrying a full channel gives up), and stops the coordinator. Pekko stops its
 * children first (their PostStop leaves the channels), so the result future completes only once
 * every actor of the query has stopped and every channel of the query is closed. Query actors are
 * never restarted. An Error that kernel code throws (OutOfMemoryError, StackOverflowError), here, in
 * a worker or in the exchange, is caught where it is thrown and fails the query like any other
 * failure, named by {@link QueryFailedException#caught}: it must not reach Pekko, which would stop
 * the actor system (and, with {@code jvm-exit-on-fatal-error} on, the JVM).
 *
 * <p>Not threadsafe, as every actor; the {@link ExecContext} and the result future are the only
 * state shared with other threads.
 */
public final class QueryCoordinator {

    /** The coordinator's messages. */
    public sealed interface Command permits Cancel, WorkerReport, ExchangeReport, TimedOut {
    }

    /** Stop the query: the caller cancelled it. */
    public record Cancel(String reason) implements Command {
    }

    /** A worker's report, adapted. */
    record WorkerReport(PipelineWorker.Report report) implements Command {
    }

    /** An exchange actor's report, adapted. */
    record ExchangeReport(Exchange.Report report) implements Command {
    }

    /** Private: the query's timeout expired. */
    enum TimedOut implements Command {
        INSTANCE
    }

    /**
     * What a coordinator runs.
     *
     * @param ctx              the query's context (id, batch size, published values, cancel flag)
     * @param pipelines        the compiled pipelines
     * @param fragments        the exchanges between their fragments, as the compiler planned them
     * @param workers          workers per pipeline, at least 1
     * @param timeout          stop the query after this long; null for none
     * @param transport        where exchange channels come from
     * @param workerDispatcher the dispatcher of the CPU-bound workers
     * @param gatherDispatcher the exchange actors' dispatcher (not the workers')
     * @param leaderParticipation whether a Gather runs morsels of its pipeline itself
     * @param liveWorkers      the Troupe's count of live workers
     * @param done             completed once every actor of the query has stopped: normally when the
     *                         result is published in {@code ctx}, else with the first cause
     * @param handOver         for a streamed query, where the top exchange hands its batches (bounded)
     *                         instead of the result sink, which then collects nothing; null to collect
     * @param backPressureEvents the Troupe's count of waits on a full exchange channel ({@link GatherOutlet})
     * @param spread           for this node's part of a query spread over nodes, how it is spread and the
     *                         streams to the other nodes; null for a query in this JVM alone
     */
    public record Spec(ExecContext ctx, List<Pipeline> pipelines, FragmentPlan fragments, int workers, Duration timeout,
                       TransportRuntime transport, DispatcherSelector workerDispatcher,
                       DispatcherSelector gatherDispatcher, boolean leaderParticipation, AtomicInteger liveWorkers,
                       CompletableFuture<Void> done, BatchHandOver handOver, LongAdder backPressureEvents,
                       Spread spread) {
    }

    /**
     * How a query is spread over nodes ({@link SpreadPlan}), and this node's streams to the others: every
     * exchange in this JVM is elided, and the one in front of each sink routes rows between nodes
     * ({@link ExchangeFactory#acrossNodes}). The links are closed when the query ends.
     */
    public record Spread(SpreadPlan plan, NodeLinks links) {
    }

    /** One pipeline's execution, as the coordinator tracks it. */
    private static final class Stage {
        final int index;
        final String role;
        /** What its actors' names start with: the pipeline's id, and the round of a loop's body after the first. */
        final String name;
        /** The exchange built with this pipeline, over channels; null for none. */
        final ExchangeSpec exchange;
        PipelineRun run;
        final List<ActorRef<PipelineWorker.Command>> workers = new ArrayList<>();
        /** The exchange's actor: the top Gather, or a spread query's from the other nodes; null without one. */
        ActorRef<Exchange.Command> exchangeActor;
        /** How many workers this node runs of the pipeline (none for a spread pipeline this node only receives for). */
        int workerCount;
        /** Whether the workers feed the sink here, and so share its finalize work. */
        boolean workersFinalize;
        int bound;
        int done;
        int finalized;
        boolean exchangeDone;

        Stage(int index, String role, ExchangeSpec exchange, String name) {
            this.index = index;
            this.role = role;
            this.name = name;
            this.exchange = exchange;
        }

        boolean complete() {
            return done == workerCount && (exchangeActor == null || exchangeDone);
        }
    }

    private final ActorContext<Command> context;
    private final Spec spec;
    private final PipelineOrder order;
    /** By pipeline id: the exchange over channels built with that pipeline. */
    private final Map<Integer, ExchangeSpec> exchanges;
    private final ActorRef<PipelineWorker.Report> workerReports;
    private final ActorRef<Exchange.Report> exchangeReports;
    private final List<BatchChannel> openedChannels = new ArrayList<>();
    private Throwable failure;

    private QueryCoordinator(ActorContext<Command> context, Spec spec) {
        this.context = context;
        this.spec = spec;
        this.order = new PipelineOrder(spec.pipelines(), spec.ctx());
        this.exchanges = spec.spread() == null ? exchangesByStage(spec) : Map.of();
        this.workerReports = context.messageAdapter(PipelineWorker.Report.class, WorkerReport::new);
        this.exchangeReports = context.messageAdapter(Exchange.Report.class, ExchangeReport::new);
    }

    public static Behavior<Command> create(Spec spec) {
        if (spec.workers() < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + spec.workers());
        }
        if (spec.spread() == null) {
            exchangesByStage(spec);
        }
        return Behaviors.withTimers(timers -> Behaviors.setup(context -> {
            QueryCoordinator coordinator = new QueryCoordinator(context, spec);
            return ErrorGuard.guard(Command.class, coordinator.start(timers),
                    e -> coordinator.fail(QueryFailedException.caught(spec.ctx().queryId(), "the coordinator", e)));
        }));
    }

    /**
     * The exchanges over channels by the pipeline each is built with.
     *
     * @throws IllegalArgumentException when one names a pipeline the query lacks, or two name one pipeline
     */
    private static Map<Integer, ExchangeSpec> exchangesByStage(Spec spec) {
        Map<Integer, ExchangeSpec> byStage = new HashMap<>();
        for (ExchangeSpec exchange : spec.fragments().overChannels()) {
            int stage = ExchangeFactory.stage(exchange);
            if (spec.pipelines().stream().noneMatch(p -> p.id() == stage)) {
                throw new IllegalArgumentException("query " + spec.ctx().queryId() + ": " + exchange
                        + " is built with pipeline " + stage + ", which the query does not have");
            }
            ExchangeSpec other = byStage.putIfAbsent(stage, exchange);
            if (other != null) {
                throw new IllegalArgumentException("query " + spec.ctx().queryId() + ": " + other + " and " + exchange
                        + " are both built with pipeline " + stage);
            }
        }
        return byStage;
    }

    private Behavior<Command> start(TimerScheduler<Command> timers) {
        if (spec.timeout() != null) {
            timers.startSingleTimer(TimedOut.INSTANCE, spec.timeout());
        }
        return startPipeline(0);
    }

    // ------------------------------------------------------------------ phases

    private Behavior<Command> startPipeline(int index) {
        Stage stage;
        try {
            Pipeline pipeline = order.get(index);
            if (spec.spread() != null && !spec.spread().plan().involves(pipeline.id(), spec.spread().links().self(),
                    spec.spread().links().nodes())) {
                context.getLog().debug("[query {}] pipeline {} runs on other nodes", spec.ctx().queryId(), index);
                return next(index + 1);
            }
            ExchangeSpec exchange = exchanges.get(pipeline.id());
            String role = exchange != null ? "gathered" : pipeline.sink().role();
            int round = order.opening(index);
            stage = new Stage(index, role, exchange, round == 1 ? "p" + pipeline.id() : "p" + pipeline.id() + "r" + round);
            List<? extends WorkerOutlet> outlets = null;
            if (spec.spread() != null) {
                boolean runsHere = spec.spread().plan().runsOn(pipeline.id(), spec.spread().links().self());
                stage.run = runsHere ? PipelineRun.open(pipeline, spec.ctx()) : PipelineRun.openSink(pipeline, spec.ctx());
                int workers = spec.spread().plan().workers(pipeline.id(), spec.workers());
                ExchangeFactory.AcrossNodes across = ExchangeFactory.acrossNodes(new ExchangeFactory.NodeSite(
                        spec.ctx(), stage.run, spec.spread().plan(), spec.spread().links(), workers,
                        spec.backPressureEvents(), exchangeReports, w -> workerName(role, w), spec.transport(),
                        spec.handOver(), openedChannels));
                outlets = across.outlets();
                stage.workerCount = outlets.size();
                stage.workersFinalize = outlets.isEmpty() || outlets.get(0).feedsSink();
                if (across.inbound() != null) {
                    stage.exchangeActor = context.spawn(across.inbound(), across.name(), spec.gatherDispatcher());
                    context.watch(stage.exchangeActor);
                }
            } else if (exchange == null) {
                stage.run = PipelineRun.open(pipeline, spec.ctx());
                stage.workerCount = spec.workers();
                stage.workersFinalize = true;
            } else {
                ExchangeFactory.Built built = ExchangeFactory.build(exchange, pipeline, new ExchangeFactory.Site(
                        spec.ctx(), spec.workers(), spec.transport(), spec.handOver(), spec.leaderParticipation(),
                        spec.backPressureEvents(), exchangeReports, w -> workerName(role, w), openedChannels));
                stage.run = built.run();
                outlets = built.outlets();
                stage.workerCount = spec.workers();
                stage.exchangeActor = context.spawn(built.behavior(), built.name(), spec.gatherDispatcher());
                context.watch(stage.exchangeActor);
            }
            for (int w = 0; w < stage.workerCount; w++) {
                PipelineWorker.Spec workerSpec = new PipelineWorker.Spec(w, workerName(role, w), stage.run, spec.ctx(),
                        outlets == null ? null : outlets.get(w), spec.liveWorkers(), workerReports);
                ActorRef<PipelineWorker.Command> worker = context.spawn(PipelineWorker.create(workerSpec),
                        stage.name + "-" + stage.role + "-worker-" + w, spec.workerDispatcher());
                context.watch(worker);
                stage.workers.add(worker);
            }
        } catch (Throwable e) {
            return fail(QueryFailedException.caught(spec.ctx().queryId(), "the coordinator, starting pipeline " + index, e));
        }
        context.getLog().debug("[query {}] pipeline {} ({}) starts with [{}] workers",
                spec.ctx().queryId(), index, stage.role, stage.workerCount);
        return stage.workerCount == 0 ? startRunning(stage) : binding(stage);
    }

    private Behavior<Command> binding(Stage stage) {
        return phase(stage, report -> onBindingReport(stage, report));
    }

    /** A phase of one pipeline: the two phases differ only in what a worker's report means. */
    private Behavior<Command> phase(Stage stage,
                                    Function<PipelineWorker.Report, Behavior<Command>> onWorkerReport) {
        return Behaviors.receive(Command.class)
                .onMessage(WorkerReport.class, m -> onWorkerReport.apply(m.report()))
                .onMessage(ExchangeReport.class, m -> onExchangeReport(stage, m.report()))
                .onMessage(Cancel.class, this::onCancel)
                .onMessage(TimedOut.class, m -> onTimedOut())
                .onSignal(ChildFailed.class, this::onChildFailed)
                .onSignal(Terminated.class, t -> Behaviors.same())
                .build();
    }

    private Behavior<Command> onBindingReport(Stage stage, PipelineWorker.Report report) {
        if (report instanceof PipelineWorker.WorkerFailed failed) {
            return fail(failed.cause());
        }
        if (report instanceof PipelineWorker.WorkerBound) {
            stage.bound++;
            return stage.bound == stage.workerCount ? startRunning(stage) : Behaviors.same();
        }
        return fail(new IllegalStateException("query " + spec.ctx().queryId() + ": " + report + " before every worker was bound"));
    }

    /** Every worker is bound: Start to all, the exchange too. */
    private Behavior<Command> startRunning(Stage stage) {
        for (ActorRef<PipelineWorker.Command> worker : stage.workers) {
            worker.tell(PipelineWorker.Start.INSTANCE);
        }
        if (stage.exchangeActor != null) {
            stage.exchangeActor.tell(Exchange.Start.INSTANCE);
        }
        return running(stage);
    }

    private Behavior<Command> running(Stage stage) {
        return phase(stage, report -> onRunningReport(stage, report));
    }

    private Behavior<Command> onRunningReport(Stage stage, PipelineWorker.Report report) {
        if (report instanceof PipelineWorker.WorkerFailed failed) {
            return fail(failed.cause());
        }
        if (report instanceof PipelineWorker.WorkerDone) {
            stage.done++;
            return completeIfDone(stage);
        }
        return fail(new IllegalStateException("query " + spec.ctx().queryId() + ": unexpected " + report + " while running"));
    }

    private Behavior<Command> onExchangeReport(Stage stage, Exchange.Report report) {
        if (report instanceof Exchange.Failed failed) {
            return fail(failed.cause());
        }
        stage.exchangeDone = true;
        return completeIfDone(stage);
    }

    private Behavior<Command> completeIfDone(Stage stage) {
        if (!stage.complete()) {
            return Behaviors.same();
        }
        FinalizeWork work;
        try {
            work = stage.run.prepareFinalize();
        } catch (Throwable e) {
            return fail(QueryFailedException.caught(spec.ctx().queryId(), "the coordinator, preparing to finalize "
                    + describe(stage), e));
        }
        if (!stage.workersFinalize || stage.workerCount == 0) {
            return finalizeSink(stage, work);
        }
        for (ActorRef<PipelineWorker.Command> worker : stage.workers) {
            worker.tell(new PipelineWorker.Finalize(work));
        }
        return finalizing(stage);
    }

    private Behavior<Command> finalizing(Stage stage) {
        return phase(stage, report -> onFinalizingReport(stage, report));
    }

    private Behavior<Command> onFinalizingReport(Stage stage, PipelineWorker.Report report) {
        if (report instanceof PipelineWorker.WorkerFailed failed) {
            return fail(failed.cause());
        }
        if (report instanceof PipelineWorker.FinalizeDone) {
            stage.finalized++;
            return stage.finalized == stage.workerCount ? finalizeSink(stage, FinalizeWork.NONE) : Behaviors.same();
        }
        return fail(new IllegalStateException("query " + spec.ctx().queryId() + ": unexpected " + report + " while finalizing"));
    }

    /**
     * Does what is left of the finalize {@code work} here (an exchange's workers are gone, and the
     * result sink it feeds has none), finalizes the sink, and moves to the next pipeline or stops.
     */
    private Behavior<Command> finalizeSink(Stage stage, FinalizeWork work) {
        try {
            while (work.step()) {
                spec.ctx().checkCancelled();
            }
            stage.run.finalizeSink();
        } catch (Throwable e) {
            return fail(QueryFailedException.caught(spec.ctx().queryId(), "the coordinator, finalizing " + describe(stage), e));
        }
        context.getLog().debug("[query {}] pipeline {} ({}) finalized", spec.ctx().queryId(), stage.index, stage.role);
        int next;
        try {
            next = order.next(stage.index, stage.run);
        } catch (Throwable e) {
            return fail(QueryFailedException.caught(spec.ctx().queryId(), "the coordinator, after " + describe(stage), e));
        }
        return next(next);
    }

    /** The pipeline at {@code position} in the order they run, or the end after the last. */
    private Behavior<Command> next(int position) {
        return position < order.size() ? startPipeline(position) : Behaviors.stopped(this::finish);
    }

    // ------------------------------------------------------------------ failure and the end

    private Behavior<Command> onCancel(Cancel cancel) {
        return fail(new QueryCancelledException("query " + spec.ctx().queryId() + " cancelled: " + cancel.reason()));
    }

    private Behavior<Command> onTimedOut() {
        return fail(new QueryCancelledException("query " + spec.ctx().queryId() + " timed out after "
                + spec.timeout().toMillis() + " ms"));
    }

    private Behavior<Command> onChildFailed(ChildFailed failed) {
        return fail(failed.getCause());
    }

    /** Keeps the first cause, raises the cancel flag, and stops: children stop first, then {@link #finish()}. */
    private Behavior<Command> fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        } else if (failure != cause) {
            failure.addSuppressed(cause);
        }
        spec.ctx().cancel(cause.getMessage() == null ? cause.toString() : cause.getMessage());
        context.getLog().debug("[query {}] failed: {}", spec.ctx().queryId(), cause.toString());
        return Behaviors.stopped(this::finish);
    }

    /**
     * Runs after every child has stopped: closes the query's channels, returns its memory to the
     * arena (no worker can write it any more) and completes its future.
     */
    private void finish() {
        for (BatchChannel channel : openedChannels) {
            channel.close();
        }
        if (spec.spread() != null) {
            spec.spread().links().close();
        }
        spec.ctx().release();
        if (failure == null) {
            spec.done().complete(null);
        } else if (failure instanceof QueryFailedException) {
            spec.done().completeExceptionally(failure);
        } else {
            spec.done().completeExceptionally(new QueryFailedException(
                    "query " + spec.ctx().queryId() + " failed: " + failure, failure));
        }
    }

    // ------------------------------------------------------------------ names

    private static String describe(Stage stage) {
        return "pipeline " + stage.index + " (" + stage.role + ")";
    }

    private static String workerName(String role, int worker) {
        return role + " worker " + worker;
    }
}
