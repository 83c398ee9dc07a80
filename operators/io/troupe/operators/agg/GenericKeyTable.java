package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.types.DataType;

import java.util.Arrays;
import java.util.List;

/**
 * The general {@link GroupTable}: any number of key columns of any type. Keys live in one
 * {@link KeyColumn} per column, indexed by group id; the slots (open addressing, linear probing)
 * hold one {@code long} each: the upper 32 bits of the key's hash as a salt, and group id + 1 in
 * the lower 32 bits (0 marks an empty slot). The slot position comes from the hash's lower bits,
 * so salt and position are independent.
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

    private static final int INITIAL_SLOTS = 1024;
    private static final long GID_MASK = 0xFFFF_FFFFL;

    private final KeyColumn[] columns;
    private long[] slots = new long[INITIAL_SLOTS];
    private int mask = INITIAL_SLOTS - 1;
    /** Each group's full hash, by group id, for rehashing. */
    private long[] groupHashes = new long[INITIAL_SLOTS / 2];
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
            pos[i] = (int) h[i] & mask;
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
            long salt = h[i] >>> 32;
            int p = pos[i];
            while (true) {
                long entry = s[p];
                if (entry == 0) {
                    int gid = groups++;
                    s[p] = (salt << 32) | (gid + 1);
                    groupHashes[gid] = h[i];
                    gids[i] = gid;
                    newRows[created++] = i;
                    break;
                }
                if ((entry >>> 32) == salt) {
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
        if (needed > groupHashes.length) {
            groupHashes = Arrays.copyOf(groupHashes, Math.max(needed, groupHashes.length * 2));
        }
        for (KeyColumn column : columns) {
            column.ensureCapacity(needed);
        }
        if ((long) needed * 2 > mask + 1) {
            int capacity = mask + 1;
            while ((long) needed * 2 > capacity) {
                capacity *= 2;
            }
            rehash(capacity);
        }
    }

    private void rehash(int capacity) {
        long[] s = new long[capacity];
        int m = capacity - 1;
        for (int g = 0; g < groups; g++) {
            long hash = groupHashes[g];
            int p = (int) hash & m;
            while (s[p] != 0) {
                p = (p + 1) & m;
            }
            s[p] = ((hash >>> 32) << 32) | (g + 1);
        }
        slots = s;
        mask = m;
    }

    @Override
    ColumnVector[] keys(int from, int count) {
        ColumnVector[] out = new ColumnVector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            out[c] = columns[c].output(from, count);
        }
        return out;
    }
}
