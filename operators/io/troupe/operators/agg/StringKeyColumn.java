package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;

/**
 * VARCHAR group keys: every group's UTF-8 bytes in one growing {@code byte[]}, addressed by start
 * and length per group. Keys are written once (a group's key never changes), so the heap needs
 * no compaction.
 *
 * <p>Not threadsafe (see {@link KeyColumn}).
 */
final class StringKeyColumn extends KeyColumn {

    /** VARCHAR or BLOB. */
    private final DataType type;
    private byte[] heap = new byte[1024];
    private int used;
    private int[] starts = new int[64];
    private int[] lengths = new int[64];
    /** 1 where the group's key is NULL. */
    private byte[] nulls = new byte[64];

    StringKeyColumn(DataType type) {
        this.type = type;
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > starts.length) {
            int capacity = Math.max(groups, starts.length * 2);
            starts = Arrays.copyOf(starts, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
            nulls = Arrays.copyOf(nulls, capacity);
        }
    }

    /**
     * The heap grows to max(used + len, twice its size) when an append does not fit: after appends of
     * {@code moreBytes} in all it is its size now, or at most twice the bytes then used.
     */
    @Override
    long bytesFor(int groups, long moreBytes) {
        long capacity = groups > starts.length ? Math.max(groups, starts.length * 2L) : starts.length;
        long heapBytes = used + moreBytes > heap.length ? 2 * (used + moreBytes) : heap.length;
        return 2 * HeapArrays.bytes(capacity, Integer.BYTES) + HeapArrays.bytes(capacity, 1) + HeapArrays.bytes(heapBytes, 1);
    }

    @Override
    long valueBytes(ColumnVector column, Batch batch) {
        return Inputs.stringBytes(column, batch);
    }

    @Override
    long storedValueBytes() {
        return used;
    }

    @Override
    void append(ColumnVector column, Batch batch, int[] rows, int count, int firstGid) {
        StringVector v = (StringVector) column;
        byte[] data = v.data();
        int[] offsets = v.offsets();
        boolean mayHaveNulls = v.mayHaveNulls();
        for (int k = 0; k < count; k++) {
            int r = batch.row(rows[k]);
            int g = firstGid + k;
            starts[g] = used;
            if (mayHaveNulls && v.isNull(r)) {
                lengths[g] = 0;
                nulls[g] = 1;
                continue;
            }
            int len = offsets[r + 1] - offsets[r];
            if (used + len > heap.length) {
                heap = Arrays.copyOf(heap, Math.max(used + len, heap.length * 2));
            }
            System.arraycopy(data, offsets[r], heap, used, len);
            used += len;
            lengths[g] = len;
            nulls[g] = 0;
        }
    }

    @Override
    void compare(ColumnVector column, Batch batch, int[] rows, int[] gids, int count, boolean[] match) {
        StringVector v = (StringVector) column;
        byte[] data = v.data();
        int[] offsets = v.offsets();
        boolean mayHaveNulls = v.mayHaveNulls();
        for (int k = 0; k < count; k++) {
            int r = batch.row(rows[k]);
            int g = gids[k];
            boolean equal;
            if (mayHaveNulls && v.isNull(r)) {
                equal = nulls[g] == 1;
            } else {
                equal = nulls[g] == 0 && lengths[g] == offsets[r + 1] - offsets[r]
                        && same(heap, starts[g], data, offsets[r], lengths[g]);
            }
            match[k] &= equal;
        }
    }

    /**
     * Whether {@code len} bytes at a[i] and b[j] are equal. Short keys (the common case: codes,
     * names) compare in a plain loop; the intrinsic behind Arrays.equals costs more to set up than
     * it saves below a few words.
     */
    private static boolean same(byte[] a, int i, byte[] b, int j, int len) {
        if (len > 16) {
            return Arrays.equals(a, i, i + len, b, j, j + len);
        }
        for (int k = 0; k < len; k++) {
            if (a[i + k] != b[j + k]) {
                return false;
            }
        }
        return true;
    }

    @Override
    ColumnVector output(int[] groups, int count) {
        int bytes = 0;
        for (int k = 0; k < count; k++) {
            bytes += lengths[groups[k]];
        }
        StringVector out = new StringVector(type, count, Math.max(16, bytes));
        for (int k = 0; k < count; k++) {
            int g = groups[k];
            if (nulls[g] == 1) {
                out.putNull(k);
            } else {
                out.put(k, heap, starts[g], lengths[g]);
            }
        }
        return out.seal();
    }
}
