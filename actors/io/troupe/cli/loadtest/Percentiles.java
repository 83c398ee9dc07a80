package io.troupe.cli.loadtest;

import org.HdrHistogram.Histogram;

/**
 * What the load test reports of one histogram of times, in milliseconds. Immutable.
 *
 * @param count how many times it holds
 * @param p50   the median, ms (0 when the histogram is empty, as are the others)
 * @param p90   ms
 * @param p99   ms
 * @param p999  the 99.9th percentile, ms
 * @param max   ms
 * @param mean  ms
 */
record Percentiles(long count, double p50, double p90, double p99, double p999, double max, double mean) {

    private static final double NANOS_PER_MS = 1e6;

    /** The percentiles of {@code nanos}, a histogram of nanoseconds. */
    static Percentiles of(Histogram nanos) {
        if (nanos.getTotalCount() == 0) {
            return new Percentiles(0, 0, 0, 0, 0, 0, 0);
        }
        return new Percentiles(nanos.getTotalCount(), ms(nanos.getValueAtPercentile(50)),
                ms(nanos.getValueAtPercentile(90)), ms(nanos.getValueAtPercentile(99)),
                ms(nanos.getValueAtPercentile(99.9)), ms(nanos.getMaxValue()), nanos.getMean() / NANOS_PER_MS);
    }

    private static double ms(long nanos) {
        return nanos / NANOS_PER_MS;
    }
}
