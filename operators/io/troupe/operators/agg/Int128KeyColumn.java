package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * Group keys of two words (INTERVAL) as two {@code long}s per group, the first row's words, equal as
 * {@link Int128Vector#equalAt} says ({@code '1 month'} and {@code '30 days'} are one group, shown as the first).
 *
 * <p>Not threadsafe (see {@link KeyColumn}).
 */
final class Int128KeyColumn extends KeyColumn {

    private final DataType type;
    private long[] high = new long[64];
    private long[] low = new long[64];
    /** 1 where the group's key is a value, 0 where it is NULL. */
    private byte[] present = new byte[64];

    Int128KeyColumn(DataType type) {
        this.type = type;
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > high.length) {
            int capacity = Math.max(groups, high.length * 2);
            high = Arrays.copyOf(high, capacity);
            low = Arrays.copyOf(low, capacity);
            present = Arrays.copyOf(present, capacity);
        }
    }

    @Override
    long bytesFor(int groups, long moreBytes) {
        long capacity = groups > high.length ? Math.max(groups, high.length * 2L) : high.length;
        return 2 * HeapArrays.bytes(capacity, Long.BYTES) + HeapArrays.bytes(capacity, 1);
    }

    @Override
    void append(ColumnVector column, Batch batch, int[] rows, int count, int firstGid) {
        Int128Vector v = (Int128Vector) column;
        for (int k = 0; k < count; k++) {
            int r = batch.row(rows[k]);
            boolean isNull = v.isNull(r);
            high[firstGid + k] = isNull ? 0 : v.high(r);
            low[firstGid + k] = isNull ? 0 : v.low(r);
            present[firstGid + k] = (byte) (isNull ? 0 : 1);
        }
    }

    @Override
    void compare(ColumnVector column, Batch batch, int[] rows, int[] gids, int count, boolean[] match) {
        Int128Vector v = (Int128Vector) column;
        for (int k = 0; k < count; k++) {
            int r = batch.row(rows[k]);
            int g = gids[k];
            boolean isNull = v.isNull(r);
            match[k] &= isNull ? present[g] == 0
                    : present[g] == 1 && v.equalAt(r, high[g], low[g]);
        }
    }

    @Override
    ColumnVector output(int[] groups, int count) {
        Int128Vector out = new Int128Vector(type, Inputs.gather(high, groups, count), Inputs.gather(low, groups, count));
        out.setValidity(Inputs.validity(present, groups, count));
        return out;
    }
}
