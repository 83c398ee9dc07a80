package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;

import java.util.Arrays;

/**
 * The group table of an aggregate without group keys: every row belongs to group 0, which exists
 * from the start, so that an empty input still yields its one row (count 0, sum NULL).
 *
 * <p>Not threadsafe (stateless in fact; see {@link GroupTable}).
 */
final class GlobalGroupTable extends GroupTable {

    private static final ColumnVector[] NO_KEYS = new ColumnVector[0];

    @Override
    int groupCount() {
        return 1;
    }

    @Override
    void findOrInsert(ColumnVector[] keys, Batch batch, int[] gids) {
        Arrays.fill(gids, 0, batch.size(), 0);
    }

    @Override
    ColumnVector[] keys(int from, int count) {
        return NO_KEYS;
    }

    /** The one group is all there ever is. */
    @Override
    int groupsAfter(int rows) {
        return 1;
    }

    @Override
    long bytesForMerge(int groups, GroupTable other) {
        return 0;
    }

    @Override
    ColumnVector[] keys(int[] gids, int count) {
        return NO_KEYS;
    }

    @Override
    long bytes() {
        return 0;
    }

    @Override
    long bytesFor(int groups, ColumnVector[] keys, Batch batch) {
        return 0;
    }
}
