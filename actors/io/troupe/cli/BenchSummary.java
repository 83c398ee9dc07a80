package io.troupe.cli;

/**
 * The timed runs of one workload on one engine with one worker count, reduced to median, minimum
 * and maximum seconds, with the speedup over the same engine's 1-worker median (NaN when the bench
 * had no 1-worker run; a cluster's is over the embedded Troupe's). Immutable.
 */
record BenchSummary(BenchWorkload workload, String engine, int nodes, int workers, int runs,
                    double median, double min, double max, double speedup, long rows, String checksum) {

    /** Threads that ran it, all nodes together: what an engine's row compares with in another's. */
    int threads() {
        return nodes * workers;
    }
}
