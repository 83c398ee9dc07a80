package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;

/**
 * min and max over FLOAT64 and FLOAT32 (the result of the argument's type). NaN orders above every other value, as in DuckDB and PostgreSQL: max
 * is NaN once a NaN was seen, min is NaN only when every input was NaN. NULL for a group that saw
 * no non-NULL input.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class DoubleMinMaxState extends AggregateState {

    private final boolean min;
    private double[] best = new double[0];
    private byte[] seen = new byte[0];
    private double[] values;
    private int[] rows;

    DoubleMinMaxState(AggregateSpec spec) {
        super(spec);
        this.min = spec.function() == AggregateFunction.MIN;
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > best.length) {
            int capacity = grow(best.length, groups);
            best = Arrays.copyOf(best, capacity);
            seen = Arrays.copyOf(seen, capacity);
        }
    }

    /** x < y with NaN greatest. */
    private static boolean less(double x, double y) {
        return x < y || (y != y && x == x);
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        ColumnVector argument = inputs[0];
        int n = batch.size();
        double[] x = Inputs.doubles(argument, batch, values = Inputs.room(values, n));
        int[] live = rows = Inputs.room(rows, n);
        int m = Inputs.validRows(argument, batch, live);
        double[] b = best;
        byte[] s = seen;
        if (min) {
            for (int j = 0; j < m; j++) {
                int i = live[j];
                int g = gids[i];
                if (s[g] == 0 || less(x[i], b[g])) {
                    b[g] = x[i];
                    s[g] = 1;
                }
            }
        } else {
            for (int j = 0; j < m; j++) {
                int i = live[j];
                int g = gids[i];
                if (s[g] == 0 || less(b[g], x[i])) {
                    b[g] = x[i];
                    s[g] = 1;
                }
            }
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        DoubleMinMaxState o = (DoubleMinMaxState) other;
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            if (o.seen[g] != 0) {
                keep(mine[k], o.best[g]);
            }
        }
    }

    /** Makes {@code x} group {@code to}'s value when it has none or x is better. */
    private void keep(int to, double x) {
        if (seen[to] == 0 || (min ? less(x, best[to]) : less(best[to], x))) {
            best[to] = x;
            seen[to] = 1;
        }
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        DoubleVector theirs = (DoubleVector) columns[at];
        double[] values = theirs.values();
        for (int k = 0; k < count; k++) {
            if (!theirs.isNull(k)) {
                keep(mine[k], values[k]);
            }
        }
    }

    @Override
    DataType[] partialTypes() {
        return new DataType[] {spec.resultType()};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new DoubleVector(spec.resultType(), Inputs.gather(best, groups, count));
        out[at].setValidity(Inputs.validity(seen, groups, count));
    }

    @Override
    long bytesFor(int groups) {
        long capacity = capacityFor(best.length, groups);
        return HeapArrays.bytes(capacity, Double.BYTES) + HeapArrays.bytes(capacity, 1);
    }

    @Override
    ColumnVector result(int from, int count) {
        DoubleVector out = new DoubleVector(spec.resultType(), Arrays.copyOfRange(best, from, from + count));
        out.setValidity(Inputs.validity(seen, from, count));
        return out;
    }
}
