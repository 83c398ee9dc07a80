package io.troupe.cli.loadtest;

import io.troupe.cli.AnswerCheck;
import io.troupe.cli.BenchOutcome;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Plan;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load loop with a fake clock and a stub engine whose queries take the time the test says: what
 * latency, queue and run time each query gets, how every issued query is counted, how a stop and a
 * wrong answer are recorded. No timing is asserted: the clock only moves when a query says so.
 */
class LoadPhaseTest {

    private static final long MS = 1_000_000;
    private static final List<LoadQuery> QUERIES = List.of(new LoadQuery("q", Plan.scan("t"), "select 1", "test"));
    private static final BenchOutcome ONE_ROW = new BenchOutcome(0, 1, BigDecimal.ONE);

    /** What the stub engine does on its {@code call}-th query (from 0). */
    @FunctionalInterface
    private interface Body {
        BenchOutcome run(int call, AtomicReference<Runnable> inFlight) throws Exception;
    }

    /** An engine that does what the test says, counting its calls. */
    private static final class Stub implements LoadTarget {
        final Body body;
        final AtomicInteger calls = new AtomicInteger();

        Stub(Body body) {
            this.body = body;
        }

        @Override
        public String id() {
            return "stub";
        }

        @Override
        public BenchOutcome run(LoadQuery query, int client, AtomicReference<Runnable> inFlight) throws Exception {
            return body.run(calls.getAndIncrement(), inFlight);
        }
    }

    /** An engine whose i-th query takes {@code millis.apply(i)} ms of the fake clock. */
    private static Stub taking(FakeClock clock, IntFunction<Long> millis) {
        return new Stub((i, inFlight) -> {
            clock.advanceMillis(millis.apply(i));
            return ONE_ROW;
        });
    }

    private static PhaseResult run(LoadTarget target, FakeClock clock, double rate, long durationMs, StopSignal stop)
            throws InterruptedException {
        LoadProfile profile = new LoadProfile(1, rate, false, 0, Duration.ofSeconds(60), Duration.ofSeconds(1));
        AnswerCheck answers = new AnswerCheck();
        LoadPhase.AnswerChecker checker = (q, o) -> {
            synchronized (answers) {
                answers.check(q.name(), target.id(), 1, o);
            }
        };
        return new LoadPhase("test", target, QUERIES, profile, durationMs * MS, clock, stop, checker,
                new LiveLine(new PrintWriter(new StringWriter()), false)).run();
    }

    private static long countAtLeastMs(Histogram h, long millis) {
        return h.getCountBetweenValues(millis * MS, h.getMaxValue());
    }

    @Test
    void shouldMeasureOpenLoopLatencyFromTheIntendedStartSoAStallDelaysTheQueriesBehindIt() throws Exception {
        FakeClock clock = new FakeClock();
        // Due every 100 ms for 1 s; the first query stalls for 500 ms, the others take 10 ms.
        Stub target = taking(clock, i -> i == 0 ? 500L : 10L);
        QueryTotals t = run(target, clock, 10, 1000, new StopSignal()).all();

        assertEquals(List.of(10L, 10L, 0L, 0L), List.of(t.issued(), t.completed(), t.errorCount(), t.unstarted()));
        // Due at 100..400 ms, started at 500, 510, 520, 530: their latencies 410, 320, 230, 140 ms include the
        // wait behind the stall; then the client is on schedule again. Coordinated omission would keep only the
        // run times, where one query in ten is slow.
        assertEquals(5, countAtLeastMs(t.latency(), 100), "latencies of 100 ms or more");
        assertEquals(1, countAtLeastMs(t.run(), 100), "run times of 100 ms or more");
        assertEquals(500 * MS, t.latency().highestEquivalentValue(t.latency().getMaxValue()), 500 * MS / 1000.0);
        assertEquals(400.0, t.queue().getMaxValue() / (double) MS, 0.5,
                "the longest queue: due at 100, started at 500");
        assertEquals((500 + 410 + 320 + 230 + 140 + 50 + 4 * 10) / 10.0, t.latency().getMean() / MS, 0.5);
        assertEquals((500 + 9 * 10) / 10.0, t.run().getMean() / MS, 0.5);
    }

    @Test
    void shouldMeasureClosedLoopLatencyAsRunTimeWithNoQueue() throws Exception {
        FakeClock clock = new FakeClock();
        Stub target = taking(clock, i -> i == 0 ? 500L : 10L);
        QueryTotals t = run(target, clock, 0, 1000, new StopSignal()).all();

        // Started at 0, 500, 510, ..., 990 ms: 1 + 50 queries, each as soon as the last ended.
        assertEquals(List.of(51L, 51L, 0L), List.of(t.issued(), t.completed(), t.errorCount()));
        assertEquals(t.run().getMean(), t.latency().getMean(), 1e-9);
        assertEquals(0, t.queue().getMaxValue());
    }

    @Test
    void shouldCountQueriesDueBeforeTheEndThatNoClientStartedAsLate() throws Exception {
        FakeClock clock = new FakeClock();
        // 100 due in 1 s (every 10 ms), each takes 50 ms on the one client: it starts the k-th at 50k ms.
        Stub target = taking(clock, i -> 50L);
        PhaseResult result = run(target, clock, 100, 1000, new StopSignal());
        QueryTotals t = result.all();

        assertEquals(List.of(20L, 20L, 80L), List.of(t.issued(), t.completed(), t.unstarted()));
        assertEquals(100, t.issued() + t.unstarted(), "every query due in the duration is counted once");
        // The 20th was due at 190 ms and started at 950: latency 1000 - 190 = 810 ms.
        assertEquals(810.0, t.latency().getMaxValue() / (double) MS, 1);
        assertEquals(1.0, result.seconds(), 1e-9);
    }

