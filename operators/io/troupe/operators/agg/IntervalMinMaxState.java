package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;

import java.util.Arrays;

/**
 * min and max over INTERVAL values, which order by their length ({@link Interval#compare}: a month as 30 days):
 * two {@code long}s (months and days, microseconds) and one "seen" flag per group; NULL for a group that saw no
 * non-NULL input. Of two intervals of one length ({@code 1 month} and {@code 30 days}) the first met stays.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class IntervalMinMaxState extends AggregateState {

    private final boolean min;
    private long[] high = new long[0];
    private long[] low = new long[0];
    private byte[] seen = new byte[0];

    IntervalMinMaxState(AggregateSpec spec) {
        super(spec);
        this.min = spec.function() == AggregateFunction.MIN;
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

    /** Makes the interval {@code h}, {@code l} group {@code to}'s value when it has none or it is better. */
    private void keep(int to, long h, long l) {
        if (seen[to] == 0) {
            high[to] = h;
            low[to] = l;
            seen[to] = 1;
            return;
        }
        int c = Interval.compare(h, l, high[to], low[to]);
        if (min ? c < 0 : c > 0) {
            high[to] = h;
            low[to] = l;
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        IntervalMinMaxState o = (IntervalMinMaxState) other;
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

    /** The value, an INTERVAL, NULL where none was seen. */
    @Override
    DataType[] partialTypes() {
        return new DataType[] {DataType.INTERVAL};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new Int128Vector(DataType.INTERVAL, Inputs.gather(high, groups, count), Inputs.gather(low, groups, count));
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
