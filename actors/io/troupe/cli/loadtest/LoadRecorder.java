package io.troupe.cli.loadtest;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts and times one engine's queries over one phase of a load test, per query, and cuts the
 * times into intervals. Three times per completed query, in nanoseconds:
 * <ul>
 *   <li><b>latency</b> = end - intended start: what the caller of a service waits. In an open loop
 *       the intended start is the schedule's ({@link Arrivals}), so a query that waited for a free
 *       client counts its wait (no coordinated omission); in a closed loop it is the start.</li>
 *   <li><b>queue</b> = start - intended start: the schedule lag, 0 in a closed loop.</li>
 *   <li><b>run</b> = end - start: the query itself.</li>
 * </ul>
 * HdrHistogram keeps them to 3 significant digits (0.1%) over any range.
 *
 * <h2>Concurrency</h2>
 * Clients record from their own threads at once: into HdrHistogram {@link Recorder}s (wait-free
 * for writers) and {@link LongAdder}s. One reporting thread calls {@link #interval} and
 * {@link #totals}: it swaps each recorder's interval histogram out and adds it to the totals, which
 * it alone holds. A query recorded during a swap lands in this interval or the next, never in none.
 */
final class LoadRecorder {

    /** The query name of the rows that sum every query. */
    static final String ALL = "all";
    private static final int SIGNIFICANT_DIGITS = 3;

    private final String engine;
    private final List<String> queries;
    private final PerQuery[] perQuery;
    private final long startNanos;
    /** Reporting thread only: where the current interval began. */
    private long intervalStartNanos;

    /** A recorder for {@code queries} (by index) of {@code engine}, its phase starting at {@code startNanos}. */
    LoadRecorder(String engine, List<String> queries, long startNanos) {
        this.engine = engine;
        this.queries = List.copyOf(queries);
        this.perQuery = new PerQuery[queries.size()];
        for (int q = 0; q < perQuery.length; q++) {
            perQuery[q] = new PerQuery();
        }
        this.startNanos = startNanos;
        this.intervalStartNanos = startNanos;
    }

    /** Query {@code q} was started. */
    void issued(int q) {
        perQuery[q].issued.increment();
    }

    /** Query {@code q}, due at {@code intendedNanos}, started at {@code startedNanos}, ended at {@code endedNanos}. */
    void completed(int q, long intendedNanos, long startedNanos, long endedNanos) {
        PerQuery p = perQuery[q];
        p.latency.recordValue(Math.max(0, endedNanos - intendedNanos));
        p.queue.recordValue(Math.max(0, startedNanos - intendedNanos));
        p.run.recordValue(Math.max(0, endedNanos - startedNanos));
    }

    /** Query {@code q} failed with an error of {@code kind}; the first message of each kind is kept. */
    void failed(int q, String kind, String message) {
        PerQuery p = perQuery[q];
        p.errors.computeIfAbsent(kind, k -> new Tally(message)).count.increment();
        p.errorCount.increment();
    }

    /** Open loop: query {@code q} was due before the end but had not started when the phase ended. */
    void unstarted(int q) {
        perQuery[q].unstarted.increment();
    }

    /** Query {@code q} was issued and then cancelled because the run was stopped. */
    void unfinished(int q) {
        perQuery[q].unfinished.increment();
    }

    /**
     * Reporting thread: closes the interval that ends at {@code nowNanos} and returns its rows, one
     * per query and one for {@link #ALL}.
     */
    List<IntervalRow> interval(long nowNanos) {
        double from = seconds(intervalStartNanos);
        double to = seconds(nowNanos);
        intervalStartNanos = nowNanos;
        List<IntervalRow> rows = new ArrayList<>();
        Histogram allLatency = new Histogram(SIGNIFICANT_DIGITS);
        Histogram allQueue = new Histogram(SIGNIFICANT_DIGITS);
        Histogram allRun = new Histogram(SIGNIFICANT_DIGITS);
        long allIssued = 0;
        long allErrors = 0;
        for (int q = 0; q < perQuery.length; q++) {
            PerQuery p = perQuery[q];
            p.swap();
            long issued = p.issued.sum();
            long errors = p.errorCount.sum();
            rows.add(new IntervalRow(engine, queries.get(q), from, to, issued - p.reportedIssued,
                    errors - p.reportedErrors, Percentiles.of(p.intervalLatency), Percentiles.of(p.intervalQueue),
                    Percentiles.of(p.intervalRun)));
            allIssued += issued - p.reportedIssued;
            allErrors += errors - p.reportedErrors;
            p.reportedIssued = issued;
            p.reportedErrors = errors;
            allLatency.add(p.intervalLatency);
            allQueue.add(p.intervalQueue);
            allRun.add(p.intervalRun);
        }
        rows.add(new IntervalRow(engine, ALL, from, to, allIssued, allErrors, Percentiles.of(allLatency),
                Percentiles.of(allQueue), Percentiles.of(allRun)));
        return rows;
    }

    /**
     * Reporting thread, after the last {@link #interval} (clients joined): the phase's figures per
     * query, then {@link #ALL}'s, over {@code seconds}.
     */
    List<QueryTotals> totals(double seconds) {
        List<QueryTotals> totals = new ArrayList<>();
        Histogram allLatency = new Histogram(SIGNIFICANT_DIGITS);
        Histogram allQueue = new Histogram(SIGNIFICANT_DIGITS);
        Histogram allRun = new Histogram(SIGNIFICANT_DIGITS);
        Map<String, QueryTotals.ErrorCount> allErrors = Map.of();
        long issued = 0;
        long unstarted = 0;
        long unfinished = 0;
        for (int q = 0; q < perQuery.length; q++) {
            PerQuery p = perQuery[q];
            Map<String, QueryTotals.ErrorCount> errors = new TreeMap<>();
            p.errors.forEach((kind, tally) ->
                    errors.put(kind, new QueryTotals.ErrorCount(tally.count.sum(), tally.first)));
            totals.add(new QueryTotals(engine, queries.get(q), seconds, p.issued.sum(), p.unstarted.sum(),
                    p.unfinished.sum(), errors, p.totalLatency.copy(), p.totalQueue.copy(), p.totalRun.copy()));
            allErrors = QueryTotals.mergeErrors(allErrors, errors);
            issued += p.issued.sum();
            unstarted += p.unstarted.sum();
            unfinished += p.unfinished.sum();
            allLatency.add(p.totalLatency);
            allQueue.add(p.totalQueue);
            allRun.add(p.totalRun);
        }
        totals.add(new QueryTotals(engine, ALL, seconds, issued, unstarted, unfinished, allErrors, allLatency, allQueue,
                allRun));
        return totals;
    }

    private double seconds(long nanos) {
        return (nanos - startNanos) / 1e9;
    }

    /** One kind of error: its count and the first message. */
    private static final class Tally {
        final String first;
        final LongAdder count = new LongAdder();

        Tally(String first) {
            this.first = first;
        }
    }

    /** One query's recorders (any thread) and totals (reporting thread only). */
    private static final class PerQuery {
        final Recorder latency = new Recorder(SIGNIFICANT_DIGITS);
        final Recorder queue = new Recorder(SIGNIFICANT_DIGITS);
        final Recorder run = new Recorder(SIGNIFICANT_DIGITS);
        final LongAdder issued = new LongAdder();
        final LongAdder errorCount = new LongAdder();
        final LongAdder unstarted = new LongAdder();
        final LongAdder unfinished = new LongAdder();
        final ConcurrentMap<String, Tally> errors = new ConcurrentHashMap<>();

        final Histogram totalLatency = new Histogram(SIGNIFICANT_DIGITS);
        final Histogram totalQueue = new Histogram(SIGNIFICANT_DIGITS);
        final Histogram totalRun = new Histogram(SIGNIFICANT_DIGITS);
        Histogram intervalLatency;
        Histogram intervalQueue;
        Histogram intervalRun;
        long reportedIssued;
        long reportedErrors;

        /** Takes the last interval's histograms out of the recorders (recycling the previous ones) into the totals. */
        void swap() {
            intervalLatency = latency.getIntervalHistogram(intervalLatency);
            intervalQueue = queue.getIntervalHistogram(intervalQueue);
            intervalRun = run.getIntervalHistogram(intervalRun);
            totalLatency.add(intervalLatency);
            totalQueue.add(intervalQueue);
            totalRun.add(intervalRun);
        }
    }
}
