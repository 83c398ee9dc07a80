package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;

import java.util.List;

/**
 * Maps group keys to dense group ids 0, 1, 2 ... in order of first appearance, and stores each
 * group's key once. Three shapes, chosen by {@link #create} from the key types:
 * <ul>
 *   <li>no keys: one group, id 0, that exists even before any row arrives ({@link GlobalGroupTable});</li>
 *   <li>one INT32, DATE, INT64 or DECIMAL key: open addressing over a {@code long[]} holding the
 *       keys themselves, no generic comparison ({@link LongKeyTable}, the fast path);</li>
 *   <li>anything else: salted slots and per-column key storage, probed a batch at a time with
 *       one tight loop per key column ({@link GenericKeyTable}).</li>
 * </ul>
 * NULL keys are equal to each other: they form one group (per combination of the other keys).
 *
 * <p>Memory: {@link #bytesFor} bounds, before a batch, what the table's arrays (slots and stored
 * keys) will take after it, so that its {@link Aggregation} reserves that first. Per-batch scratch
 * (a batch's worth of hashes and positions) is not counted.
 *
 * <p>Not threadsafe: owned by one worker, or by the shared state under its lock.
 */
abstract class GroupTable {

    /** The table for keys of {@code keyTypes}. */
    static GroupTable create(List<DataType> keyTypes) {
        if (keyTypes.isEmpty()) {
            return new GlobalGroupTable();
        }
        if (keyTypes.size() == 1) {
            PhysicalType layout = keyTypes.get(0).physical();
            if (layout == PhysicalType.INT || layout == PhysicalType.LONG) {
                return new LongKeyTable(keyTypes.get(0));
            }
        }
        return new GenericKeyTable(keyTypes);
    }

    /** Groups so far; their ids are 0 .. groupCount()-1. */
    abstract int groupCount();

    /**
     * Finds or creates the group of each live row of {@code batch}: {@code gids[i]} receives the
     * group of the i-th live row.
     *
     * @param keys the key columns, aligned with the batch's physical rows
     */
    abstract void findOrInsert(ColumnVector[] keys, Batch batch, int[] gids);

    /** The keys of groups {@code from .. from+count-1} as dense vectors, one per key column. */
    abstract ColumnVector[] keys(int from, int count);

    /** The keys of groups {@code gids[0 .. count-1]} as dense vectors, one per key column. */
    abstract ColumnVector[] keys(int[] gids, int count);

    /** At most the groups after {@code rows} more rows (each may be a new group). */
    int groupsAfter(int rows) {
        return (int) Math.min(Integer.MAX_VALUE, (long) groupCount() + rows);
    }

    /** Bytes the table's arrays take now. */
    abstract long bytes();

    /**
     * At least the bytes the table's arrays take after {@link #findOrInsert} of {@code batch} (with
     * {@code keys}) when it then holds at most {@code groups} groups.
     */
    abstract long bytesFor(int groups, ColumnVector[] keys, Batch batch);

    /** As {@link #bytesFor}, for inserting every key {@code other} (of the same key types) holds. */
    abstract long bytesForMerge(int groups, GroupTable other);
}
