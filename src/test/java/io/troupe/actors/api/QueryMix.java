package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixture of the monitoring tests: a Troupe over {@link FactsAndDims} that admits one query at a time
 * and queues none (so a rejection is easy to make), and a mix of queries that end every way a query can,
 * tallied by what the test did (not by what the Troupe says), for the tests to hold the Troupe's counts,
 * listeners, meters and MXBean against.
 *
 * <p>After every query the mix asserts that the Troupe's counters already include it: a query's end is
 * counted before its caller learns of it.
 */
public final class QueryMix {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** A query that ends with the last of its rows: no row before a timeout or a cancel comes. */
    private static final Plan LONG = Plan.series("x", 1, 1_000_000_000L).filter(col("x").eq(lit(1_000_000_000L)));
    /** A query whose every batch comes at once: a stream of it has one ready after the first call. */
    private static final Plan ENDLESS = Plan.series("x", 1, 1_000_000_000L);

    private QueryMix() {
    }

    /** What the mix ran: queries admitted, ended by outcome, rejected by reason. Not threadsafe. */
    public static final class Tally {
        private final Map<QueryEvent.Outcome, Long> ended = new EnumMap<>(QueryEvent.Outcome.class);
        private final Map<QueryRejectedException.Reason, Long> rejected =
                new EnumMap<>(QueryRejectedException.Reason.class);
        /** Queries the Troupe had counted as ended before the mix. */
        private final long before;
        private long admitted;

        Tally(long before) {
            this.before = before;
            for (QueryEvent.Outcome outcome : QueryEvent.Outcome.values()) {
                ended.put(outcome, 0L);
            }
            for (QueryRejectedException.Reason reason : QueryRejectedException.Reason.values()) {
                rejected.put(reason, 0L);
            }
        }

        public long admitted() {
            return admitted;
        }

        public long ended(QueryEvent.Outcome outcome) {
            return ended.get(outcome);
        }

        public long rejected(QueryRejectedException.Reason reason) {
            return rejected.get(reason);
        }

        /** Every query the mix ran, rejected ones included. */
        public long total() {
            return ended.values().stream().mapToLong(Long::longValue).sum();
        }

        /** The counters a Troupe that ran just this mix must show (its back-pressure and spill given). */
        public TroupeCounters counters(long backPressureEvents, long spillWrittenBytes) {
            return new TroupeCounters(admitted, ended, rejected, backPressureEvents, spillWrittenBytes);
        }

        void ran(QueryEvent.Outcome outcome) {
            ended.merge(outcome, 1L, Long::sum);
            admitted++;
        }

        void turnedAway(QueryRejectedException.Reason reason) {
            ended.merge(QueryEvent.Outcome.REJECTED, 1L, Long::sum);
            rejected.merge(reason, 1L, Long::sum);
        }
    }

    /** The settings of {@link #start}: FactsAndDims', admitting one query at a time with no queue. */
    public static TroupeSettings settings() {
        return FactsAndDims.settings().withAdmission(
                new TroupeSettings.Admission(1, 0, Duration.ofMinutes(1), TroupeSettings.Admission.AUTO));
    }

    /** A Troupe of {@code settings} with facts and dims registered; the caller closes it. */
    public static Troupe start(TroupeSettings settings) {
        return FactsAndDims.start(settings);
    }

    /**
     * Runs, with {@code workers} workers, on a Troupe of {@link #settings()}: a join and a stream read to
     * its end (succeeded), a division by zero (failed), a query past its 50 ms timeout (timed out), a
     * stream closed early (cancelled) while a query finds the slot taken (rejected: queue full), a query
     * asking for more memory than the budget (rejected: never fits), and with workers a query cancelled
     * through its handle (cancelled).
     */
    public static Tally run(Troupe troupe, int workers) throws InterruptedException {
        Tally tally = new Tally(endedTotal(troupe));
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);

