package io.troupe.cli.loadtest;

import java.util.ArrayList;
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

    /**
     * One engine's rounds as one result: the intervals end to end (each round's shifted by the time
     * the rounds before it took, drain included), the totals added up, the first stop reason.
     */
    static PhaseResult merge(List<PhaseResult> rounds) {
        PhaseResult first = rounds.get(0);
        List<IntervalRow> intervals = new ArrayList<>();
        List<QueryTotals> totals = new ArrayList<>(first.totals());
        List<String> failures = new ArrayList<>();
        double offset = 0;
        double seconds = 0;
        String stopReason = null;
        for (PhaseResult round : rounds) {
            double end = 0;
            for (IntervalRow r : round.intervals()) {
                intervals.add(r.shifted(offset));
                end = Math.max(end, r.toSeconds());
            }
            offset += end;
            if (round != first) {
                for (int q = 0; q < totals.size(); q++) {
                    totals.set(q, totals.get(q).plus(round.totals().get(q)));
                }
            }
            seconds += round.seconds();
            stopReason = stopReason != null ? stopReason : round.stopReason();
            failures.addAll(round.failures());
        }
        return new PhaseResult(first.engine(), intervals, totals, seconds, stopReason, failures);
    }
}
