package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

import java.util.Arrays;

/**
 * var_samp, var_pop, stddev_samp and stddev_pop over any numeric argument, as a DOUBLE: per group the count of
 * non-NULL inputs, their mean and the sum of squared differences from the mean (M2), kept by Welford's update
 * (each value moves the mean by its difference over the count, and M2 by the product of its differences from
 * the old and the new mean). Two groups' states (another worker's partial, or spilled rows) merge by Chan et
 * al.'s formula: with {@code d = mean_b - mean_a}, the mean is {@code mean_a + d * n_b / n} and M2 is
 * {@code M2_a + M2_b + d^2 * n_a * n_b / n}. DuckDB keeps the same three numbers.
 *
 * <p>Why not the sum of squares, as Calcite's AggregateReduceFunctionsRule rewrites these aggregates
 * ({@code (sum(x*x) - sum(x)^2/n) / (n-1)}): with a large mean and a small spread the two sums agree in all
 * their leading digits and their difference keeps none (values 1e9 + {1, 2, 3}: the squares near 1e18 hold no
 * digit below 128, and the variance 1 comes out as 0 or hundreds). Welford's differences are of the spread's
 * own size. The planner does not run that rule.
 *
 * <p>Results: var_pop is {@code M2 / n}, var_samp {@code M2 / (n - 1)}, the stddevs their square roots; NULL
 * for a group with no input, and var_samp and stddev_samp NULL for one of a single input (as DuckDB and
 * PostgreSQL). Decimals are read as doubles ({@code unscaled / 10^scale}), as DuckDB casts them.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class VarianceState extends AggregateState {

    private final boolean sample;
    private final boolean root;
    /** 10^scale of a DECIMAL argument, 1 for an integer; 0 for a FLOAT64, read as it is. */
    private final double unit;
    private long[] counts = new long[0];
    private double[] means = new double[0];
    private double[] m2s = new double[0];
    private double[] values;
    private int[] rows;

    VarianceState(AggregateSpec spec) {
        super(spec);
        AggregateFunction f = spec.function();
        this.sample = f == AggregateFunction.VAR_SAMP || f == AggregateFunction.STDDEV_SAMP;
        this.root = f == AggregateFunction.STDDEV_SAMP || f == AggregateFunction.STDDEV_POP;
        DataType arg = spec.argument().type();
        this.unit = arg.physical() == PhysicalType.DOUBLE ? 0 : arg.id() == TypeId.DECIMAL ? Decimals.pow10(arg.scale()) : 1;
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > counts.length) {
            int capacity = grow(counts.length, groups);
            counts = Arrays.copyOf(counts, capacity);
            means = Arrays.copyOf(means, capacity);
            m2s = Arrays.copyOf(m2s, capacity);
        }
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        ColumnVector argument = inputs[0];
        int n = batch.size();
        double[] x = values = Inputs.room(values, n);
        if (unit == 0) {
            x = Inputs.doubles(argument, batch, x);
        } else {
            x = Inputs.exact(argument, unit, batch, x);
        }
        int[] live = rows = Inputs.room(rows, n);
        int m = Inputs.validRows(argument, batch, live);
        for (int j = 0; j < m; j++) {
            int i = live[j];
            int g = gids[i];
            long count = ++counts[g];
            double delta = x[i] - means[g];
            means[g] += delta / count;
            m2s[g] += delta * (x[i] - means[g]);
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        VarianceState o = (VarianceState) other;
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            merge(mine[k], o.counts[g], o.means[g], o.m2s[g]);
        }
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        long[] theirCounts = ((LongVector) columns[at]).values();
        double[] theirMeans = ((DoubleVector) columns[at + 1]).values();
        double[] theirM2s = ((DoubleVector) columns[at + 2]).values();
        for (int k = 0; k < count; k++) {
            merge(mine[k], theirCounts[k], theirMeans[k], theirM2s[k]);
        }
    }

    /** Chan et al.'s merge of a state of {@code nb} values into group {@code g}. */
    private void merge(int g, long nb, double meanB, double m2B) {
        if (nb == 0) {
            return;
        }
        long na = counts[g];
        long n = na + nb;
        double delta = meanB - means[g];
        means[g] += delta * ((double) nb / n);
        m2s[g] += m2B + delta * delta * ((double) na * nb / n);
        counts[g] = n;
    }

    @Override
    DataType[] partialTypes() {
        return new DataType[] {DataType.INT64, DataType.FLOAT64, DataType.FLOAT64};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new LongVector(DataType.INT64, Inputs.gather(counts, groups, count));
        out[at + 1] = new DoubleVector(Inputs.gather(means, groups, count));
        out[at + 2] = new DoubleVector(Inputs.gather(m2s, groups, count));
    }

    @Override
    long bytesFor(int groups) {
        return 3 * HeapArrays.bytes(capacityFor(counts.length, groups), Long.BYTES);
    }

    @Override
    ColumnVector result(int from, int count) {
        long least = sample ? 2 : 1;
        double[] out = new double[count];
        for (int k = 0; k < count; k++) {
            long n = counts[from + k];
            double variance = n < least ? 0 : m2s[from + k] / (sample ? n - 1 : n);
            out[k] = root ? Math.sqrt(variance) : variance;
        }
        DoubleVector vector = new DoubleVector(out);
        vector.setValidity(Inputs.validityOfCounts(counts, from, count, least));
        return vector;
    }
}
