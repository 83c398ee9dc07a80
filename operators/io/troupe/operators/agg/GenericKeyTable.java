package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;
import java.util.List;

/**
 * The general {@link GroupTable}: any number of key columns of any type. Keys live in one
 * {@link KeyColumn} per column, indexed by group id; the slots (open addressing, linear probing)
 * hold one {@code long} each: the upper 32 bits of the key's hash, and group id + 1 in the lower
 * 32 bits (0 marks an empty slot). The hash's top bits give the home slot, so the slots alone
 * suffice to rehash, and rehashing them in order writes the doubled table almost sequentially
 * (see {@link LongKeyTable}); the rest of the upper 32 bits is a salt that spares most key
 * comparisons with groups of other keys.
 *
 * <p>A batch is probed in rounds, DuckDB-style, so that key comparison runs a column at a time:
 * <ol>
 *   <li>each pending row walks from its slot to an empty slot, which it claims for a new group,
 *       or to a slot with its salt, whose group becomes its candidate;</li>
 *   <li>the keys of the new groups are appended, column by column;</li>
 *   <li>candidates are compared with their rows, column by column; a mismatch moves the row one
 *       slot on, pending for the next round.</li>
 * </ol>
 * Two rows of one batch with the same new key meet in round 1: the first claims the slot, the
 * second takes that slot's group as its candidate, and compares equal after step 2 stored the key.
 *
 * <p>The slots double before a batch could fill them past half.
 *
 * <p>Not threadsafe (see {@link GroupTable}).
 */
final class GenericKeyTable extends GroupTable {

    private static final int INITIAL_BITS = 10;
    private static final long GID_MASK = 0xFFFF_FFFFL;
    private static final long HASH_MASK = ~GID_MASK;

    private final KeyColumn[] columns;
    private long[] slots = new long[1 << INITIAL_BITS];
    private int mask = (1 << INITIAL_BITS) - 1;
    /** 64 - log2(slots): a hash's top bits, shifted down by this, are its home slot. */
    private int shift = 64 - INITIAL_BITS;
    private int groups;

    // Per-batch scratch, indexed by live row (hashes, positions) or by list entry.
    private long[] hashes;
    private int[] positions;
    private int[] pending;
    private int[] candidateRows;
    private int[] candidateGids;
    private int[] newRows;
    private boolean[] match;

    GenericKeyTable(List<DataType> keyTypes) {
        columns = new KeyColumn[keyTypes.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = KeyColumn.create(keyTypes.get(c));
        }
    }

    @Override
    int groupCount() {
        return groups;
    }

    @Override
    void findOrInsert(ColumnVector[] keys, Batch batch, int[] gids) {
        int n = batch.size();
        if (n == 0) {
            return;
        }
        prepare(n);
        long[] h = hashes;
        for (int c = 0; c < keys.length; c++) {
            VectorHash.hash(keys[c], batch, h, c == 0);
        }
        int[] pos = positions;
        int[] todo = pending;
        for (int i = 0; i < n; i++) {
            pos[i] = (int) (h[i] >>> shift);
            todo[i] = i;
        }
        int todoCount = n;
        while (todoCount > 0) {
            todoCount = round(keys, batch, gids, todoCount);
        }
    }