    @Test
    void shouldCountErrorsByKindAndKeepIssuedEqualToCompletedPlusErrors() throws Exception {
        FakeClock clock = new FakeClock();
        Stub failing = new Stub((i, inFlight) -> {
            clock.advanceMillis(10);
            if (i % 5 == 1) {
                throw new QueryCancelledException("query " + i + " timed out after 10 ms");
            }
            if (i % 5 == 2) {
                throw new QueryFailedException("division by zero in (a / b)");
            }
            // Every fourth answer is wrong: it must be counted, not timed.
            return i % 5 == 3 ? new BenchOutcome(0, 1, BigDecimal.TEN) : ONE_ROW;
        });
        QueryTotals t = run(failing, clock, 0, 1000, new StopSignal()).all();

        assertEquals(100, t.issued());
        assertEquals(List.of("failed", "timeout", ErrorKinds.WRONG_ANSWER), new ArrayList<>(t.errors().keySet()));
        assertEquals(List.of(20L, 20L, 20L), t.errors().values().stream().map(QueryTotals.ErrorCount::count).toList());
        assertEquals("query 1 timed out after 10 ms", t.errors().get("timeout").firstMessage());
        assertTrue(t.errors().get(ErrorKinds.WRONG_ANSWER).firstMessage().contains("results disagree"),
                t.errors().get(ErrorKinds.WRONG_ANSWER).firstMessage());
        assertEquals(40, t.completed());
        assertEquals(t.issued(), t.completed() + t.errorCount());
    }

    @Test
    void shouldEndAtAStopAndCountTheCancelledQueryAsUnfinished() throws Exception {
        FakeClock clock = new FakeClock();
        StopSignal stop = new StopSignal();
        Stub stopping = new Stub((i, inFlight) -> {
            AtomicInteger cancels = new AtomicInteger();
            inFlight.set(cancels::incrementAndGet);
            clock.advanceMillis(10);
            if (i == 2) {
                // Ctrl-C while the third query runs: the stop cancels it, and it ends cancelled.
                stop.request("interrupted (test)");
                assertEquals(1, cancels.get(), "the stop cancelled the query in flight");
                throw new QueryCancelledException("the load test was stopped");
            }
            return ONE_ROW;
        });
        PhaseResult result = run(stopping, clock, 0, 60_000, stop);
        QueryTotals t = result.all();

        assertEquals(List.of(3L, 2L, 0L, 1L), List.of(t.issued(), t.completed(), t.errorCount(), t.unfinished()));
        assertEquals("interrupted (test)", result.stopReason());
        assertEquals(0.03, result.seconds(), 1e-9, "the measured time ends at the stop");
    }

    @Test
    void shouldKeepEveryCountConsistentWithManyClientsOnTheRealClock() throws Exception {
        Stub target = new Stub((i, inFlight) -> {
            Thread.sleep(1);
            if (i % 7 == 6) {
                throw new QueryFailedException("every seventh fails");
            }
            return ONE_ROW;
        });
        LoadProfile profile = new LoadProfile(4, 0, false, 0, Duration.ofSeconds(60), Duration.ofMillis(100));
        PhaseResult result = new LoadPhase("test", target, List.of(QUERIES.get(0),
                new LoadQuery("r", Plan.scan("t"), null, "test")), profile, 300 * MS, LoadClock.SYSTEM,
                new StopSignal(), (q, o) -> { }, new LiveLine(new PrintWriter(new StringWriter()), false)).run();

        assertNull(result.stopReason());
        assertEquals(List.of(), result.failures());
        QueryTotals all = result.all();
        assertEquals(target.calls.get(), all.issued());
        assertEquals(all.issued(), all.completed() + all.errorCount());
        assertEquals(all.issued(), result.totals().get(0).issued() + result.totals().get(1).issued());
        // The intervals add up to the totals.
        long completedInIntervals = result.intervals().stream().filter(r -> r.query().equals(LoadRecorder.ALL))
                .mapToLong(IntervalRow::completed).sum();
        long errorsInIntervals = result.intervals().stream().filter(r -> r.query().equals(LoadRecorder.ALL))
                .mapToLong(IntervalRow::errors).sum();
        assertEquals(List.of(all.completed(), all.errorCount()), List.of(completedInIntervals, errorsInIntervals));
    }

    @Test
    void shouldScheduleFixedArrivalsEvenlyAndPoissonArrivalsAtTheRateOnAverage() {
        Arrivals fixed = Arrivals.fixed(20);
        for (int k = 0; k < 100; k++) {
            assertEquals(new Arrivals.Arrival(k, k * 50 * MS), fixed.next());
        }
        Arrivals poisson = Arrivals.poisson(50, 42);
        Arrivals again = Arrivals.poisson(50, 42);
        long last = -1;
        int n = 20_000;
        Arrivals.Arrival a = null;
        for (int k = 0; k < n; k++) {
            a = poisson.next();
            assertEquals(a, again.next(), "the same seed gives the same schedule");
            assertTrue(a.offsetNanos() >= last, "offsets never decrease");
            last = a.offsetNanos();
        }
        // 20,000 exponential gaps of mean 20 ms: their mean is within 3% of it (about 4 standard errors).
        assertEquals(20.0, a.offsetNanos() / (double) MS / (n - 1), 0.6);
    }
}
