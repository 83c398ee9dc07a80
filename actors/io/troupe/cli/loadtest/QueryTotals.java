package io.troupe.cli.loadtest;

import org.HdrHistogram.Histogram;

import java.util.Map;
import java.util.TreeMap;

/**
 * One query's (or {@link LoadRecorder#ALL} queries') figures over a whole phase. Every query that
 * was issued ended one way: {@code issued == completed + errors + unfinished}; {@code unstarted}
 * counts open-loop queries that were due before the end but that no client had started by then.
 * The histograms are in nanoseconds and belong to this record once made (nobody writes them).
 *
 * @param engine     troupe or a peer
 * @param query      the query's name, or {@link LoadRecorder#ALL}
 * @param seconds    the phase's measured duration (throughput = completed / seconds)
 * @param issued     queries started
 * @param unstarted  open loop: due within the duration, not started when it ended (their latency is
 *                   at least the schedule lag at the end, and is in no histogram)
 * @param unfinished queries cancelled because the run was stopped (Ctrl-C)
 * @param errors     failed queries by kind (see {@link ErrorKinds})
 * @param latency    end - intended start of each completed query
 * @param queue      start - intended start
 * @param run        end - start
 */
record QueryTotals(String engine, String query, double seconds, long issued, long unstarted, long unfinished,
                   Map<String, ErrorCount> errors, Histogram latency, Histogram queue, Histogram run) {

    /** How many queries of one kind of error, and the first one's message. Immutable. */
    record ErrorCount(long count, String firstMessage) {
    }

    /** This query's figures and {@code other}'s (the same query's in another round) added up, in new histograms. */
    QueryTotals plus(QueryTotals other) {
        return new QueryTotals(engine, query, seconds + other.seconds, issued + other.issued,
                unstarted + other.unstarted, unfinished + other.unfinished, mergeErrors(errors, other.errors),
                added(latency, other.latency), added(queue, other.queue), added(run, other.run));
    }

    /** Counts of errors by kind added up; each kind keeps {@code a}'s first message where it has one. */
    static Map<String, ErrorCount> mergeErrors(Map<String, ErrorCount> a, Map<String, ErrorCount> b) {
        Map<String, ErrorCount> sum = new TreeMap<>(a);
        b.forEach((kind, count) -> sum.merge(kind, count,
                (x, y) -> new ErrorCount(x.count() + y.count(), x.firstMessage())));
        return sum;
    }

    private static Histogram added(Histogram a, Histogram b) {
        Histogram sum = a.copy();
        sum.add(b);
        return sum;
    }

    long completed() {
        return latency.getTotalCount();
    }

    long errorCount() {
        return errors.values().stream().mapToLong(ErrorCount::count).sum();
    }

    /** Completed queries a second over the phase. */
    double throughput() {
        return seconds > 0 ? completed() / seconds : 0;
    }
}
