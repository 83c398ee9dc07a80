package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;

/**
 * count(*) (every row) and count(x) (rows where x is not NULL): one {@code long} per group,
 * 0 for a group that saw no such row. Not threadsafe (see {@link AggregateState}).
 */
final class CountState extends AggregateState {

    private long[] counts = new long[0];
    private int[] rows;

    CountState(AggregateSpec spec) {
        super(spec);
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > counts.length) {
            counts = Arrays.copyOf(counts, grow(counts.length, groups));
        }
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        ColumnVector argument = inputs.length == 0 ? null : inputs[0];
        int n = batch.size();
        long[] c = counts;
        if (argument == null || !argument.mayHaveNulls()) {
            for (int i = 0; i < n; i++) {
                c[gids[i]]++;
            }
        } else {
            int[] live = rows = Inputs.room(rows, n);
            int m = Inputs.validRows(argument, batch, live);
            for (int j = 0; j < m; j++) {
                c[gids[live[j]]]++;
            }
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        long[] theirCounts = ((CountState) other).counts;
        for (int k = 0; k < count; k++) {
            counts[mine[k]] += theirCounts[theirs[theirsFrom + k]];
        }
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        long[] theirCounts = ((LongVector) columns[at]).values();
        for (int k = 0; k < count; k++) {
            counts[mine[k]] += theirCounts[k];
        }
    }

    @Override
    DataType[] partialTypes() {
        return new DataType[] {DataType.INT64};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new LongVector(DataType.INT64, Inputs.gather(counts, groups, count));
    }

    @Override
    long bytesFor(int groups) {
        return HeapArrays.bytes(capacityFor(counts.length, groups), Long.BYTES);
    }

    @Override
    ColumnVector result(int from, int count) {
        return new LongVector(DataType.INT64, Arrays.copyOfRange(counts, from, from + count));
    }
}
