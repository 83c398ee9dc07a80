package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;

/**
 * min and max over VARCHAR, by unsigned byte order of the UTF-8 (code point order, as DuckDB
 * compares). Each group's current value lives in one shared {@code byte[]} heap, addressed by
 * start and length; a better value is appended and the old bytes become garbage. When the heap is
 * full it is compacted into a new one at least twice the live bytes (and at least as large as the
 * group capacity), so compaction costs O(1) per byte appended. No object per group or per row.
 * NULL for a group that saw no non-NULL input.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class StringMinMaxState extends AggregateState {

    private final boolean min;
    private byte[] heap = new byte[1024];
    private int used;
    /** Bytes of the current values (the rest of heap[0..used) is garbage). */
    private long live;
    private int[] starts = new int[0];
    private int[] lengths = new int[0];
    private byte[] seen = new byte[0];

    StringMinMaxState(AggregateSpec spec) {
        super(spec);
        this.min = spec.function() == AggregateFunction.MIN;
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > starts.length) {
            int capacity = grow(starts.length, groups);
            starts = Arrays.copyOf(starts, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
            seen = Arrays.copyOf(seen, capacity);
        }
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        StringVector v = (StringVector) inputs[0];
        byte[] data = v.data();
        int[] offsets = v.offsets();
        boolean mayHaveNulls = v.mayHaveNulls();
        int n = batch.size();
        for (int i = 0; i < n; i++) {
            int r = batch.row(i);
            if (mayHaveNulls && v.isNull(r)) {
                continue;
            }
            offer(gids[i], data, offsets[r], offsets[r + 1] - offsets[r]);
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        StringMinMaxState o = (StringMinMaxState) other;
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            if (o.seen[g] != 0) {
                offer(mine[k], o.heap, o.starts[g], o.lengths[g]);
            }
        }
    }

    /** Keeps {@code src[start .. start+len)} as group g's value when it is better than the current one. */
    private void offer(int g, byte[] src, int start, int len) {
        if (seen[g] != 0) {
            int cmp = Arrays.compareUnsigned(src, start, start + len, heap, starts[g], starts[g] + lengths[g]);
            if (min ? cmp >= 0 : cmp <= 0) {
                return;
            }
            // The old value is garbage from here on: compaction must not keep it.
            live -= lengths[g];
            seen[g] = 0;
        }
        if (used + len > heap.length) {
            compact(len);
        }
        System.arraycopy(src, start, heap, used, len);
        starts[g] = used;
        lengths[g] = len;
        seen[g] = 1;
        used += len;
        live += len;
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        StringVector theirs = (StringVector) columns[at];
        byte[] data = theirs.data();
        int[] offsets = theirs.offsets();
        for (int k = 0; k < count; k++) {
            if (!theirs.isNull(k)) {
                offer(mine[k], data, offsets[k], offsets[k + 1] - offsets[k]);
            }
        }
    }

    @Override
    DataType[] partialTypes() {
        return new DataType[] {spec.resultType()};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = strings(groups, count);
    }

    @Override
    long bytesFor(int groups) {
        return bytesFor(groups, 0);
    }

    @Override
    long bytesAfterUpdate(int groups, ColumnVector[] inputs, Batch batch) {
        return bytesFor(groups, Inputs.stringBytes(inputs[0], batch));
    }

    @Override
    long bytesAfterCombine(int groups, AggregateState other, int[] theirs, int theirsFrom, int count) {
        StringMinMaxState o = (StringMinMaxState) other;
        long more = 0;
        for (int k = 0; k < count; k++) {
            more += o.lengths[theirs[theirsFrom + k]];
        }
        return bytesFor(groups, more);
    }

    @Override
    long bytesAfterPartial(int groups, ColumnVector[] columns, int at, int count) {
        int[] offsets = ((StringVector) columns[at]).offsets();
        return bytesFor(groups, offsets[count] - offsets[0]);
    }

    /**
     * The bytes once there is room for {@code groups} groups and up to {@code more} bytes of values
     * were offered: the heap stays as it is while they fit, else it is compacted into one as
     * {@link #compact} sizes it for all of them at once, which no series of compactions passes.
     */
    private long bytesFor(int groups, long more) {
        long slots = capacityFor(starts.length, groups);
        long heapBytes = heap.length;
        if (used + more > heapBytes) {
            while (heapBytes < 2 * (live + more) || heapBytes < slots) {
                heapBytes *= 2;
            }
        }
        return 2 * HeapArrays.bytes(slots, Integer.BYTES) + HeapArrays.bytes(slots, 1) + HeapArrays.bytes(heapBytes, 1);
    }

    /** Copies the live values into a new heap with room for {@code len} more bytes and as much again. */
    private void compact(int len) {
        long capacity = heap.length;
        while (capacity < 2 * (live + len) || capacity < starts.length) {
            capacity *= 2;
        }
        if (capacity > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("VARCHAR values of " + spec.text() + " exceed 2 GiB");
        }
        byte[] fresh = new byte[(int) capacity];
        int at = 0;
        for (int g = 0; g < seen.length; g++) {
            if (seen[g] != 0) {
                System.arraycopy(heap, starts[g], fresh, at, lengths[g]);
                starts[g] = at;
                at += lengths[g];
            }
        }
        heap = fresh;
        used = at;
    }

    @Override
    ColumnVector result(int from, int count) {
        return strings(Inputs.range(from, count), count);
    }

    /** The values of groups {@code groups[0 .. count-1]}, NULL where none was seen. */
    private StringVector strings(int[] groups, int count) {
        int bytes = 0;
        for (int k = 0; k < count; k++) {
            bytes += lengths[groups[k]];
        }
        StringVector out = new StringVector(spec.resultType(), count, Math.max(16, bytes));
        for (int k = 0; k < count; k++) {
            int g = groups[k];
            if (seen[g] == 0) {
                out.putNull(k);
            } else {
                out.put(k, heap, starts[g], lengths[g]);
            }
        }
        return out.seal();
    }
}
