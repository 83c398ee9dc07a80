package io.troupe.operators.types;

/**
 * The kinds of value a column can hold, and the Java array that stores each ({@link PhysicalType}).
 *
 * <pre>
 *   INT32    int[]    32-bit signed integer
 *   INT64    long[]   64-bit signed integer
 *   FLOAT64  double[] IEEE 754 double
 *   DECIMAL  long[]   unscaled value, precision &lt;= 18 (precision and scale are on the {@link DataType});
 *            long[] high + long[] low for precision 19 to 38, a signed 128-bit unscaled value
 *   DATE     int[]    days since 1970-01-01 (proleptic Gregorian)
 *   TIMESTAMP    long[] microseconds since 1970-01-01 00:00:00, a local date and time (no zone)
 *   TIMESTAMP_TZ long[] microseconds since 1970-01-01 00:00:00 UTC, an instant; shown in a time zone
 *   TIME         long[] microseconds since midnight, below 24:00:00
 *   INTERVAL     long[] high (months and days, {@link Interval#high}) + long[] low (microseconds)
 *   INT16    int[]    16-bit signed integer (SMALLINT), every value in -32768..32767
 *   INT8     int[]    8-bit signed integer (TINYINT), every value in -128..127
 *   FLOAT32  double[] IEEE 754 single (REAL), every value a float widened exactly: kernels and casts that give a
 *            FLOAT32 round through {@code (float)}, so its arithmetic is float arithmetic (a double's + - * / of
 *            two floats, rounded to float, is the float operation's result)
 *   BOOLEAN  byte[]   0 = false, 1 = true
 *   VARCHAR  byte[] + int[] offsets, UTF-8
 *   UUID     long[] high + long[] low, the sixteen bytes ({@link Uuids}: the high word's top bit flipped)
 *   BLOB     byte[] + int[] offsets, any bytes (PostgreSQL's bytea)
 * </pre>
 */
public enum TypeId {
    INT32,
    INT64,
    FLOAT64,
    DECIMAL,
    DATE,
    BOOLEAN,
    VARCHAR,
    TIMESTAMP,
    TIMESTAMP_TZ,
    TIME,
    INTERVAL,
    INT16,
    INT8,
    FLOAT32,
    UUID,
    BLOB;

    /** True for the types arithmetic applies to. */
    public boolean isNumeric() {
        return this == INT32 || this == INT64 || this == FLOAT64 || this == DECIMAL || this == INT16 || this == INT8
                || this == FLOAT32;
    }

    /** How the values are laid out in memory; a DECIMAL's depends on its precision ({@link DataType#physical}). */
    PhysicalType physical() {
        return switch (this) {
            case INT32, DATE, INT16, INT8 -> PhysicalType.INT;
            case INT64, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> PhysicalType.LONG;
            case FLOAT64, FLOAT32 -> PhysicalType.DOUBLE;
            case BOOLEAN -> PhysicalType.BOOLEAN;
            case VARCHAR -> PhysicalType.BYTES;
            case INTERVAL -> PhysicalType.INT128;
            case UUID -> PhysicalType.INT128;
            case BLOB -> PhysicalType.BYTES;
        };
    }

    /** True for the points in time and of the day: DATE, TIMESTAMP, TIMESTAMP_TZ, TIME. */
    public boolean isTemporal() {
        return this == DATE || this == TIMESTAMP || this == TIMESTAMP_TZ || this == TIME;
    }
}
