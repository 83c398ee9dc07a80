package io.troupe.actors.api;

import com.typesafe.config.ConfigFactory;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.plan.Plan;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link QueryListener}: told exactly once of every query, however it ends (ran to the end, failed, timed
 * out, cancelled through its handle, its stream closed early, rejected by admission for each reason,
 * interrupted while queued, refused a coordinator, stopped by the Troupe's close), with what it was; and a
 * listener that throws changes no query's result.
 */
class QueryListenerTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Every event it is told, in order. Threadsafe. */
    static final class Recorder implements QueryListener {
        private final List<QueryEvent> events = new ArrayList<>();

        @Override
        public synchronized void queryEnded(QueryEvent event) {
            events.add(event);
        }

        synchronized List<QueryEvent> events() {
            return List.copyOf(events);
        }

        synchronized long count(QueryEvent.Outcome outcome) {
            return events.stream().filter(e -> e.outcome() == outcome).count();
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(120)
    void everyQueryOfTheMixIsToldOnceWithWhatItWas(int workers) throws Exception {
        Recorder recorder = new Recorder();
        try (Troupe troupe = QueryMix.start(QueryMix.settings())) {
            assertEquals(troupe, troupe.addQueryListener(recorder));
            QueryMix.Tally tally = QueryMix.run(troupe, workers);
            List<QueryEvent> events = recorder.events();
            assertEquals(tally.total(), events.size(), events::toString);
            Set<Long> ids = new HashSet<>();
            for (QueryEvent e : events) {
                assertTrue(ids.add(e.queryId()), "told twice of query " + e.queryId() + ": " + events);
                assertEquals(workers, e.workers(), e::toString);
                assertTrue(e.queuedNanos() >= 0 && e.runningNanos() >= 0, e::toString);
                if (e.outcome() == QueryEvent.Outcome.REJECTED) {
                    assertTrue(e.rejection() != null && e.runningNanos() == 0 && e.peakMemoryBytes() == 0, e::toString);
                } else {
                    assertNull(e.rejection(), e::toString);
                }
                if (e.outcome() == QueryEvent.Outcome.TIMED_OUT) {
                    assertTrue(e.runningNanos() >= TimeUnit.MILLISECONDS.toNanos(50), "ran its timeout: " + e);
                }
            }
            for (QueryEvent.Outcome outcome : QueryEvent.Outcome.values()) {
                assertEquals(tally.ended(outcome), recorder.count(outcome), outcome + " in " + events);
            }
            for (QueryRejectedException.Reason reason : QueryRejectedException.Reason.values()) {
                assertEquals(tally.rejected(reason), events.stream().filter(e -> e.rejection() == reason).count(),
                        reason + " in " + events);
            }
            assertTrue(events.get(0).peakMemoryBytes() > 0, "the join held its hash table: " + events.get(0));
            assertEquals(tally.counters(troupe.counters().backPressureEvents(), 0), troupe.counters());
            assertTrue(troupe.removeQueryListener(recorder));
            troupe.execute(Plan.scan("dims"), QueryOptions.defaults().withWorkers(workers));
            assertEquals(tally.total(), recorder.events().size(), "a removed listener is told nothing");
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(60)
    void aListenerThatThrowsChangesNoQuerysResult(int workers) throws Exception {
        Recorder recorder = new Recorder();
        try (Troupe troupe = FactsAndDims.start()) {
            troupe.addQueryListener(e -> {
                throw new IllegalStateException("a listener's bug");
            });
            troupe.addQueryListener(e -> {
                throw new AssertionError("a listener's Error");
            });
            troupe.addQueryListener(recorder);
            QueryOptions options = QueryOptions.defaults().withWorkers(workers);
            assertEquals(5000, troupe.execute(Plan.scan("facts"), options).rowCount());
            try (QueryStream stream = troupe.stream(Plan.scan("dims"), options)) {
                assertEquals(30, stream.remaining().rowCount());
            }
            Plan failing = Plan.scan("facts").project(col("id").div(col("k").minus(col("k"))).as("q"));
            Exception failed = assertThrows(Exception.class, () -> troupe.execute(failing, options));
            assertTrue(failed.getMessage().contains("division by zero"), failed.getMessage());
            assertEquals(List.of(QueryEvent.Outcome.SUCCEEDED, QueryEvent.Outcome.SUCCEEDED, QueryEvent.Outcome.FAILED),
                    recorder.events().stream().map(QueryEvent::outcome).toList());
            QueryMix.awaitIdle(troupe);
        }
    }

    @Test
    @Timeout(60)
    void aQueryInterruptedOrTimedOutInTheQueueIsToldOnce() throws Exception {
        Recorder recorder = new Recorder();
        TroupeSettings settings = FactsAndDims.settings()
                .withAdmission(new TroupeSettings.Admission(1, 1, Duration.ofMillis(100),
                        TroupeSettings.Admission.AUTO));
        try (Troupe troupe = FactsAndDims.start(settings).addQueryListener(recorder);
             QueryStream open = troupe.stream(Plan.scan("facts"), QueryOptions.defaults().withWorkers(0))) {
            open.next(WAIT);
            QueryRejectedException late = assertThrows(QueryRejectedException.class,
                    () -> troupe.execute(Plan.scan("dims"), QueryOptions.defaults().withWorkers(2)));
            assertEquals(QueryRejectedException.Reason.QUEUE_TIMEOUT, late.reason());
            Thread.currentThread().interrupt();
            assertThrows(QueryCancelledException.class,
                    () -> troupe.execute(Plan.scan("dims"), QueryOptions.defaults().withWorkers(0)));
            assertTrue(Thread.interrupted());
            List<QueryEvent> events = recorder.events();
            assertEquals(2, events.size(), events::toString);
            QueryEvent timedOut = events.get(0);
            assertEquals(QueryEvent.Outcome.REJECTED, timedOut.outcome());
            assertEquals(QueryRejectedException.Reason.QUEUE_TIMEOUT, timedOut.rejection());
            assertEquals(2, timedOut.workers());
            assertTrue(timedOut.queuedNanos() >= TimeUnit.MILLISECONDS.toNanos(100), "waited its timeout: " + timedOut);
            QueryEvent interrupted = events.get(1);
            assertEquals(QueryEvent.Outcome.CANCELLED, interrupted.outcome());
            assertNull(interrupted.rejection());
            assertEquals(0, interrupted.runningNanos(), "never admitted");
            assertEquals(1, troupe.counters().admitted(), "only the open stream was admitted");
        }
    }

    @Test
    @Timeout(60)
    void aQueryWhoseCoordinatorCannotBeSpawnedIsToldOnceAsFailed() throws Exception {
        ActorSystem<Void> host = ActorSystem.create(Behaviors.empty(), "metrics-host",
                ConfigFactory.parseString("pekko.loglevel = WARNING\npekko.jvm-shutdown-hooks = off")
                        .withFallback(ConfigFactory.load()));
        Recorder recorder = new Recorder();
        try (Troupe troupe = FactsAndDims.startIn(host)) {
            troupe.addQueryListener(recorder);
            assertEquals(30, troupe.execute(Plan.scan("dims"), QueryOptions.defaults().withWorkers(2)).rowCount());
            host.terminate();
            host.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            // The executor runs on, but its actors stopped with the host: a query with workers gets no coordinator.
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> troupe.execute(Plan.scan("dims"), QueryOptions.defaults().withWorkers(2)));
            assertTrue(refused.getMessage().contains("have stopped"), refused.getMessage());
            assertEquals(List.of(QueryEvent.Outcome.SUCCEEDED, QueryEvent.Outcome.FAILED),
                    recorder.events().stream().map(QueryEvent::outcome).toList());
            assertEquals(2, troupe.counters().admitted());
            assertEquals(0, troupe.status().queuedQueries());
            assertEquals(0, troupe.memoryArena().inUseBytes(), "the refused query's memory went back");
            // Its admission slot went back too: the leader alone still runs.
            assertEquals(30, troupe.execute(Plan.scan("dims"), QueryOptions.defaults().withWorkers(0)).rowCount());
        } finally {
            host.terminate();
        }
    }

    @Test
    @Timeout(60)
    void aLeadersQueryStoppedByTheTroupesCloseIsToldOnceAsCancelled() throws Exception {
        Recorder recorder = new Recorder();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Troupe troupe = FactsAndDims.start().addQueryListener(recorder);
            Future<?> running;
            try {
                running = caller.submit(() -> troupe.execute(Plan.series("x", 1, 1_000_000_000L)
                        .filter(col("x").eq(lit(0L))), QueryOptions.defaults().withWorkers(0)));
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (troupe.status().runningQueries() == 0) {
                    assertTrue(System.nanoTime() < deadline, "the query never started");
                    Thread.sleep(1);
                }
            } finally {
                troupe.close();
            }
            Throwable cause = assertThrows(ExecutionException.class,
                    () -> running.get(WAIT.toSeconds(), TimeUnit.SECONDS)).getCause();
            assertInstanceOf(QueryCancelledException.class, cause);
            assertTrue(cause.getMessage().contains("the Troupe closed"), cause.getMessage());
            assertEquals(List.of(QueryEvent.Outcome.CANCELLED),
                    recorder.events().stream().map(QueryEvent::outcome).toList());
        } finally {
            caller.shutdownNow();
        }
    }
}
