package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * The fast path of {@link GroupTable}: one INT32, DATE, INT64 or DECIMAL key. Open addressing with
 * linear probing over one {@code long[]} that interleaves each slot's key with its group id + 1
 * (0 marks an empty slot), so that a probe touches one cache line and compares two longs: no
 * hashing through column objects, no generic comparison. Keys are hashed with
 * {@link VectorHash#mix}, as VectorHash hashes integer columns.
 *
 * <p>The table doubles when it passes half full (linear probing degrades quickly beyond that);
 * it grows during a batch, row by row, so a large batch does not force a larger table than the
 * groups need. The NULL key is a group of its own that takes no slot.
 *
 * <p>Not threadsafe (see {@link GroupTable}).
 */
final class LongKeyTable extends GroupTable {

    /** Slots of a new table: 16 KiB, small enough for a worker that sees few groups. */
    private static final int INITIAL_SLOTS = 1024;

    private final DataType type;
    /** Slot p: key at [2p], group id + 1 at [2p + 1] (0: empty). */
    private long[] slots = new long[2 * INITIAL_SLOTS];
    private int mask = INITIAL_SLOTS - 1;
    private int occupied;
    private int growAt = INITIAL_SLOTS / 2;
    /** The key of each group, by group id: the output and the source of rehashing. */
    private long[] groupKeys = new long[INITIAL_SLOTS / 2];
    private int groups;
    private int nullGroup = -1;

    LongKeyTable(DataType type) {
        this.type = type;
    }

    @Override
    int groupCount() {
        return groups;
    }

    @Override
    void findOrInsert(ColumnVector[] keys, Batch batch, int[] gids) {
        ColumnVector column = keys[0];
        int n = batch.size();
        if (column instanceof IntVector v) {
            int[] values = v.values();
            if (!v.mayHaveNulls()) {
                for (int i = 0; i < n; i++) {
                    gids[i] = find(values[batch.row(i)]);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    int r = batch.row(i);
                    gids[i] = v.isNull(r) ? nullGroup() : find(values[r]);
                }
            }
        } else {
            LongVector v = (LongVector) column;
            long[] values = v.values();
            if (!v.mayHaveNulls()) {
                for (int i = 0; i < n; i++) {
                    gids[i] = find(values[batch.row(i)]);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    int r = batch.row(i);
                    gids[i] = v.isNull(r) ? nullGroup() : find(values[r]);
                }
            }
        }
    }

    private int find(long key) {
        long[] s = slots;
        int m = mask;
        int p = (int) VectorHash.mix(key) & m;
        while (true) {
            int at = p << 1;
            long g = s[at + 1];
            if (g == 0) {
                return insert(key, at);
            }
            if (s[at] == key) {
                return (int) g - 1;
            }
            p = (p + 1) & m;
        }
    }

    private int insert(long key, int at) {
        int gid = newGroup(key);
        slots[at] = key;
        slots[at + 1] = gid + 1;
        if (++occupied > growAt) {
            grow();
        }
        return gid;
    }

    private int nullGroup() {
        if (nullGroup < 0) {
            nullGroup = newGroup(0);
        }
        return nullGroup;
    }

    private int newGroup(long key) {
        if (groups == groupKeys.length) {
            groupKeys = Arrays.copyOf(groupKeys, groups * 2);
        }
        groupKeys[groups] = key;
        return groups++;
    }

    /** Doubles the slots and re-inserts every group from {@code groupKeys} (read in order). */
    private void grow() {
        int capacity = (mask + 1) * 2;
        long[] s = new long[2 * capacity];
        int m = capacity - 1;
        for (int g = 0; g < groups; g++) {
            if (g == nullGroup) {
                continue;
            }
            long key = groupKeys[g];
            int p = (int) VectorHash.mix(key) & m;
            while (s[(p << 1) + 1] != 0) {
                p = (p + 1) & m;
            }
            s[p << 1] = key;
            s[(p << 1) + 1] = g + 1;
        }
        slots = s;
        mask = m;
        growAt = capacity / 2;
    }

    @Override
    ColumnVector[] keys(int from, int count) {
        ColumnVector out;
        if (type.isIntBacked()) {
            int[] values = new int[count];
            for (int k = 0; k < count; k++) {
                values[k] = (int) groupKeys[from + k];
            }
            out = new IntVector(type, values);
        } else {
            out = new LongVector(type, Arrays.copyOfRange(groupKeys, from, from + count));
        }
        if (nullGroup >= from && nullGroup < from + count) {
            long[] validity = Validity.allValid(count);
            int k = nullGroup - from;
            validity[k >>> 6] &= ~(1L << k);
            out.setValidity(validity);
        }
        return new ColumnVector[] {out};
    }
}
