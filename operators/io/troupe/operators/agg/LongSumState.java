package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.TypeId;

import java.util.Arrays;

/**
 * sum and avg over INT32, INT64 and DECIMAL: an exact {@code long} sum and a count of non-NULL
 * inputs per group. A sum past the range of a long is an error naming the aggregate, as is a
 * DECIMAL sum past 18 digits (checked when the groups are complete, since a running sum may
 * pass the limit and come back). sum is NULL and avg is NULL for a group with no non-NULL input.
 * avg divides in double precision, after the exact sum.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class LongSumState extends AggregateState {

    /** The largest unscaled value of 18 digits. */
    private static final long MAX_DECIMAL = Decimals.pow10(DataType.MAX_DECIMAL_PRECISION) - 1;

    private final boolean average;
    private final boolean decimal;
    private final int scale;
    private long[] sums = new long[0];
    private long[] counts = new long[0];
    private long[] values;
    private byte[] valid;

    LongSumState(AggregateSpec spec) {
        super(spec);
        this.average = spec.function() == AggregateFunction.AVG;
        DataType arg = spec.argument().type();
        this.decimal = arg.id() == TypeId.DECIMAL;
        this.scale = arg.scale();
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > sums.length) {
            int capacity = grow(sums.length, groups);
            sums = Arrays.copyOf(sums, capacity);
            counts = Arrays.copyOf(counts, capacity);
        }
    }

    @Override
    void update(ColumnVector argument, Batch batch, int[] gids) {
        int n = batch.size();
        long[] x = values = Inputs.longs(argument, batch, values);
        byte[] v = valid = Inputs.valid(argument, batch, valid);
        long[] s = sums;
        long[] c = counts;
        try {
            if (v == null) {
                for (int i = 0; i < n; i++) {
                    int g = gids[i];
                    s[g] = Math.addExact(s[g], x[i]);
                    c[g]++;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    if (v[i] != 0) {
                        int g = gids[i];
                        s[g] = Math.addExact(s[g], x[i]);
                        c[g]++;
                    }
                }
            }
        } catch (ArithmeticException e) {
            throw overflow(DataType.INT64);
        }
    }

    @Override
    void combine(AggregateState other, int[] gidMap, int otherGroups) {
        LongSumState o = (LongSumState) other;
        try {
            for (int g = 0; g < otherGroups; g++) {
                int to = gidMap[g];
                sums[to] = Math.addExact(sums[to], o.sums[g]);
                counts[to] += o.counts[g];
            }
        } catch (ArithmeticException e) {
            throw overflow(DataType.INT64);
        }
    }

    @Override
    void finish(int groups) {
        if (decimal && !average) {
            for (int g = 0; g < groups; g++) {
                if (sums[g] > MAX_DECIMAL || sums[g] < -MAX_DECIMAL) {
                    throw overflow(spec.resultType());
                }
            }
        }
    }

    @Override
    ColumnVector result(int from, int count) {
        ColumnVector out;
        if (average) {
            double[] means = new double[count];
            double unit = Decimals.pow10(scale);
            for (int k = 0; k < count; k++) {
                long n = counts[from + k];
                means[k] = n == 0 ? 0 : (double) sums[from + k] / n / unit;
            }
            out = new DoubleVector(means);
        } else {
            out = new LongVector(spec.resultType(), Arrays.copyOfRange(sums, from, from + count));
        }
        out.setValidity(Inputs.validityOfCounts(counts, from, count));
        return out;
    }
}
