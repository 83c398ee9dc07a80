package io.troupe.operators.batch;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Int128;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;
import io.troupe.operators.types.Uuids;

/**
 * Values of two words each, in two {@code long[]}: INTERVAL values, months and days in the high word and
 * microseconds in the low ({@link Interval}), the unscaled values of a DECIMAL wider than 18 digits, signed
 * 128-bit integers ({@link Int128}: the high word signed, the low unsigned), or UUIDs ({@link Uuids}: words whose
 * signed order is the UUID's byte order). What the words mean decides how they compare and group: an INTERVAL by
 * its length, a DECIMAL or a UUID as a number. See {@link ColumnVector} for the contract.
 */
public final class Int128Vector extends ColumnVector {

    private final long[] high;
    private final long[] low;
    /** True for an INTERVAL, which compares by its length; false for a DECIMAL, which compares as a number. */
    private final boolean interval;

    public Int128Vector(DataType type, int capacity) {
        this(type, new long[capacity], new long[capacity]);
    }

    /** Wraps {@code high} and {@code low} (taken, not copied, of one length); all rows valid. */
    public Int128Vector(DataType type, long[] high, long[] low) {
        super(type, high.length);
        if (type.physical() != PhysicalType.INT128 || low.length != high.length) {
            throw new IllegalArgumentException("Int128Vector cannot hold " + type + " in words of " + high.length
                    + " and " + low.length);
        }
        this.high = high;
        this.low = low;
        this.interval = type.id() == TypeId.INTERVAL;
    }

    public long[] high() {
        return high;
    }

    public long[] low() {
        return low;
    }

    public long high(int row) {
        return high[row];
    }

    public long low(int row) {
        return low[row];
    }

    /**
     * Whether the value at {@code row} equals the one of words {@code highWord} and {@code lowWord} as a key of a
     * group, a join or DISTINCT: INTERVALs by their length, as they compare ({@code '1 month'} equals {@code '30
     * days'}, as in PostgreSQL and DuckDB); DECIMALs word for word.
     */
    public boolean equalAt(int row, long highWord, long lowWord) {
        return interval ? Interval.compare(high[row], low[row], highWord, lowWord) == 0
                : high[row] == highWord && low[row] == lowWord;
    }

    /**
     * Orders the value at row {@code a} of this before, as or after the one at {@code b} of {@code other} (a vector
     * of the same type): INTERVALs by length, DECIMALs as signed 128-bit numbers.
     */
    public int compare(int a, Int128Vector other, int b) {
        return compareWords(high[a], low[a], other.high[b], other.low[b]);
    }

    /** Orders two values of this vector's type given by their words, as {@link #compare} does. */
    public int compareWords(long aHigh, long aLow, long bHigh, long bLow) {
        return interval ? Interval.compare(aHigh, aLow, bHigh, bLow) : Int128.compare(aHigh, aLow, bHigh, bLow);
    }

    /** A hash of the value at {@code row} that equal values share ({@link #equalAt}), before mixing. */
    public long keyAt(int row) {
        return interval ? Interval.sortDays(high[row], low[row]) * 31 + Interval.sortMicros(low[row])
                : high[row] * 31 + low[row];
    }

    public void set(int row, long highWord, long lowWord) {
        high[row] = highWord;
        low[row] = lowWord;
    }

    @Override
    public Int128Vector gather(int[] rows, int count) {
        Int128Vector out = new Int128Vector(type(), count);
        for (int i = 0; i < count; i++) {
            out.high[i] = high[rows[i]];
            out.low[i] = low[rows[i]];
        }
        gatherValidity(out, rows, count);
        return out;
    }

    @Override
    public Int128Vector withValidity(long[] bitmap) {
        Int128Vector out = new Int128Vector(type(), high, low);
        out.setValidity(bitmap);
        return out;
    }

    /** An {@link Interval}, a {@link java.util.UUID}, or a DECIMAL's {@link java.math.BigDecimal}. */
    @Override
    public Object getObject(int row) {
        if (isNull(row)) {
            return null;
        }
        if (type().id() == TypeId.UUID) {
            return Uuids.of(high[row], low[row]);
        }
        return interval ? Interval.of(high[row], low[row]) : Int128.toBigDecimal(high[row], low[row], type().scale());
    }

    @Override
    protected long valueBytes() {
        return 2L * high.length * Long.BYTES;
    }
}
