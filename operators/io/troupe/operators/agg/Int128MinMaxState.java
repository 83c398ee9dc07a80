package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Int128;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.TypeId;

import java.util.Arrays;

/**
 * min and max over values of two words: INTERVALs, which order by their length ({@link Interval#compare}: a month
 * as 30 days), and DECIMALs of more than 18 digits, signed 128-bit numbers ({@link Int128#compare}). Two
 * {@code long}s and one "seen" flag per group; NULL for a group that saw no non-NULL input. Of two intervals of
 * one length ({@code 1 month} and {@code 30 days}) the first met stays.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class Int128MinMaxState extends AggregateState {

    private final boolean min;
    private final boolean interval;
    private final DataType type;
    private long[] high = new long[0];
    private long[] low = new long[0];
    private byte[] seen = new byte[0];

    Int128MinMaxState(AggregateSpec spec) {
        super(spec);
        this.min = spec.function() == AggregateFunction.MIN;
        this.type = spec.argument().type();
        this.interval = type.id() == TypeId.INTERVAL;
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > high.length) {
            int capacity = grow(high.length, groups);
            high = Arrays.copyOf(high, capacity);
            low = Arrays.copyOf(low, capacity);
            seen = Arrays.copyOf(seen, capacity);
        }
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        Int128Vector v = (Int128Vector) inputs[0];
        for (int i = 0, n = batch.size(); i < n; i++) {
            int r = batch.row(i);
            if (!v.isNull(r)) {
                keep(gids[i], v.high(r), v.low(r));
            }
        }
    }

    /** Makes the value {@code h}, {@code l} group {@code to}'s when it has none or it is better. */
    private void keep(int to, long h, long l) {
        if (seen[to] == 0) {
            high[to] = h;
            low[to] = l;
            seen[to] = 1;
            return;
        }
        int c = interval ? Interval.compare(h, l, high[to], low[to]) : Int128.compare(h, l, high[to], low[to]);
        if (min ? c < 0 : c > 0) {
            high[to] = h;
            low[to] = l;
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        Int128MinMaxState o = (Int128MinMaxState) other;
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            if (o.seen[g] != 0) {
                keep(mine[k], o.high[g], o.low[g]);
            }
        }
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        Int128Vector theirs = (Int128Vector) columns[at];
        for (int k = 0; k < count; k++) {
            if (!theirs.isNull(k)) {
                keep(mine[k], theirs.high(k), theirs.low(k));
            }
        }
    }

    /** The value, of the argument's type, NULL where none was seen. */
    @Override
    DataType[] partialTypes() {
        return new DataType[] {type};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new Int128Vector(type, Inputs.gather(high, groups, count), Inputs.gather(low, groups, count));
        out[at].setValidity(Inputs.validity(seen, groups, count));
    }

    @Override
    long bytesFor(int groups) {
        long capacity = capacityFor(high.length, groups);
        return 2 * HeapArrays.bytes(capacity, Long.BYTES) + HeapArrays.bytes(capacity, 1);
    }

    @Override
    ColumnVector result(int from, int count) {
        ColumnVector out = new Int128Vector(spec.resultType(), Arrays.copyOfRange(high, from, from + count),
                Arrays.copyOfRange(low, from, from + count));
        out.setValidity(Inputs.validity(seen, from, count));
        return out;
    }
}
