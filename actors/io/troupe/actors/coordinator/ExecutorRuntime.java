package io.troupe.actors.coordinator;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.actors.exchange.BatchHandOver;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.fragment.FragmentPlan;
import io.troupe.transport.TransportRuntime;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The parallel executor of one Troupe: its {@link TroupeGuardian}, under which every actor of its
 * queries runs, Troupe's own dispatchers ({@link TroupeDispatchers}: the CPU-bound workers on
 * {@code troupe.workers.threads} threads, the Gathers and the coordinators on small pools of their
 * own), and the {@link TransportRuntime} whose channels carry the workers' batches to the Gathers.
 *
 * <h2>Whose actor system</h2>
 * {@link #start(TroupeSettings)} starts an actor system of Troupe's own ({@link SystemOwner#TROUPE});
 * {@link #start(TroupeSettings, ActorSystem)} runs inside a host's ({@link SystemOwner#HOST}), so that
 * a service built on Pekko runs one actor system, not two. Either way the guardian is a system actor
 * ({@code /system/troupe-N}: no user guardian's protocol is needed) on Troupe's coordinator
 * dispatcher, and no actor of the Troupe runs on the system's default dispatcher: a query cannot
 * starve the host's actors of threads, nor the host Troupe's workers. The names ({@code troupe-N},
 * the guardian's and the dispatchers' {@code troupe-N-*-dispatcher}) are unique in the JVM, so
 * several Troupes share one host.
 *
 * <p>The host's actor system stays the host's: its settings (among them
 * {@code pekko.jvm-exit-on-fatal-error}) are its own. What Troupe relies on: its actors run on its own
 * threads, so an Error escaping one never reaches the host's fatal-error handler
 * ({@link TroupeDispatchers}); the host's scheduler fires the queries' timeouts, which only set a
 * query's cancel flag. A host that terminates first stops the Troupe's actors with its own; the
 * Troupe then refuses new parallel queries, and {@link #close()} still ends its threads and transport.
 *
 * <h2>Close</h2>
 * Threadsafe. {@link #close()} stops the guardian and waits for it (so for every actor of the
 * Troupe), shuts down Troupe's dispatchers and waits for their threads, terminates Troupe's own actor
 * system (never a host's), all bounded together by {@link #SHUTDOWN_TIMEOUT}, and then closes the
 * transport. A query still running then was stopped before its coordinator could finish it: close
 * returns its memory and fails its future with a {@link QueryCancelledException}, so that no caller
 * waits on it (a stream's reader included).
 */
public final class ExecutorRuntime implements AutoCloseable {

    /** Long enough for running queries to see the stop between two batches; short enough not to hang a caller. */
    public static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SPAWN_TIMEOUT = Duration.ofSeconds(10);

    /** Who owns the actor system the Troupe's actors run in, and so who terminates it. */
    private enum SystemOwner {
        /** Troupe started it: close terminates it. */
        TROUPE,
        /** A host passed it in: close stops Troupe's actors in it and leaves it running. */
        HOST
    }

    private final String name;
    private final TroupeSettings settings;
    private final ActorSystem<?> system;
    private final SystemOwner owner;
    private final TroupeDispatchers dispatchers;
    private final ActorRef<TroupeGuardian.Command> guardian;
    /** Completed, with the reason, once the guardian and every actor below it have stopped. */
    private final CompletableFuture<String> guardianStopped = new CompletableFuture<>();
    private final TransportRuntime transport;
    private final AtomicInteger liveWorkers = new AtomicInteger();
    /** The Troupe's count of waits on full gather channels: its own, so that it outlives this runtime. */
    private final LongAdder backPressureEvents;
    /** Queries whose coordinator has not finished yet, by query id. */
    private final ConcurrentMap<Long, QueryCoordinator.Spec> running = new ConcurrentHashMap<>();

    private ExecutorRuntime(String name, TroupeSettings settings, ActorSystem<?> system, SystemOwner owner,
                            TransportRuntime transport, LongAdder backPressureEvents) {
        this.name = name;
        this.backPressureEvents = backPressureEvents;
        this.settings = settings;
        this.system = system;
        this.owner = owner;
        this.transport = transport;
        this.dispatchers = TroupeDispatchers.register(system, name, settings.workers().threads());
        guardianStopped.thenAccept(this::cancelUnfinished);
        this.guardian = system.systemActorOf(TroupeGuardian.create(dispatchers.coordinators(), guardianStopped),
                name, dispatchers.coordinators());
    }

    /**
     * Starts the transport, then an actor system of Troupe's own named {@code name}: the Troupe's name
     * ({@code troupe-N}), unique in the JVM.
     *
     * @param backPressureEvents where workers count the waits on their full gather channels
     */
    public static ExecutorRuntime start(String name, TroupeSettings settings, LongAdder backPressureEvents) {
        // Initialise SLF4J before Pekko logs, or SLF4J prints a "replay" warning.
        LoggerFactory.getLogger(ExecutorRuntime.class);
        TransportRuntime transport = TransportRuntime.start(settings.transport());
        ActorSystem<Void> system = null;
        try {
            system = ActorSystem.create(Behaviors.empty(), name, config());
            return new ExecutorRuntime(name, settings, system, SystemOwner.TROUPE, transport, backPressureEvents);
        } catch (RuntimeException e) {
            if (system != null) {
                system.terminate();
            }
            transport.close();
            throw e;
        }
    }

    /**
     * Starts the transport and runs the executor inside {@code host}, which stays the host's: close
     * stops only Troupe's actors and threads in it. Named and counting as {@link #start(String, TroupeSettings,
     * LongAdder)}.
     *
     * @throws IllegalStateException when {@code host} has terminated
     */
    public static ExecutorRuntime start(String name, TroupeSettings settings, ActorSystem<?> host,
                                        LongAdder backPressureEvents) {
        if (host.getWhenTerminated().toCompletableFuture().isDone()) {
            throw new IllegalStateException("actor system [" + host.name() + "] has terminated: Troupe cannot run in it");
        }
        TransportRuntime transport = TransportRuntime.start(settings.transport());
        try {
            return new ExecutorRuntime(name, settings, host, SystemOwner.HOST, transport, backPressureEvents);
        } catch (RuntimeException e) {
            transport.close();
            throw e;
        }
    }

    /**
     * Pekko's settings for Troupe's own actor system: a small default dispatcher (Pekko's own work and
     * the timeouts' callbacks: Troupe's actors run on {@link TroupeDispatchers}), no JVM shutdown hook
     * (the owner closes it), and no exit of the JVM on a fatal error.
     */
    private static Config config() {
        String text = ""
                + "pekko.loglevel = WARNING\n"
                + "pekko.log-dead-letters = off\n"
                + "pekko.log-dead-letters-during-shutdown = off\n"
                + "pekko.jvm-shutdown-hooks = off\n"
                // Troupe never ends the JVM that embeds it: its actors catch every Error of the kernel
                // code they run and fail that query (on, Pekko would call System.exit on one).
                + "pekko.jvm-exit-on-fatal-error = off\n"
                + "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"
                + "pekko.actor.default-dispatcher.fork-join-executor.parallelism-min = 2\n"
                + "pekko.actor.default-dispatcher.fork-join-executor.parallelism-max = 4\n";
        return ConfigFactory.parseString(text).withFallback(ConfigFactory.load());
    }

    /** The runtime's name ({@code troupe-N}): its guardian's, and the start of its threads' names. */
    public String name() {
        return name;
    }

    /** Workers of any query of this runtime that have not stopped yet. */
    public int liveWorkers() {
        return liveWorkers.get();
    }

    /** Channels of any query of this runtime that are still open (in use). */
    public int openChannels() {
        return transport.openChannels();
    }

    /** Aeron logs kept idle for the next queries' channels (see {@code AeronChannelPool}). */
    public int idleChannels() {
        return transport.idleChannels();
    }

    /**
     * Queries of this runtime whose coordinator was spawned and has not finished (its result future is
     * not complete): a query whose caller cancelled the future counts until its actors have stopped.
     */
    public int runningQueries() {
        return running.size();
    }

    /** The transport whose channels this runtime's queries use (for leak checks: its driver's counters). */
    public TransportRuntime transport() {
        return transport;
    }

    /**
     * Spawns the coordinator of a query; it starts at once.
     *
     * @throws IllegalStateException when the Troupe's actors have stopped (its host terminated), or the
     *         coordinator could not be spawned within 10 s
     */
    public ActorRef<QueryCoordinator.Command> spawnCoordinator(QueryCoordinator.Spec spec) {
        long queryId = spec.ctx().queryId();
        if (guardianStopped.isDone()) {
            throw new IllegalStateException("cannot start query " + queryId + ": the actors of " + name
                    + " have stopped: " + guardianStopped.join());
        }
        Behavior<QueryCoordinator.Command> coordinator = QueryCoordinator.create(spec);
        running.put(queryId, spec);
        spec.done().whenComplete((v, e) -> running.remove(queryId));
        try {
            return AskPattern.<TroupeGuardian.Command, ActorRef<QueryCoordinator.Command>>askWithStatus(guardian,
                            replyTo -> new TroupeGuardian.SpawnCoordinator(coordinator, "query-" + queryId, replyTo),
                            SPAWN_TIMEOUT, system.scheduler())
                    .toCompletableFuture().get(SPAWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            running.remove(queryId);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting query " + queryId, e);
        } catch (ExecutionException | TimeoutException e) {
            running.remove(queryId);
            throw new IllegalStateException("could not start query " + queryId + ": " + e, e);
        }
    }

    /** A query spec on this runtime's dispatchers and channels, collecting its result. */
    public QueryCoordinator.Spec spec(ExecContext ctx, List<Pipeline> pipelines, FragmentPlan fragments,
                                      int workers, Duration timeout, CompletableFuture<Void> done) {
        return spec(ctx, pipelines, fragments, workers, timeout, done, null);
    }

    /** A query spec whose top exchange hands its batches to {@code handOver} (null: collect them). */
    public QueryCoordinator.Spec spec(ExecContext ctx, List<Pipeline> pipelines, FragmentPlan fragments, int workers,
                                      Duration timeout, CompletableFuture<Void> done, BatchHandOver handOver) {
        return spec(ctx, pipelines, fragments, workers, timeout, done, handOver, null);
    }

    /**
     * A query spec as {@link #spec(ExecContext, List, FragmentPlan, int, Duration, CompletableFuture, BatchHandOver)},
     * for this node's part of a query spread over nodes ({@code spread}; null for this JVM alone).
     */
    public QueryCoordinator.Spec spec(ExecContext ctx, List<Pipeline> pipelines, FragmentPlan fragments, int workers,
                                      Duration timeout, CompletableFuture<Void> done, BatchHandOver handOver,
                                      QueryCoordinator.Spread spread) {
        return new QueryCoordinator.Spec(ctx, pipelines, fragments, workers, timeout, transport,
                dispatchers.workers(), dispatchers.gathers(),
                settings.workers().leaderParticipation(), liveWorkers, done, handOver, backPressureEvents, spread);
    }

    public TroupeSettings settings() {
        return settings;
    }

    /**
     * Stops every actor of the Troupe (every query) and waits for them, fails the queries it stopped,
     * ends Troupe's dispatchers' threads, terminates Troupe's own actor system (a host's runs on),
     * then closes the transport: all bounded together by {@link #SHUTDOWN_TIMEOUT}.
     *
     * @throws IllegalStateException naming what had not stopped at the deadline (the transport is
     *         closed all the same)
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + SHUTDOWN_TIMEOUT.toNanos();
        try {
            try {
                guardian.tell(new TroupeGuardian.Stop("the Troupe closed"));
                // Once the guardian has stopped, cancelUnfinished has failed the queries it stopped.
                await(guardianStopped, deadline, "the actors of " + name);
                dispatchers.shutdown(deadline);
            } finally {
                if (owner == SystemOwner.TROUPE) {
                    system.terminate();
                    await(system.getWhenTerminated().toCompletableFuture(), deadline, "actor system " + name);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            transport.close();
        }
    }

    /**
     * Fails the queries whose actors the guardian stopped before their coordinator could finish them
     * (close, or the host terminating): no actor of the Troupe runs any more, so their memory can go
     * back, and no caller waits on them (a stream's reader included).
     */
    private void cancelUnfinished(String reason) {
        for (QueryCoordinator.Spec stopped : List.copyOf(running.values())) {
            stopped.ctx().cancel(reason);
            stopped.ctx().release();
            stopped.done().completeExceptionally(new QueryCancelledException(
                    "query " + stopped.ctx().queryId() + " cancelled: " + reason));
        }
    }

    /** Waits for {@code stopped} until {@code deadlineNanos}. */
    private static void await(CompletableFuture<?> stopped, long deadlineNanos, String what)
            throws InterruptedException {
        try {
            stopped.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(what + " did not stop within " + SHUTDOWN_TIMEOUT.toMillis() + " ms", e);
        }
    }
}
