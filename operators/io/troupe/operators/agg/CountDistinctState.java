package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;

import java.util.Arrays;
import java.util.List;

/**
 * count(DISTINCT x): the distinct sets of all groups in one {@link GenericKeyTable} keyed by
 * (group id, x), which holds each pair once. Two workers' sets merge by re-inserting the other's
 * pairs with their group ids mapped; the count per group is taken once, when the groups are
 * complete, by counting the pairs of each group. NULL values of x are never inserted, so a group
 * with no non-NULL input counts 0.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class CountDistinctState extends AggregateState {

    /** Pairs re-inserted per step when merging or counting. */
    private static final int CHUNK = 2048;

    private final GroupTable pairs;
    private long[] counts = new long[0];
    private int[] pairGids;
    private int[] selection;

    CountDistinctState(AggregateSpec spec) {
        super(spec);
        this.pairs = new GenericKeyTable(List.of(DataType.INT32, spec.argument().type()));
    }

    @Override
    void ensureCapacity(int groups) {
        // The counts are sized by finish(); the pairs grow by themselves.
    }

    @Override
    void update(ColumnVector argument, Batch batch, int[] gids) {
        int n = batch.size();
        int[] sel = batch.selection();
        ColumnVector x = sel == null ? argument : argument.gather(sel, n);
        Batch dense = Batch.of(n, new IntVector(DataType.INT32, gids), x);
        if (x.mayHaveNulls()) {
            int[] keep = selection = Inputs.room(selection, n);
            int kept = 0;
            for (int i = 0; i < n; i++) {
                keep[kept] = i;
                kept += x.isNull(i) ? 0 : 1;
            }
            dense = dense.withSelection(keep, kept);
        }
        insert(dense);
    }

    private void insert(Batch batch) {
        pairGids = Inputs.room(pairGids, batch.size());
        pairs.findOrInsert(new ColumnVector[] {batch.column(0), batch.column(1)}, batch, pairGids);
    }

    @Override
    void combine(AggregateState other, int[] gidMap, int otherGroups) {
        GroupTable theirs = ((CountDistinctState) other).pairs;
        int total = theirs.groupCount();
        for (int from = 0; from < total; from += CHUNK) {
            int count = Math.min(CHUNK, total - from);
            ColumnVector[] pair = theirs.keys(from, count);
            int[] ids = ((IntVector) pair[0]).values();
            for (int k = 0; k < count; k++) {
                ids[k] = gidMap[ids[k]];
            }
            insert(Batch.of(count, pair));
        }
    }

    @Override
    void finish(int groups) {
        counts = new long[groups];
        int total = pairs.groupCount();
        for (int from = 0; from < total; from += CHUNK) {
            int count = Math.min(CHUNK, total - from);
            int[] ids = ((IntVector) pairs.keys(from, count)[0]).values();
            for (int k = 0; k < count; k++) {
                counts[ids[k]]++;
            }
        }
    }

    @Override
    ColumnVector result(int from, int count) {
        return new LongVector(DataType.INT64, Arrays.copyOfRange(counts, from, from + count));
    }
}
