package io.troupe.cli.loadtest;

import io.troupe.cli.BenchMismatchException;
import io.troupe.cli.BenchOutcome;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One engine under load for one duration (a warm-up, or the measured phase): {@code clients}
 * threads run the queries round-robin, in a closed loop (each client starts its next query when its
 * last ended) or on an open-loop schedule ({@link Arrivals}: a query starts at its due time when a
 * client is free, else as soon as one is, and its latency counts from the due time). No query
 * starts after the duration; those in flight then finish (each bounded by its timeout). The calling
 * thread closes an interval every {@link LoadProfile#interval()} and updates the live line.
 *
 * <h2>How the phase ends</h2>
 * <ul>
 *   <li>At the duration's end clients stop starting queries; open-loop queries due before the end
 *       that no client started are counted {@code unstarted}.</li>
 *   <li>A {@link StopSignal} (Ctrl-C, a client that died) stops the clients at once and cancels
 *       the queries in flight, which count as {@code unfinished}.</li>
 *   <li>Every wait is bounded: clients that have not ended {@link #GRACE_NANOS} after the duration
 *       plus the query timeout are stopped, and if they still do not end the phase reports them
 *       and leaves them behind (daemon threads) rather than hang.</li>
 * </ul>
 *
 * <h2>Concurrency</h2>
 * Clients share the query sequence (an {@link AtomicLong}), the schedule (synchronized), the
 * {@link LoadRecorder} (threadsafe writes) and the answer check (threadsafe). Each client's
 * in-flight canceller is written by the client and read by whoever stops the run. The calling
 * thread alone reads the recorder's intervals and totals, after joining the clients for the totals.
 */
final class LoadPhase {

    /** Checks a query's result against its first answer (threadsafe). */
    @FunctionalInterface
    interface AnswerChecker {
        /** @throws BenchMismatchException naming both answers when they differ */
        void check(LoadQuery query, BenchOutcome outcome);
    }

    /** How long clients may take to end after the duration and a query's timeout, or after a stop. */
    static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String label;
    private final LoadTarget target;
    private final List<LoadQuery> queries;
    private final LoadProfile profile;
    private final long durationNanos;
    private final LoadClock clock;
    private final StopSignal stop;
    private final AnswerChecker answers;
    private final LiveLine live;

    private final AtomicLong sequence = new AtomicLong();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicLong stoppedAtNanos = new AtomicLong(Long.MAX_VALUE);
    private Arrivals arrivals;
    private LoadRecorder recorder;
    private long startNanos;
    private long endNanos;

    /**
     * @param label    how the live line names the phase ("troupe", "duckdb warm-up")
     * @param duration how long queries are started, in nanoseconds
     */
    LoadPhase(String label, LoadTarget target, List<LoadQuery> queries, LoadProfile profile, long duration,
              LoadClock clock, StopSignal stop, AnswerChecker answers, LiveLine live) {
        this.label = label;
        this.target = target;
        this.queries = List.copyOf(queries);
        this.profile = profile;
        this.durationNanos = duration;
        this.clock = clock;
        this.stop = stop;
        this.answers = answers;
        this.live = live;
    }

    /** Runs the phase to its end (see the class comment) and returns its figures. */
    PhaseResult run() throws InterruptedException {
        arrivals = profile.arrivals();
        startNanos = clock.nanoTime();
        endNanos = startNanos + durationNanos;
        recorder = new LoadRecorder(target.id(), queries.stream().map(LoadQuery::name).toList(), startNanos);
        List<Client> clients = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < profile.clients(); i++) {
            Client client = new Client(i);
            Thread thread = new Thread(client, "loadtest-" + target.id() + "-client-" + i);
            thread.setDaemon(true);
            clients.add(client);
            threads.add(thread);
        }
        Runnable onStop = () -> {
            stoppedAtNanos.compareAndSet(Long.MAX_VALUE, clock.nanoTime());
            clients.forEach(Client::cancel);
        };
        stop.add(onStop);
        List<IntervalRow> rows = new ArrayList<>();
        try {
            threads.forEach(Thread::start);
            report(threads, rows);
        } finally {
            stop.remove(onStop);
            live.finish();
        }
        long effectiveEnd = Math.min(endNanos, stoppedAtNanos.get());
        if (arrivals != null) {
            // Due before the end, taken by no client: late, and counted as such rather than dropped.
            Arrivals.Arrival a = arrivals.next();
            while (startNanos + a.offsetNanos() < effectiveEnd) {
                recorder.unstarted((int) (a.index() % queries.size()));
                a = arrivals.next();
            }
        }
        double seconds = Math.max(0, effectiveEnd - startNanos) / 1e9;
        return new PhaseResult(target.id(), rows, recorder.totals(seconds), seconds, stop.reason(), failures);
    }

    /** Closes an interval every interval until the clients end, bounded as the class comment says. */
    private void report(List<Thread> threads, List<IntervalRow> rows) throws InterruptedException {
        long intervalNanos = profile.interval().toNanos();
        long giveUpAt = System.nanoTime() + durationNanos + profile.timeout().toNanos() + GRACE_NANOS;
        long issued = 0;
        long completed = 0;
        long errors = 0;
        boolean stoppedLate = false;
        IntervalRow lastFull = null;
        long next = System.nanoTime() + intervalNanos;
        while (true) {
            boolean ended = join(threads, next);
            List<IntervalRow> interval = recorder.interval(clock.nanoTime());
            rows.addAll(interval);
            IntervalRow all = interval.get(interval.size() - 1);
            issued += all.issued();
            completed += all.completed();
            errors += all.errors();
            // The short interval of the queries that ended after the duration says little: show the last full one.
            if (lastFull == null || all.toSeconds() - all.fromSeconds() >= intervalNanos / 2e9) {
                lastFull = all;
            }
            live.update(label, all.toSeconds(), durationNanos / 1e9, issued, completed, errors, lastFull);
            if (ended) {
                return;
            }
            long now = System.nanoTime();
            if (now >= giveUpAt && !stoppedLate) {
                stoppedLate = true;
                stop.request(label + ": clients still running " + (GRACE_NANOS / 1_000_000_000)
                        + " s after the duration and the query timeout");
                giveUpAt = now + GRACE_NANOS;
            } else if (now >= giveUpAt) {
                for (Thread t : threads) {
                    if (t.isAlive()) {
                        failures.add(t.getName() + " did not end after its query was cancelled; left behind");
                    }
                }
                return;
            }
            next = Math.max(next + intervalNanos, now);
        }
    }

    /** Waits for every thread until {@code deadline} ({@link System#nanoTime()}); true when all ended. */
    private static boolean join(List<Thread> threads, long deadline) throws InterruptedException {
        for (Thread t : threads) {
            long remaining = deadline - System.nanoTime();
            if (remaining > 0) {
                TimeUnit.NANOSECONDS.timedJoin(t, remaining);
            }
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /** One client thread's loop. */
    private final class Client implements Runnable {
        private final int index;
        /** Written by this client around each query; run by whoever stops the run. */
        private final AtomicReference<Runnable> inFlight = new AtomicReference<>();

        Client(int index) {
            this.index = index;
        }

        @Override
        public void run() {
            try {
                if (arrivals == null) {
                    closedLoop();
                } else {
                    openLoop();
                }
            } catch (RuntimeException | Error e) {
                failures.add("client " + index + " of " + target.id() + " failed: " + e);
                stop.request("client " + index + " of " + target.id() + " failed: " + e);
            }
        }

        private void closedLoop() {
            while (!stop.requested()) {
                long start = clock.nanoTime();
                if (start >= endNanos) {
                    return;
                }
                int q = (int) (sequence.getAndIncrement() % queries.size());
                execute(q, start, start);
            }
        }

        private void openLoop() {
            while (!stop.requested()) {
                Arrivals.Arrival arrival = arrivals.next();
                long due = startNanos + arrival.offsetNanos();
                if (due >= endNanos) {
                    return;
                }
                int q = (int) (arrival.index() % queries.size());
                if (!clock.sleepUntil(due, stop::requested)) {
                    if (due < stoppedAtNanos.get()) {
                        recorder.unstarted(q);
                    }
                    return;
                }
                long start = clock.nanoTime();
                if (start >= endNanos) {
                    // Due before the end, but no client was free before it: late, not run.
                    recorder.unstarted(q);
                    continue;
                }
                execute(q, due, start);
            }
        }

        private void execute(int q, long due, long start) {
            LoadQuery query = queries.get(q);
            recorder.issued(q);
            BenchOutcome outcome;
            try {
                outcome = target.run(query, index, inFlight);
            } catch (Exception e) {
                if (stop.requested()) {
                    recorder.unfinished(q);
                } else {
                    recorder.failed(q, ErrorKinds.of(e), e.getMessage());
                }
                return;
            }
            long end = clock.nanoTime();
            try {
                answers.check(query, outcome);
            } catch (BenchMismatchException e) {
                recorder.failed(q, ErrorKinds.WRONG_ANSWER, e.getMessage());
                return;
            }
            recorder.completed(q, due, start, end);
        }

        void cancel() {
            Runnable canceller = inFlight.get();
            if (canceller != null) {
                canceller.run();
            }
        }
    }
}
