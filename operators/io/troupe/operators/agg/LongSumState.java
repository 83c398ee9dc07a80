package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.Int128;
import io.troupe.operators.types.TypeId;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;

/**
 * sum and avg over INT32, INT64 and DECIMAL: an exact 128-bit sum (a high and a low long) and a
 * count of non-NULL inputs per group. The sum is 128 bits wide, as DuckDB's HUGEINT, so that the
 * result does not depend on the order rows arrive in: with several workers a partial sum may pass
 * the range of a long where the whole sum does not. A value of one long (an integer, a DECIMAL of at
 * most 18 digits, TPC-H's prices) adds to the low word with a carry into the high, the loop a narrow
 * sum has always had; a DECIMAL of more than 18 digits adds both words, each addition checked for
 * passing 128 bits. Only the final sum must fit the result type: past the range of a long (INT64), or
 * past 38 digits (DECIMAL(38,s), DuckDB's type of a decimal sum), it is an error naming the
 * aggregate. avg never overflows: it divides the exact sum in double precision. sum and avg are
 * NULL for a group with no non-NULL input.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class LongSumState extends AggregateState {

    private final boolean average;
    private final boolean decimal;
    /** The argument is a DECIMAL of more than 18 digits, two words a value. */
    private final boolean wide;
    private final int scale;
    /** Low 64 bits of each group's sum (wrapping); the high 64 bits are in {@link #highs}. */
    private long[] sums = new long[0];
    private long[] highs = new long[0];
    private long[] counts = new long[0];
    private long[] values;
    private int[] rows;

    LongSumState(AggregateSpec spec) {
        super(spec);
        this.average = spec.function() == AggregateFunction.AVG;
        DataType arg = spec.argument().type();
        this.decimal = arg.id() == TypeId.DECIMAL;
        this.wide = arg.isWideDecimal();
        this.scale = arg.scale();
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > sums.length) {
            int capacity = grow(sums.length, groups);
            sums = Arrays.copyOf(sums, capacity);
            highs = Arrays.copyOf(highs, capacity);
            counts = Arrays.copyOf(counts, capacity);
        }
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        ColumnVector argument = inputs[0];
        int n = batch.size();
        if (wide) {
            updateWide((Int128Vector) argument, batch, gids);
            return;
        }
        long[] x = Inputs.longs(argument, batch, values = Inputs.room(values, n));
        long[] s = sums;
        long[] h = highs;
        long[] c = counts;
        if (!argument.mayHaveNulls()) {
            for (int i = 0; i < n; i++) {
                int g = gids[i];
                long before = s[g];
                long after = before + x[i];
                s[g] = after;
                h[g] += (x[i] >> 63) + (Long.compareUnsigned(after, before) < 0 ? 1 : 0);
                c[g]++;
            }
        } else {
            int[] live = rows = Inputs.room(rows, n);
            int m = Inputs.validRows(argument, batch, live);
            for (int j = 0; j < m; j++) {
                int i = live[j];
                int g = gids[i];
                long before = s[g];
                long after = before + x[i];
                s[g] = after;
                h[g] += (x[i] >> 63) + (Long.compareUnsigned(after, before) < 0 ? 1 : 0);
                c[g]++;
            }
        }
    }

    /** Adds two-word values, each addition checked for passing 128 bits. */
    private void updateWide(Int128Vector argument, Batch batch, int[] gids) {
        int n = batch.size();
        for (int i = 0; i < n; i++) {
            int r = batch.row(i);
            if (!argument.isNull(r)) {
                int g = gids[i];
                if (!Int128.add(highs[g], sums[g], argument.high(r), argument.low(r), highs, sums, g)) {
                    throw overflow(spec.resultType());
                }
                counts[g]++;
            }
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        LongSumState o = (LongSumState) other;
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            add(mine[k], o.sums[g], o.highs[g], o.counts[g]);
        }
    }

    /** Adds a partial sum (128 bits: low, high) and count into group {@code to}. */
    private void add(int to, long low, long high, long count) {
        long before = sums[to];
        long after = before + low;
        sums[to] = after;
        highs[to] += high + (Long.compareUnsigned(after, before) < 0 ? 1 : 0);
        counts[to] += count;
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        long[] lows = ((LongVector) columns[at]).values();
        long[] theirHighs = ((LongVector) columns[at + 1]).values();
        long[] theirCounts = ((LongVector) columns[at + 2]).values();
        for (int k = 0; k < count; k++) {
            add(mine[k], lows[k], theirHighs[k], theirCounts[k]);
        }
    }

    /** The sum's low and high 64 bits and the count, each as INT64: merged back, the sum stays exact. */
    @Override
    DataType[] partialTypes() {
        return new DataType[] {DataType.INT64, DataType.INT64, DataType.INT64};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new LongVector(DataType.INT64, Inputs.gather(sums, groups, count));
        out[at + 1] = new LongVector(DataType.INT64, Inputs.gather(highs, groups, count));
        out[at + 2] = new LongVector(DataType.INT64, Inputs.gather(counts, groups, count));
    }

    @Override
    long bytesFor(int groups) {
        return 3 * HeapArrays.bytes(capacityFor(sums.length, groups), Long.BYTES);
    }

    @Override
    void finish(int groups) {
        if (average) {
            return;
        }
        DataType type = spec.resultType();
        for (int g = 0; g < groups; g++) {
            if (decimal ? Int128.hasMoreDigits(highs[g], sums[g], type.precision()) : highs[g] != (sums[g] >> 63)) {
                throw overflow(type);
            }
        }
    }

    /** The 128-bit sum of group {@code g} as a double. */
    private double sumAsDouble(int g) {
        long low = sums[g];
        if (highs[g] == (low >> 63)) {
            return low;
        }
        double unsignedLow = (double) (low >>> 1) * 2.0 + (low & 1);
        return highs[g] * 0x1p64 + unsignedLow;
    }

    @Override
    ColumnVector result(int from, int count) {
        ColumnVector out;
        if (average) {
            double[] means = new double[count];
            double unit = Decimals.pow10Double(scale);
            for (int k = 0; k < count; k++) {
                long n = counts[from + k];
                means[k] = n == 0 ? 0 : sumAsDouble(from + k) / n / unit;
            }
            out = new DoubleVector(means);
        } else if (spec.resultType().isWideDecimal()) {
            out = new Int128Vector(spec.resultType(), Arrays.copyOfRange(highs, from, from + count),
                    Arrays.copyOfRange(sums, from, from + count));
        } else {
            out = new LongVector(spec.resultType(), Arrays.copyOfRange(sums, from, from + count));
        }
        out.setValidity(Inputs.validityOfCounts(counts, from, count, 1));
        return out;
    }
}
