package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;

/**
 * sum and avg over FLOAT64: a {@code double} sum and a count of non-NULL inputs per group (IEEE
 * arithmetic: no overflow error, as in DuckDB). NULL for a group with no non-NULL input.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class DoubleSumState extends AggregateState {

    private final boolean average;
    private double[] sums = new double[0];
    private long[] counts = new long[0];
    private double[] values;
    private int[] rows;

    DoubleSumState(AggregateSpec spec) {
        super(spec);
        this.average = spec.function() == AggregateFunction.AVG;
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
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        ColumnVector argument = inputs[0];
        int n = batch.size();
        double[] x = Inputs.doubles(argument, batch, values = Inputs.room(values, n));
        double[] s = sums;
        long[] c = counts;
        if (!argument.mayHaveNulls()) {
            for (int i = 0; i < n; i++) {
                int g = gids[i];
                s[g] += x[i];
                c[g]++;
            }
        } else {
            int[] live = rows = Inputs.room(rows, n);
            int m = Inputs.validRows(argument, batch, live);
            for (int j = 0; j < m; j++) {
                int i = live[j];
                int g = gids[i];
                s[g] += x[i];
                c[g]++;
            }
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        DoubleSumState o = (DoubleSumState) other;
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            int to = mine[k];
            sums[to] += o.sums[g];
            counts[to] += o.counts[g];
        }
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        double[] theirSums = ((DoubleVector) columns[at]).values();
        long[] theirCounts = ((LongVector) columns[at + 1]).values();
        for (int k = 0; k < count; k++) {
            sums[mine[k]] += theirSums[k];
            counts[mine[k]] += theirCounts[k];
        }
    }

    @Override
    DataType[] partialTypes() {
        return new DataType[] {DataType.FLOAT64, DataType.INT64};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new DoubleVector(Inputs.gather(sums, groups, count));
        out[at + 1] = new LongVector(DataType.INT64, Inputs.gather(counts, groups, count));
    }

    @Override
    long bytesFor(int groups) {
        return 2 * HeapArrays.bytes(capacityFor(sums.length, groups), Long.BYTES);
    }

    @Override
    ColumnVector result(int from, int count) {
        double[] out = Arrays.copyOfRange(sums, from, from + count);
        if (average) {
            for (int k = 0; k < count; k++) {
                long n = counts[from + k];
                out[k] = n == 0 ? 0 : out[k] / n;
            }
        }
        DoubleVector vector = new DoubleVector(out);
        vector.setValidity(Inputs.validityOfCounts(counts, from, count, 1));
        return vector;
    }
}
