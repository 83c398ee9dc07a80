package io.troupe.operators.types;

/**
 * The physical kinds of value a column can hold, and the Java array that stores each.
 *
 * <pre>
 *   INT32    int[]    32-bit signed integer
 *   INT64    long[]   64-bit signed integer
 *   FLOAT64  double[] IEEE 754 double
 *   DECIMAL  long[]   unscaled value; precision &lt;= 18 and scale are on the {@link DataType}
 *   DATE     int[]    days since 1970-01-01 (proleptic Gregorian)
 *   BOOLEAN  byte[]   0 = false, 1 = true
 *   VARCHAR  byte[] + int[] offsets, UTF-8
 * </pre>
 */
public enum TypeId {
    INT32,
    INT64,
    FLOAT64,
    DECIMAL,
    DATE,
    BOOLEAN,
    VARCHAR;

    /** True for the types arithmetic applies to. */
    public boolean isNumeric() {
        return this == INT32 || this == INT64 || this == FLOAT64 || this == DECIMAL;
    }
}
