package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.Arrays;
import java.util.List;

/**
 * count(DISTINCT x): the distinct sets of all groups in one {@link GenericKeyTable} keyed by
 * (group id, x), which holds each pair once. Two workers' sets merge by re-inserting the other's
 * pairs with their group ids mapped; the count per group is taken once, when the groups are
 * complete, by counting the pairs of each group. NULL values of x are never inserted, so a group
 * with no non-NULL input counts 0.
 *
 * <p>It does not spill (a group's state is a set of pairs, not a row of columns): a hash aggregate
 * with count(DISTINCT) fails over the memory budget, and says so ({@link HashAggregateSink}). Only
 * count(DISTINCT) beside other aggregates comes here: of one x alone, the plan compiles it to two
 * plain aggregates, which spill (the plan's AggregateNode).
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class CountDistinctState extends AggregateState {

    /** Pairs re-inserted per step when merging or counting. */
    private static final int CHUNK = 2048;

    private final GenericKeyTable pairs;
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

    /** Scans all of the other's pairs once, keeping those of the groups in {@code theirs}. */
    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        int[] gidMap = new int[maxGroup(theirs, theirsFrom, count) + 1];
        Arrays.fill(gidMap, -1);
        for (int k = 0; k < count; k++) {
            gidMap[theirs[theirsFrom + k]] = mine[k];
        }
        GenericKeyTable theirPairs = ((CountDistinctState) other).pairs;
        int total = theirPairs.groupCount();
        int[] keep = new int[Math.min(CHUNK, total)];
        for (int from = 0; from < total; from += CHUNK) {
            int n = Math.min(CHUNK, total - from);
            ColumnVector[] pair = theirPairs.keys(from, n);
            int[] ids = ((IntVector) pair[0]).values();
            int kept = 0;
            for (int k = 0; k < n; k++) {
                int to = ids[k] < gidMap.length ? gidMap[ids[k]] : -1;
                ids[k] = to;
                keep[kept] = k;
                kept += to < 0 ? 0 : 1;
            }
            insert(Batch.of(n, pair).withSelection(keep, kept));
        }
    }

    private static int maxGroup(int[] gids, int from, int count) {
        int max = -1;
        for (int k = 0; k < count; k++) {
            max = Math.max(max, gids[from + k]);
        }
        return max;
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        throw doesNotSpill();
    }

    @Override
    DataType[] partialTypes() {
        throw doesNotSpill();
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        throw doesNotSpill();
    }

    private IllegalStateException doesNotSpill() {
        return new IllegalStateException(spec.text() + " has no partial rows: count(DISTINCT) does not spill");
    }

    /** The pairs, and the counts that {@link #finish} makes for every group. */
    @Override
    long bytesFor(int groups) {
        return pairs.bytes() + HeapArrays.bytes(groups, Long.BYTES);
    }

    /** Every live row may be a new pair; the group id column of a pair is fixed-width and needs no vector. */
    @Override
    long bytesAfterUpdate(int groups, ColumnVector argument, Batch batch) {
        int pairsAfter = (int) Math.min(Integer.MAX_VALUE, (long) pairs.groupCount() + batch.size());
        return pairs.bytesFor(pairsAfter, new ColumnVector[] {null, argument}, batch)
                + HeapArrays.bytes(groups, Long.BYTES);
    }

    @Override
    long bytesAfterCombine(int groups, AggregateState other, int[] theirs, int theirsFrom, int count) {
        GenericKeyTable theirPairs = ((CountDistinctState) other).pairs;
        int pairsAfter = (int) Math.min(Integer.MAX_VALUE, (long) pairs.groupCount() + theirPairs.groupCount());
        return pairs.bytesForMerge(pairsAfter, theirPairs) + HeapArrays.bytes(groups, Long.BYTES);
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
