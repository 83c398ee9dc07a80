package io.troupe.cli;

import java.math.BigDecimal;

/**
 * One timed run, one line of results.csv. Immutable.
 *
 * @param nodes   node JVMs that ran it: 1 but for a cluster ({@code bench --nodes})
 * @param workers workers (a peer: threads); a cluster's: on each node
 * @param run     1-based number of the timed run (warm-ups are not recorded)
 */
record BenchRun(BenchWorkload workload, String engine, int nodes, int workers, int run,
                double seconds, long rows, BigDecimal checksum) {
}
