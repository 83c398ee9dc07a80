package io.troupe.actors.api;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import org.apache.pekko.actor.ActorNotFound;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Troupe#start(io.troupe.config.TroupeSettings, ActorSystem)}: a Troupe inside a service's own
 * actor system. The host has an actor of its own (an echo that answers with the name of the thread it
 * ran on) and a default dispatcher of two threads, so that a Troupe whose workers ran there would
 * starve it. Parallel queries give the leader's rows on Troupe's own threads while the host answers;
 * a failed, a cancelled and a timed-out query leave it answering; close stops Troupe's actors and
 * threads and nothing of the host's, which then terminates cleanly; two Troupes share one host.
 */
class HostActorSystemTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** A long query: far more batches than run before a cancel, a timeout or a close comes. */
    private static final Plan LONG = Plan.series("x", 1, 1_000_000_000L);

    /** Asks the echo for the name of the thread it runs on. */
    record Ping(ActorRef<String> replyTo) {
    }

    private ActorSystem<Ping> host;
    private Set<Thread> before;

    @BeforeEach
    void startHost() {
        before = Set.copyOf(Thread.getAllStackTraces().keySet());
        host = ActorSystem.create(echo(), "host", hostConfig());
    }

    @AfterEach
    void terminateHost() throws Exception {
        host.terminate();
        host.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static Behavior<Ping> echo() {
        return Behaviors.receive(Ping.class)
                .onMessage(Ping.class, p -> {
                    p.replyTo().tell(Thread.currentThread().getName());
                    return Behaviors.same();
                })
                .build();
    }

    /**
     * A service's settings, but for two: a default dispatcher of two threads (two of Troupe's workers
     * would take it all), and no JVM exit on a fatal error, so that an Error reaching the host's
     * handler would terminate the host, which the tests see, instead of ending the test JVM.
     */
    private static Config hostConfig() {
        return ConfigFactory.parseString("""
                pekko.loglevel = WARNING
                pekko.jvm-exit-on-fatal-error = off
                pekko.jvm-shutdown-hooks = off
                pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
                pekko.actor.default-dispatcher.fork-join-executor.parallelism-min = 2
                pekko.actor.default-dispatcher.fork-join-executor.parallelism-max = 2
                """).withFallback(ConfigFactory.load());
    }

    /** The echo answers, on one of the host's own threads. */
    private void assertHostAnswers() throws Exception {
        String thread = AskPattern.<Ping, String>ask(host, Ping::new, WAIT, host.scheduler())
                .toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertTrue(thread.startsWith("host-"), thread);
        assertFalse(host.getWhenTerminated().toCompletableFuture().isDone(), "the host terminated");
    }

    @Test
    @Timeout(120)
    void parallelQueriesInTheHostGiveTheLeadersRows() throws Exception {
        try (Troupe troupe = FactsAndDims.startIn(host)) {
            for (Plan plan : ParallelExecutionTest.plans()) {
                assertEquals(sorted(troupe.execute(plan, QueryOptions.defaults().withWorkers(0))),
                        sorted(troupe.execute(plan, QueryOptions.defaults().withWorkers(4))), () -> troupe.explain(plan));
            }
            assertEquals(0, troupe.liveWorkers());
            assertEquals(0, troupe.openChannels());
            assertNotNull(guardian(troupe.actorSystemName()), "Troupe's guardian lives in the host");
            assertHostAnswers();
        }
        assertHostAnswers();
    }

    @Test
    @Timeout(120)
    void workersRunOnTroupesOwnThreadsAndTheHostKeepsAnswering() throws Exception {
        try (Troupe troupe = FactsAndDims.startIn(host);
             QueryStream stream = troupe.stream(LONG, QueryOptions.defaults().withWorkers(2))) {
            assertNotNull(stream.next(WAIT));
            // Unread, the stream fills and its two workers wait on their full channels, each keeping its
            // thread (QueryStream): two threads show a worker's frames until the stream closes.
            List<String> workerThreads = awaitThreadsRunning("io.troupe.actors.worker.PipelineWorker", 2);
            String prefix = troupe.actorSystemName() + "-worker-dispatcher-";
            assertTrue(workerThreads.stream().allMatch(name -> name.startsWith(prefix)), workerThreads::toString);
            // Both of the host's threads would be the workers' if they ran on its default dispatcher.
            assertHostAnswers();
        }
        assertHostAnswers();
    }

    @Test
    @Timeout(120)
    void aFailedACancelledAndATimedOutQueryLeaveTheHostAnswering() throws Exception {
        try (Troupe troupe = FactsAndDims.startIn(host)) {
            Plan divByZero = Plan.scan("facts").project(col("id").div(col("k").minus(col("k"))).as("q"));
            QueryFailedException failed = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(divByZero, QueryOptions.defaults().withWorkers(2)));
            assertTrue(failed.getMessage().contains("division by zero"), failed.getMessage());
            assertHostAnswers();

            RunningQuery running = troupe.submit(LONG.aggregate(List.of(), Expr.sum(col("x"))),
                    QueryOptions.defaults().withWorkers(2));
            running.cancel("test");
            assertThrows(QueryCancelledException.class, running::await);
            assertHostAnswers();

            QueryCancelledException timedOut = assertThrows(QueryCancelledException.class, () -> troupe.execute(
                    LONG.aggregate(List.of(), Expr.sum(col("x"))),
                    QueryOptions.defaults().withWorkers(2).withTimeout(Duration.ofMillis(50))));
            assertTrue(timedOut.getMessage().contains("timed out after 50 ms"), timedOut.getMessage());
            assertHostAnswers();

            assertEquals(0, troupe.liveWorkers());
            assertEquals(0, troupe.openChannels());
            assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2)).rows().size());
        }
    }

    @Test
    @Timeout(120)
    void closeStopsTroupesActorsAndThreadsAndNothingOfTheHosts() throws Exception {
        Troupe troupe = FactsAndDims.startIn(host);
        String name;
        QueryStream stream;
        try {
            assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2)).rows().size());
            name = troupe.actorSystemName();
            assertNotNull(guardian(name));
            // A query still running when the Troupe closes.
            stream = troupe.stream(LONG, QueryOptions.defaults().withWorkers(2));
            assertNotNull(stream.next(WAIT));
            assertFalse(troupeThreads(name).isEmpty(), "Troupe's threads run");
        } finally {
            troupe.close();
        }
        QueryStream stopped = stream;
        assertThrows(QueryCancelledException.class, () -> drain(stopped));
        stream.close();
        assertHostAnswers();
        assertEquals(List.of(), troupeThreads(name), "Troupe threads left after close");
        assertEquals(List.of(), newThreadsOtherThanTheHosts(), "threads left after close other than the host's");
        ExecutionException noGuardian = assertThrows(ExecutionException.class, () -> guardian(name));
        assertInstanceOf(ActorNotFound.class, noGuardian.getCause());
        IllegalStateException closed = assertThrows(IllegalStateException.class,
                () -> troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2)));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }

    @Test
    @Timeout(120)
    void twoTroupesShareOneHostAndCloseApart() throws Exception {
        Troupe first = FactsAndDims.startIn(host);
        String firstName = null;
        try (Troupe second = FactsAndDims.startIn(host)) {
            try {
                List<Plan> plans = ParallelExecutionTest.plans();
                List<RunningQuery> onFirst = new ArrayList<>();
                List<RunningQuery> onSecond = new ArrayList<>();
                for (Plan plan : plans) {
                    onFirst.add(first.submit(plan, QueryOptions.defaults().withWorkers(2)));
                    onSecond.add(second.submit(plan, QueryOptions.defaults().withWorkers(3)));
                }
                for (int i = 0; i < plans.size(); i++) {
                    List<List<Object>> expected = sorted(first.execute(plans.get(i), QueryOptions.defaults().withWorkers(0)));
                    assertEquals(expected, sorted(onFirst.get(i).await()), "first, plan " + i);
                    assertEquals(expected, sorted(onSecond.get(i).await()), "second, plan " + i);
                }
                firstName = first.actorSystemName();
                assertNotEquals(firstName, second.actorSystemName());
            } finally {
                first.close();
            }
            assertEquals(List.of(), troupeThreads(firstName), "the closed Troupe's threads");
            Plan plan = ParallelExecutionTest.plans().get(1);
            assertEquals(sorted(second.execute(plan, QueryOptions.defaults().withWorkers(0))),
                    sorted(second.execute(plan, QueryOptions.defaults().withWorkers(4))));
            assertNotNull(guardian(second.actorSystemName()), "the other Troupe's guardian lives on");
            assertHostAnswers();
        }
    }

    @Test
    @Timeout(120)
    void aHostThatTerminatesFirstStopsTheTroupesQueriesAndCloseStillEndsItsThreads() throws Exception {
        try (Troupe troupe = FactsAndDims.startIn(host)) {
            assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2)).rows().size());
            RunningQuery running = troupe.submit(LONG.aggregate(List.of(), Expr.sum(col("x"))),
                    QueryOptions.defaults().withWorkers(2));
            host.terminate();
            host.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThrows(RuntimeException.class, running::await);
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(2)));
            assertTrue(refused.getMessage().contains("actor system [host]"), refused.getMessage());
            assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(0)).rows().size(),
                    "the leader alone needs no actor system");
            String name = troupe.actorSystemName();
            troupe.close();
            assertEquals(List.of(), troupeThreads(name));
        }
    }

    @Test
    @Timeout(60)
    void aTerminatedHostIsRefusedByName() throws Exception {
        host.terminate();
        host.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        // With workers by default (troupe.workers.default = auto) the executor starts with the Troupe.
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> FactsAndDims.startIn(host));
        assertEquals("actor system [host] has terminated: Troupe cannot run in it", e.getMessage());
        IllegalArgumentException noHost = assertThrows(IllegalArgumentException.class,
                () -> Troupe.start(TroupeSettings.load(), null));
        assertEquals("Troupe.start: host must not be null", noHost.getMessage());
    }

    /** Troupe's guardian in the host, resolved by its path (fails with ActorNotFound when it is gone). */
    private org.apache.pekko.actor.ActorRef guardian(String name) throws Exception {
        return Adapter.toClassic(host).actorSelection("/system/" + name).resolveOne(Duration.ofSeconds(5))
                .toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Reads the stream to its end. */
    private static void drain(QueryStream stream) throws Exception {
        while (stream.next(WAIT) != null) {
            // the rows do not matter: the end does
        }
    }

    /**
     * The names of the threads running a frame of {@code className}, once there are {@code count} of
     * them (bounded by {@link #WAIT}).
     */
    private static List<String> awaitThreadsRunning(String className, int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<String> running = List.of();
        while (running.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
            running = new ArrayList<>();
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                for (StackTraceElement frame : e.getValue()) {
                    if (frame.getClassName().startsWith(className)) {
                        running.add(e.getKey().getName());
                        break;
                    }
                }
            }
        }
        assertEquals(count, running.size(), () -> "threads running " + className);
        return running;
    }

    /** Live threads of the Troupe {@code name} (its dispatchers'): none once it closed, with no wait. */
    private static List<String> troupeThreads(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith(name + "-"))
                .map(Thread::getName).sorted().toList();
    }

    /** Live threads started since the host, but the host's, after waiting (bounded) for those on their way out. */
    private List<String> newThreadsOtherThanTheHosts() throws InterruptedException {
        return settled(t -> !before.contains(t) && !t.getName().startsWith(host.name() + "-"));
    }

    private static List<String> settled(java.util.function.Predicate<Thread> which) throws InterruptedException {
        List<Thread> threads = Thread.getAllStackTraces().keySet().stream().filter(which).toList();
        for (Thread t : threads) {
            t.join(WAIT.toMillis());
        }
        return threads.stream().filter(Thread::isAlive).map(Thread::getName).sorted().toList();
    }

    private static List<List<Object>> sorted(QueryResult result) {
        List<List<Object>> rows = new ArrayList<>(result.rows());
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }
}
