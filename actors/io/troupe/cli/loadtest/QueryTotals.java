package io.troupe.cli.loadtest;

import org.HdrHistogram.Histogram;

import java.util.Map;

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