        Plan joined = Plan.scan("facts").join(Plan.scan("dims"), JoinType.INNER, col("facts.k").eq(col("dims.k")))
                .aggregate(List.of(col("dims.name")), Expr.count());
        assertTrue(troupe.execute(joined, options).rowCount() > 0, "the join found groups");
        counted(troupe, tally, QueryEvent.Outcome.SUCCEEDED);

        try (QueryStream stream = troupe.stream(Plan.scan("facts"), options)) {
            assertEquals(5000, stream.remaining().rowCount());
        }
        counted(troupe, tally, QueryEvent.Outcome.SUCCEEDED);

        Plan failing = Plan.scan("facts").project(col("id").div(col("k").minus(col("k"))).as("q"));
        QueryFailedException failed = assertThrows(QueryFailedException.class, () -> troupe.execute(failing, options));
        assertFalse(failed instanceof QueryCancelledException, failed.toString());
        counted(troupe, tally, QueryEvent.Outcome.FAILED);

        QueryCancelledException late = assertThrows(QueryCancelledException.class,
                () -> troupe.execute(LONG, options.withTimeout(Duration.ofMillis(50))));
        assertTrue(late.getMessage().contains("timed out after 50 ms"), late.getMessage());
        counted(troupe, tally, QueryEvent.Outcome.TIMED_OUT);

        try (QueryStream open = troupe.stream(ENDLESS, options)) {
            assertNotNull(nextOf(open));
            QueryRejectedException full = assertThrows(QueryRejectedException.class,
                    () -> troupe.execute(Plan.scan("dims"), options));
            assertEquals(QueryRejectedException.Reason.QUEUE_FULL, full.reason());
            tally.turnedAway(QueryRejectedException.Reason.QUEUE_FULL);
            assertEnded(troupe, tally);
        }
        counted(troupe, tally, QueryEvent.Outcome.CANCELLED);

        long tooMuch = troupe.memoryArena().budgetBytes() + 1;
        QueryRejectedException never = assertThrows(QueryRejectedException.class,
                () -> troupe.execute(Plan.scan("dims"), options.withMemory(tooMuch)));
        assertEquals(QueryRejectedException.Reason.NEVER_FITS, never.reason());
        tally.turnedAway(QueryRejectedException.Reason.NEVER_FITS);
        assertEnded(troupe, tally);

        if (workers > 0) {
            // With 0 workers submit runs the query to its end before it returns: there is nothing to cancel.
            RunningQuery running = troupe.submit(LONG, options);
            running.cancel("the test cancels it");
            QueryCancelledException cancelled = assertThrows(QueryCancelledException.class, running::await);
            assertTrue(cancelled.getMessage().contains("the test cancels it"), cancelled.getMessage());
            counted(troupe, tally, QueryEvent.Outcome.CANCELLED);
        }
        return tally;
    }

    /** Waits, bounded, until {@code troupe} runs, queues and holds nothing (its actors stop just after the end). */
    public static void awaitIdle(Troupe troupe) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        TroupeStatus status = troupe.status();
        while (status.runningQueries() + status.queuedQueries() + status.liveWorkers() + status.openChannels() > 0
                || status.memoryInUseBytes() + status.spillHeldBytes() > 0) {
            assertTrue(System.nanoTime() < deadline, () -> "still busy: " + troupe.status());
            Thread.sleep(5);
            status = troupe.status();
        }
    }

    private static Object nextOf(QueryStream stream) throws InterruptedException {
        try {
            return stream.next(WAIT);
        } catch (TimeoutException e) {
            throw new AssertionError("no batch within " + WAIT.toSeconds() + " s", e);
        }
    }

    private static void counted(Troupe troupe, Tally tally, QueryEvent.Outcome outcome) {
        tally.ran(outcome);
        assertEnded(troupe, tally);
    }

    private static void assertEnded(Troupe troupe, Tally tally) {
        assertEquals(tally.before + tally.total(), endedTotal(troupe),
                () -> "counted before the caller learnt the end: " + troupe.counters());
    }

    private static long endedTotal(Troupe troupe) {
        return troupe.counters().ended().values().stream().mapToLong(Long::longValue).sum();
    }
}
