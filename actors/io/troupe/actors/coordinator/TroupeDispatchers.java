package io.troupe.actors.coordinator;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.dispatch.Dispatcher;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.Dispatchers;
import org.apache.pekko.dispatch.ExecutorServiceFactoryProvider;
import org.apache.pekko.dispatch.MessageDispatcher;
import org.apache.pekko.dispatch.MessageDispatcherConfigurator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.DurationConverters;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The dispatchers of one Troupe, added to an actor system at run time, each over thread pools that
 * this class makes and ends: {@code <name>-worker-dispatcher} for the CPU-bound workers
 * ({@code troupe.workers.threads} threads), {@code <name>-gather-dispatcher} for the Gathers and
 * {@code <name>-coordinator-dispatcher} for the coordinators and the Troupe's guardian. A thread's
 * name is its dispatcher's id and a number ({@code troupe-3-worker-dispatcher-1}).
 *
 * <h2>Why added at run time</h2>
 * A Pekko dispatcher is named by a path ({@link DispatcherSelector#fromConfig}) that the system's
 * {@link Dispatchers} resolve, and a host's actor system was configured by the host, not by Troupe.
 * Three ways were weighed: an {@code include} the host adds to its application.conf (one more step a
 * service can get wrong, found missing only at the first parallel query, and the pool sizes of
 * {@code TroupeSettings} could not reach it); the host's default dispatcher (Troupe's workers hold
 * their threads for whole morsels and would starve the host's actors); and
 * {@link Dispatchers#registerConfigurator}, Pekko's public way to add dispatchers at run time (its
 * {@code BalancingPool} uses it), after which the id resolves as a configured one would. Troupe takes
 * the third, on its own actor system as on a host's, so there is one way: nothing is asked of the
 * host's configuration, and each Troupe's pools are sized by its own settings.
 *
 * <h2>Troupe's own threads</h2>
 * The pools are plain {@link ThreadPoolExecutor}s over this class's thread factory, not Pekko's: an
 * Error that escapes an actor on them (an actor's own failures are Pekko's, and its supervision's)
 * ends at this class's handler, which logs it; it never reaches the actor system's handler, which
 * exits the JVM under {@code pekko.jvm-exit-on-fatal-error = on} and else terminates the system, the
 * host's included. The threads are daemons: a Troupe its owner forgot to close never holds the JVM.
 *
 * <h2>Lifecycle</h2>
 * As with Pekko's own dispatchers, a {@link Dispatcher} makes a pool when an actor first runs on it
 * and shuts it down {@link #IDLE_SHUTDOWN} after its last actor stopped, so a Troupe between queries
 * holds no worker thread. {@link #shutdown} ends every pool at once and waits for its threads, for a
 * Troupe whose actors have all stopped. Pekko cannot take a registration back: the three
 * configurators (no thread) stay in the system's table until it terminates, a few objects per Troupe
 * started in a host.
 *
 * <h2>Concurrency</h2>
 * Threadsafe. {@code pools} gains a pool on the thread that makes it (the dispatcher's, under its
 * first task) and loses it in the pool's {@code terminated} hook; {@code threads} gains a thread when
 * the factory makes it and loses it as the thread's last act. Both are concurrent sets; {@link #shutdown}
 * works on snapshots, which hold every pool and thread there can be once the Troupe's actors stopped.
 */
final class TroupeDispatchers {

    private static final Logger LOG = LoggerFactory.getLogger(TroupeDispatchers.class);
    /**
     * The Gathers' threads: a Gather polls channels and hands batches on, and under leader participation
     * runs a morsel when none is ready. Two, as on Troupe's own system before it was hosted.
     */
    private static final int GATHER_THREADS = 2;
    /**
     * The coordinators' threads: a coordinator answers reports and finalizes sinks (a join's bucket
     * array, an aggregate's merge). Four: what Pekko's default dispatcher gave them on Troupe's own
     * system before they moved to a dispatcher of their own (parallelism-max 4).
     */
    private static final int COORDINATOR_THREADS = 4;
    /** Pekko's default shutdown-timeout: how long a pool outlives the last actor on it. */
    static final Duration IDLE_SHUTDOWN = Duration.ofSeconds(1);
    /** Pekko's default keep-alive-time: an idle thread of a pool that lives on ends after this. */
    private static final Duration THREAD_KEEP_ALIVE = Duration.ofSeconds(60);
    /**
     * Messages an actor handles before its thread turns to the next actor. 1 for workers and Gathers,
     * so that a worker's {@code Continue} queues behind the others' messages instead of holding the
     * thread for a run of batches; Pekko's default 5 for coordinators.
     */
    private static final int ONE_MESSAGE = 1;
    private static final int COORDINATOR_THROUGHPUT = 5;

    private final Set<ThreadPoolExecutor> pools = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final DispatcherSelector workers;
    private final DispatcherSelector gathers;
    private final DispatcherSelector coordinators;

    private TroupeDispatchers(ActorSystem<?> system, String name, int workerThreads) {
        Dispatchers dispatchers = Adapter.toClassic(system).dispatchers();
        this.workers = add(dispatchers, name + "-worker-dispatcher", workerThreads, ONE_MESSAGE);
        this.gathers = add(dispatchers, name + "-gather-dispatcher", GATHER_THREADS, ONE_MESSAGE);
        this.coordinators = add(dispatchers, name + "-coordinator-dispatcher", COORDINATOR_THREADS,
                COORDINATOR_THROUGHPUT);
    }

    /**
     * Adds the dispatchers of the Troupe {@code name} (unique in the JVM) to {@code system}.
     *
     * @throws IllegalStateException when {@code system} already has a dispatcher of one of their ids
     */
    static TroupeDispatchers register(ActorSystem<?> system, String name, int workerThreads) {
        return new TroupeDispatchers(system, name, workerThreads);
    }

    /** The CPU-bound workers' dispatcher. */
    DispatcherSelector workers() {
        return workers;
    }

    /** The Gathers' dispatcher, apart from the workers' so that a Gather drains while workers wait on it. */
    DispatcherSelector gathers() {
        return gathers;
    }

    /** The coordinators' and the guardian's dispatcher, apart from the host's default dispatcher. */
    DispatcherSelector coordinators() {
        return coordinators;
    }

    private DispatcherSelector add(Dispatchers dispatchers, String id, int poolThreads, int throughput) {
        // What Pekko reads of a dispatcher's config besides its constructor's arguments: the id, and
        // (through Mailboxes) its mailbox requirement: none, so Troupe's actors get the default mailbox.
        Config config = ConfigFactory.empty()
                .withValue("id", ConfigValueFactory.fromAnyRef(id))
                .withValue("mailbox-requirement", ConfigValueFactory.fromAnyRef(""));
        ThreadFactory threadFactory = threadFactory(id);
        ExecutorServiceFactoryProvider pools = (dispatcherId, pekkoThreadFactory) -> () -> newPool(poolThreads,
                threadFactory);
        if (!dispatchers.registerConfigurator(id, new Configurator(config, dispatchers.prerequisites(), throughput, pools))) {
            throw new IllegalStateException("actor system already has a dispatcher with id [" + id + "]");
        }
        return DispatcherSelector.fromConfig(id);
    }

    /**
     * A pool's queue of actors to run: an array made up front, because a linked queue allocates a node
     * for every message (throughput 1), and on a full heap that allocation, outside any actor's
     * handler, is an OutOfMemoryError that Pekko answers by stopping the actor system (measured: 1 in
     * 25 runs of a GROUP BY that outgrew a 160 MiB heap). It holds an actor at most once: 4096 is 16
     * queries of 256 workers; past it the sender runs the actor itself (as Pekko's own pools do).
     */
    private static final int TASK_QUEUE = 4096;

    private ThreadPoolExecutor newPool(int poolThreads, ThreadFactory threadFactory) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(poolThreads, poolThreads, THREAD_KEEP_ALIVE.toMillis(),
                TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(TASK_QUEUE), threadFactory, (task, executor) -> {
                    if (executor.isShutdown()) {
                        throw new RejectedExecutionException("a Troupe dispatcher is shut down");
                    }
                    task.run();
                }) {
            @Override
            protected void terminated() {
                pools.remove(this);
            }
        };
        pool.allowCoreThreadTimeOut(true);
        pools.add(pool);
        return pool;
    }

    private ThreadFactory threadFactory(String id) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(() -> {
                try {
                    task.run();
                } finally {
                    threads.remove(Thread.currentThread());
                }
            }, id + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            thread.setUncaughtExceptionHandler((t, e) -> LOG.error(
                    "[{}] uncaught on a Troupe thread; the thread ends, the JVM and the actor system run on",
                    t.getName(), e));
            threads.add(thread);
            return thread;
        };
    }

    /**
     * Shuts down every pool of these dispatchers and waits for their threads to end, until
     * {@code deadlineNanos} ({@link System#nanoTime()}). Call it once no actor of the Troupe runs.
     *
     * @throws IllegalStateException naming the threads still alive at the deadline
     */
    void shutdown(long deadlineNanos) throws InterruptedException {
        for (ThreadPoolExecutor pool : List.copyOf(pools)) {
            pool.shutdown();
        }
        for (Thread thread : List.copyOf(threads)) {
            long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            if (leftMillis > 0) {
                thread.join(leftMillis);
            }
        }
        List<String> alive = threads.stream().filter(Thread::isAlive).map(Thread::getName).sorted().toList();
        if (!alive.isEmpty()) {
            throw new IllegalStateException("Troupe threads still running at the deadline: " + alive);
        }
    }

    /** Makes the one {@link Dispatcher} of an id, over pools from {@code pools}. */
    private static final class Configurator extends MessageDispatcherConfigurator {

        private final Dispatcher dispatcher;

        Configurator(Config config, DispatcherPrerequisites prerequisites, int throughput,
                     ExecutorServiceFactoryProvider pools) {
            super(config, prerequisites);
            this.dispatcher = new Dispatcher(this, config.getString("id"), throughput,
                    scala.concurrent.duration.Duration.Zero(), pools, DurationConverters.toScala(IDLE_SHUTDOWN));
        }

        @Override
        public MessageDispatcher dispatcher() {
            return dispatcher;
        }
    }
}
