package io.troupe.cli;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.types.DataType;

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
public record BenchOutcome(double seconds, long rows, BigDecimal checksum) {

    /**
     * The sum of every numeric value in {@code result}, column by column: INT32 columns are summed
     * straight from their arrays (a result of millions of narrow rows, as the ablation's Gather
     * returns, is not boxed row by row), any other column value by value as {@link #numeric} reads it.
     */
    public static BigDecimal checksum(QueryResult result) {
        BigDecimal checksum = BigDecimal.ZERO;
        for (Batch batch : result.batches()) {
            for (int c = 0; c < batch.columnCount(); c++) {
                ColumnVector column = batch.column(c);
                if (column instanceof IntVector ints && ints.type().equals(DataType.INT32)) {
                    // A batch holds at most 2^20 rows (troupe.batch-size's limit) of at most 2^31: no overflow.
                    long sum = 0;
                    for (int i = 0; i < batch.size(); i++) {
                        int row = batch.row(i);
                        if (!ints.isNull(row)) {
                            sum += ints.get(row);
                        }
                    }
                    checksum = checksum.add(BigDecimal.valueOf(sum));
                } else {
                    for (int i = 0; i < batch.size(); i++) {
                        BigDecimal n = numeric(column.getObject(batch.row(i)));
                        if (n != null) {
                            checksum = checksum.add(n);
                        }
                    }
                }
            }
        }
        return checksum;
    }

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