    /** One probe round over {@code pending[0..todoCount)}; returns how many rows stay pending. */
    private int round(ColumnVector[] keys, Batch batch, int[] gids, int todoCount) {
        long[] s = slots;
        int m = mask;
        long[] h = hashes;
        int[] pos = positions;
        int[] todo = pending;
        int candidates = 0;
        int created = 0;
        int firstGid = groups;
        for (int t = 0; t < todoCount; t++) {
            int i = todo[t];
            long salt = h[i] & HASH_MASK;
            int p = pos[i];
            while (true) {
                long entry = s[p];
                if (entry == 0) {
                    int gid = groups++;
                    s[p] = salt | (gid + 1);
                    gids[i] = gid;
                    newRows[created++] = i;
                    break;
                }
                if ((entry & HASH_MASK) == salt) {
                    candidateRows[candidates] = i;
                    candidateGids[candidates++] = (int) (entry & GID_MASK) - 1;
                    pos[i] = p;
                    break;
                }
                p = (p + 1) & m;
            }
        }
        if (created > 0) {
            for (int c = 0; c < columns.length; c++) {
                columns[c].append(keys[c], batch, newRows, created, firstGid);
            }
        }
        if (candidates == 0) {
            return 0;
        }
        Arrays.fill(match, 0, candidates, true);
        for (int c = 0; c < columns.length; c++) {
            columns[c].compare(keys[c], batch, candidateRows, candidateGids, candidates, match);
        }
        int stillPending = 0;
        for (int k = 0; k < candidates; k++) {
            int i = candidateRows[k];
            if (match[k]) {
                gids[i] = candidateGids[k];
            } else {
                pos[i] = (pos[i] + 1) & m;
                todo[stillPending++] = i;
            }
        }
        return stillPending;
    }

    /** Sizes the scratch for {@code n} rows, and the slots and key storage for n more groups. */
    private void prepare(int n) {
        if (hashes == null || hashes.length < n) {
            int size = Math.max(n, 64);
            hashes = new long[size];
            positions = new int[size];
            pending = new int[size];
            candidateRows = new int[size];
            candidateGids = new int[size];
            newRows = new int[size];
            match = new boolean[size];
        }
        int needed = groups + n;
        for (KeyColumn column : columns) {
            column.ensureCapacity(needed);
        }
        int bits = 64 - shift;
        while ((long) needed * 2 > 1L << bits) {
            bits++;
        }
        if (bits != 64 - shift) {
            rehash(bits);
        }
    }

    /** Re-inserts the slots in order into a table of 2^bits slots; the entries carry their hashes. */
    private void rehash(int bits) {
        if (bits > 31) {
            throw new IllegalStateException("too many groups for one hash table: " + groups);
        }
        long[] s = new long[1 << bits];
        int m = s.length - 1;
        int sh = 64 - bits;
        for (long entry : slots) {
            if (entry != 0) {
                int p = (int) (entry >>> sh);
                while (s[p] != 0) {
                    p = (p + 1) & m;
                }
                s[p] = entry;
            }
        }
        slots = s;
        mask = m;
        shift = sh;
    }

    @Override
    long bytes() {
        long bytes = HeapArrays.bytes(slots.length, Long.BYTES);
        for (KeyColumn column : columns) {
            bytes += column.bytesFor(0, 0);
        }
        return bytes;
    }

    /** The slots as {@link #prepare} sizes them for the batch; the key columns' bound for its values. */
    @Override
    long bytesFor(int groups, ColumnVector[] keys, Batch batch) {
        long bytes = slotBytesFor(groups);
        for (int c = 0; c < columns.length; c++) {
            bytes += columns[c].bytesFor(groups, columns[c].valueBytes(keys[c], batch));
        }
        return bytes;
    }

    @Override
    long bytesForMerge(int groups, GroupTable other) {
        KeyColumn[] theirs = ((GenericKeyTable) other).columns;
        long bytes = slotBytesFor(groups);
        for (int c = 0; c < columns.length; c++) {
            bytes += columns[c].bytesFor(groups, theirs[c].storedValueBytes());
        }
        return bytes;
    }

    private long slotBytesFor(int groups) {
        long capacity = slots.length;
        while ((long) groups * 2 > capacity) {
            capacity *= 2;
        }
        return HeapArrays.bytes(capacity, Long.BYTES);
    }

    @Override
    ColumnVector[] keys(int from, int count) {
        return keys(Inputs.range(from, count), count);
    }

    @Override
    ColumnVector[] keys(int[] gids, int count) {
        ColumnVector[] out = new ColumnVector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            out[c] = columns[c].output(gids, count);
        }
        return out;
    }
}
