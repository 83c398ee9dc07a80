package io.troupe.actors.coordinator;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.actors.exchange.BatchHandOver;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.transport.TransportRuntime;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.SpawnProtocol;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
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

/**
 * The parallel executor of one Troupe: an actor system with a {@link SpawnProtocol} guardian (so
 * that coordinators can be spawned from callers' threads), a dedicated dispatcher for the CPU-bound
 * workers ({@code troupe.workers.threads} threads), a small one for the Gathers, and the
 * {@link TransportRuntime} whose channels carry the workers' batches to the Gathers.
 *
 * <p>Threadsafe. {@link #close()} terminates the actor system and waits for it, bounded by
 * {@link #SHUTDOWN_TIMEOUT}, so that no thread of this runtime outlives it, then closes the transport.
 * A query still running then was stopped with the actor system, before its coordinator could finish
 * it: close returns its memory and fails its future with a {@link QueryCancelledException}, so that
 * no caller waits on it (a stream's reader included).
 */
public final class ExecutorRuntime implements AutoCloseable {

    /** Long enough for running queries to see the stop between two batches; short enough not to hang a caller. */
    public static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SPAWN_TIMEOUT = Duration.ofSeconds(10);
    private static final String WORKER_DISPATCHER = "troupe-worker-dispatcher";
    private static final String GATHER_DISPATCHER = "troupe-gather-dispatcher";
    private static final AtomicInteger SYSTEMS = new AtomicInteger();
    /**
     * The dispatchers' queue of actors to run: an array made up front, because the default linked
     * queue allocates a node for every message (throughput 1), and on a full heap that allocation,
     * outside any actor's handler, is an OutOfMemoryError that Pekko answers by stopping the actor
     * system (measured: 1 in 25 runs of a GROUP BY that outgrew a 160 MiB heap). It holds an actor
     * at most once: 4096 is 16 queries of 256 workers (past it the sender runs the actor itself).
     */
    private static final String TASK_QUEUE = "task-queue-type = array, task-queue-size = 4096";

    private final TroupeSettings settings;
    private final ActorSystem<SpawnProtocol.Command> system;
    private final TransportRuntime transport;
    private final AtomicInteger liveWorkers = new AtomicInteger();
    /** Queries whose coordinator has not finished yet, by query id. */
    private final ConcurrentMap<Long, QueryCoordinator.Spec> running = new ConcurrentHashMap<>();

    private ExecutorRuntime(TroupeSettings settings, ActorSystem<SpawnProtocol.Command> system, TransportRuntime transport) {
        this.settings = settings;
        this.system = system;
        this.transport = transport;
    }

    /** Starts the transport, then the actor system (its name is unique in this JVM: {@code troupe-N}). */
    public static ExecutorRuntime start(TroupeSettings settings) {
        // Initialise SLF4J before Pekko logs, or SLF4J prints a "replay" warning (stack-notes pitfall 6).
        LoggerFactory.getLogger(ExecutorRuntime.class);
        TransportRuntime transport = TransportRuntime.start(settings.transport());
        try {
            String name = "troupe-" + SYSTEMS.incrementAndGet();
            return new ExecutorRuntime(settings, ActorSystem.create(SpawnProtocol.create(), name, config(settings)), transport);
        } catch (RuntimeException e) {
            transport.close();
            throw e;
        }
    }

    /**
     * Pekko's settings for an embedded executor: dispatchers sized from the settings, a small default
     * dispatcher (coordinators only finalize sinks), no JVM shutdown hook (the owner closes it), and
     * no exit of the JVM on a fatal error.
     */
    private static Config config(TroupeSettings settings) {
        int threads = settings.workers().threads();
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
                + "pekko.actor.default-dispatcher.fork-join-executor.parallelism-max = 4\n"
                // One thread per worker; throughput 1 so that a worker's Continue queues behind the
                // other workers' messages instead of holding the thread for a run of batches.
                + WORKER_DISPATCHER + " { type = Dispatcher, executor = thread-pool-executor, "
                + "thread-pool-executor { fixed-pool-size = " + threads + ", " + TASK_QUEUE + " }, throughput = 1 }\n"
                + GATHER_DISPATCHER + " { type = Dispatcher, executor = thread-pool-executor, "
                + "thread-pool-executor { fixed-pool-size = 2, " + TASK_QUEUE + " }, throughput = 1 }\n";
        return ConfigFactory.parseString(text).withFallback(ConfigFactory.load());
    }

    /** The actor system's name: its threads' names start with it. */
    public String name() {
        return system.name();
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

    /** Spawns the coordinator of a query; it starts at once. */
    public ActorRef<QueryCoordinator.Command> spawnCoordinator(QueryCoordinator.Spec spec) {
        long queryId = spec.ctx().queryId();
        running.put(queryId, spec);
        spec.done().whenComplete((v, e) -> running.remove(queryId));
        try {
            return AskPattern.<SpawnProtocol.Command, ActorRef<QueryCoordinator.Command>>ask(system,
                    replyTo -> new SpawnProtocol.Spawn<>(QueryCoordinator.create(spec),
                            "query-" + spec.ctx().queryId(), Props.empty(), replyTo),
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
    public QueryCoordinator.Spec spec(ExecContext ctx, List<Pipeline> pipelines,
                                      int workers, Duration timeout, CompletableFuture<Void> done) {
        return spec(ctx, pipelines, workers, timeout, done, null);
    }

    /** A query spec whose Gather hands its batches to {@code handOver} (null: collect them). */
    public QueryCoordinator.Spec spec(ExecContext ctx, List<Pipeline> pipelines, int workers, Duration timeout,
                                      CompletableFuture<Void> done, BatchHandOver handOver) {
        return new QueryCoordinator.Spec(ctx, pipelines, workers, timeout, transport,
                DispatcherSelector.fromConfig(WORKER_DISPATCHER), DispatcherSelector.fromConfig(GATHER_DISPATCHER),
                settings.workers().leaderParticipation(), liveWorkers, done, handOver);
    }

    /** Runs {@code action} once after {@code delay} on the actor system's scheduler. */
    public void scheduleOnce(Duration delay, Runnable action) {
        system.scheduler().scheduleOnce(delay, action, system.executionContext());
    }

    public TroupeSettings settings() {
        return settings;
    }

    /**
     * Terminates the actor system (stopping every query), waits for it, fails the queries it stopped,
     * then closes the transport.
     */
    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            // No actor runs any more: the memory of the queries it stopped can go back.
            for (QueryCoordinator.Spec stopped : List.copyOf(running.values())) {
                stopped.ctx().cancel("the Troupe closed");
                stopped.ctx().memory().releaseAll();
                stopped.done().completeExceptionally(new QueryCancelledException(
                        "query " + stopped.ctx().queryId() + " cancelled: the Troupe closed"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("actor system " + system.name() + " did not terminate within "
                    + SHUTDOWN_TIMEOUT.toMillis() + " ms", e);
        } finally {
            transport.close();
        }
    }
}
