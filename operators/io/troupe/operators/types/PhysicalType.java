package io.troupe.operators.types;

/**
 * How a column's values are laid out in memory, whatever they mean: the one thing that vectors, codecs,
 * spill files, hash tables and sort keys need to know of a type. Each {@link TypeId} has one
 * ({@link DataType#physical()}); code that only moves, hashes or orders values switches on this, so a new
 * logical type over an existing layout needs nothing there.
 *
 * <pre>
 *   INT      int[]                    INT32, DATE
 *   LONG     long[]                   INT64, DECIMAL(p &lt;= 18), TIMESTAMP, TIMESTAMP_TZ, TIME
 *   DOUBLE   double[]                 FLOAT64
 *   BOOLEAN  byte[] of 0 and 1        BOOLEAN
 *   BYTES    byte[] + int[] offsets   VARCHAR, BLOB
 *   INT128   long[] high + long[] low INTERVAL (months and days high, microseconds low), DECIMAL(p &gt; 18), UUID
 * </pre>
 *
 * An INT128 value orders as a signed 128-bit number, the high word signed and the low word unsigned, unless its
 * type orders it otherwise (an INTERVAL by its length: {@link Interval#compare}); a DECIMAL's is its unscaled value,
 * a UUID's its byte order ({@link Uuids}).
 */
public enum PhysicalType {
    INT,
    LONG,
    DOUBLE,
    BOOLEAN,
    BYTES,
    INT128
}
