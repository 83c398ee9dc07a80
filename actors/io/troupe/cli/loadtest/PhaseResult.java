package io.troupe.cli.loadtest;

import java.util.List;

/**
 * What one engine's measured phase gave. Immutable once made.
 *
 * @param engine     troupe or a peer
 * @param intervals  the rows of each interval, per query and {@link LoadRecorder#ALL}
 * @param totals     the phase's figures per query, {@link LoadRecorder#ALL}'s last
 * @param seconds    how long the load ran: the duration, or less when the run was stopped
 * @param stopReason why the run was stopped early (Ctrl-C, a client that failed), or null
 * @param failures   what went wrong with the load test itself (a client that died or did not end); empty when none
 */
record PhaseResult(String engine, List<IntervalRow> intervals, List<QueryTotals> totals, double seconds,
                   String stopReason, List<String> failures) {

    PhaseResult {
        intervals = List.copyOf(intervals);
        totals = List.copyOf(totals);
        failures = List.copyOf(failures);
    }

    /** The totals of every query together. */
    QueryTotals all() {
        return totals.get(totals.size() - 1);
    }
}
