package io.troupe.cli;

import java.math.BigDecimal;

/**
 * One timed run, one line of results.csv. Immutable.
 *
 * @param run 1-based number of the timed run (warm-ups are not recorded)
 */
record BenchRun(BenchWorkload workload, String engine, int workers, int run,
                double seconds, long rows, BigDecimal checksum) {
}
