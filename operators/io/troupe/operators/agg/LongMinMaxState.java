package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;

/**
 * min and max over the integer-backed types: INT32, DATE (days), INT64, DECIMAL (unscaled, one
 * scale per column, so the order of the longs is the order of the values) and BOOLEAN (0/1, so
 * false < true: bool_and is the min, bool_or the max). One {@code long} and one "seen" flag per
 * group; NULL for a group that saw no non-NULL input.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class LongMinMaxState extends AggregateState {

    private final boolean min;
    private long[] best = new long[0];
    private byte[] seen = new byte[0];
    private long[] values;
    private int[] rows;

    LongMinMaxState(AggregateSpec spec) {
        super(spec);
        this.min = spec.function() == AggregateFunction.MIN || spec.function() == AggregateFunction.BOOL_AND;
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > best.length) {
            int capacity = grow(best.length, groups);
            best = Arrays.copyOf(best, capacity);
            seen = Arrays.copyOf(seen, capacity);
        }
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        ColumnVector argument = inputs[0];
        int n = batch.size();
        long[] x = Inputs.longs(argument, batch, values = Inputs.room(values, n));
        int[] live = rows = Inputs.room(rows, n);
        int m = Inputs.validRows(argument, batch, live);
        long[] b = best;
        byte[] s = seen;
        if (min) {
            for (int j = 0; j < m; j++) {
                int i = live[j];
                int g = gids[i];
                if (s[g] == 0 || x[i] < b[g]) {
                    b[g] = x[i];
                    s[g] = 1;
                }
            }
        } else {
            for (int j = 0; j < m; j++) {
                int i = live[j];
                int g = gids[i];
                if (s[g] == 0 || x[i] > b[g]) {
                    b[g] = x[i];
                    s[g] = 1;
                }
            }
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        LongMinMaxState o = (LongMinMaxState) other;
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            if (o.seen[g] != 0) {
                keep(mine[k], o.best[g]);
            }
        }
    }

    /** Makes {@code x} group {@code to}'s value when it has none or x is better. */
    private void keep(int to, long x) {
        if (seen[to] == 0 || (min ? x < best[to] : x > best[to])) {
            best[to] = x;
            seen[to] = 1;
        }
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        LongVector theirs = (LongVector) columns[at];
        long[] values = theirs.values();
        for (int k = 0; k < count; k++) {
            if (!theirs.isNull(k)) {
                keep(mine[k], values[k]);
            }
        }
    }

    /** The value as INT64 (whatever the argument's type), NULL where none was seen. */
    @Override
    DataType[] partialTypes() {
        return new DataType[] {DataType.INT64};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new LongVector(DataType.INT64, Inputs.gather(best, groups, count));
        out[at].setValidity(Inputs.validity(seen, groups, count));
    }

    @Override
    long bytesFor(int groups) {
        long capacity = capacityFor(best.length, groups);
        return HeapArrays.bytes(capacity, Long.BYTES) + HeapArrays.bytes(capacity, 1);
    }

    @Override
    ColumnVector result(int from, int count) {
        ColumnVector out;
        switch (spec.resultType().id()) {
            case INT32, DATE, INT16, INT8 -> {
                int[] ints = new int[count];
                for (int k = 0; k < count; k++) {
                    ints[k] = (int) best[from + k];
                }
                out = new IntVector(spec.resultType(), ints);
            }
            case BOOLEAN -> {
                byte[] bools = new byte[count];
                for (int k = 0; k < count; k++) {
                    bools[k] = (byte) best[from + k];
                }
                out = new BooleanVector(bools);
            }
            default -> out = new LongVector(spec.resultType(), Arrays.copyOfRange(best, from, from + count));
        }
        out.setValidity(Inputs.validity(seen, from, count));
        return out;
    }
}
