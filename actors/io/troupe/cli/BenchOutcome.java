package io.troupe.cli;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * What one timed run of a workload gave: its wall time, its number of result rows and its
 * checksum, the sum of every numeric value in the result (W1's is N). Engines and worker counts
 * must agree on rows and checksum. Immutable.
 *
 * @param seconds  wall time of the whole query as the client sees it
 * @param rows     result rows
 * @param checksum sum of the result's numeric columns over all rows (0 for an empty result)
 */
record BenchOutcome(double seconds, long rows, BigDecimal checksum) {

    /** {@code value} as a number to add to a checksum, or null when it is not numeric (or NULL). */
    static BigDecimal numeric(Object value) {
        if (value instanceof BigDecimal) {
            return (BigDecimal) value;
        }
        if (value instanceof BigInteger) {
            return new BigDecimal((BigInteger) value);
        }
        if (value instanceof Double || value instanceof Float) {
            return BigDecimal.valueOf(((Number) value).doubleValue());
        }
        if (value instanceof Number) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        return null;
    }

    /** The same result with another checksum (the test seam that injects a disagreement uses it). */
    BenchOutcome withChecksum(BigDecimal newChecksum) {
        return new BenchOutcome(seconds, rows, newChecksum);
    }
}
