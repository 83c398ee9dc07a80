package io.troupe.cli.loadtest;

/**
 * One query's (or {@link LoadRecorder#ALL} queries') figures over one interval of a phase: a line of
 * latency.csv, a point of the chart, the live line. Immutable.
 *
 * @param engine      troupe or a peer
 * @param query       the query's name, or {@link LoadRecorder#ALL}
 * @param fromSeconds the interval's start, seconds after the phase's start
 * @param toSeconds   its end
 * @param issued      queries that started in it (or, open loop, were due and taken by a client)
 * @param errors      queries that failed in it
 * @param latency     end - intended start of the queries that completed in it
 * @param queue       start - intended start (the schedule lag) of the same queries
 * @param run         end - start of the same queries
 */
record IntervalRow(String engine, String query, double fromSeconds, double toSeconds, long issued, long errors,
                   Percentiles latency, Percentiles queue, Percentiles run) {

    /** The same row {@code seconds} later (a later round's, on one time axis with the earlier ones). */
    IntervalRow shifted(double seconds) {
        return new IntervalRow(engine, query, fromSeconds + seconds, toSeconds + seconds, issued, errors, latency, queue,
                run);
    }

    /** Queries that completed in it. */
    long completed() {
        return latency.count();
    }

    /** Completed queries a second over the interval. */
    double throughput() {
        double seconds = toSeconds - fromSeconds;
        return seconds > 0 ? completed() / seconds : 0;
    }
}
