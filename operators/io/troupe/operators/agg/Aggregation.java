package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

import java.util.List;

/**
 * A hash aggregation in progress: the {@link GroupTable} that numbers the groups and one
 * {@link AggregateState} per aggregate, indexed by those numbers. A worker's partial aggregation
 * and the shared, merged one are both instances of this class.
 *
 * <p>Not threadsafe: owned by one worker until its {@code finish()}; then read-only while merge
 * units (each on one worker) read it and write only their own merged aggregations; read-only
 * (and readable by several threads) once {@link #finish()} ran and the result was published.
 */
final class Aggregation {

    /** Groups re-inserted per step when merging: one batch's worth of keys. */
    private static final int MERGE_CHUNK = 2048;

    private final GroupTable table;
    private final AggregateState[] states;
    private int[] gids = new int[0];

    Aggregation(List<DataType> keyTypes, List<AggregateSpec> aggregates) {
        table = GroupTable.create(keyTypes);
        states = new AggregateState[aggregates.size()];
        for (int a = 0; a < states.length; a++) {
            states[a] = AggregateState.create(aggregates.get(a));
            states[a].ensureCapacity(table.groupCount());
        }
    }

    int groupCount() {
        return table.groupCount();
    }

    /**
     * Adds the live rows of {@code batch}.
     *
     * @param keys      the evaluated group keys, aligned with the batch
     * @param arguments the evaluated aggregate arguments (null entries for count(*))
     */
    void add(Batch batch, ColumnVector[] keys, ColumnVector[] arguments) {
        int n = batch.size();
        if (n == 0) {
            return;
        }
        gids = Inputs.room(gids, n);
        table.findOrInsert(keys, batch, gids);
        int groups = table.groupCount();
        for (int a = 0; a < states.length; a++) {
            states[a].ensureCapacity(groups);
            states[a].update(arguments[a], batch, gids);
        }
    }

    /**
     * Merges groups {@code theirs[from .. to)} of {@code other} (another worker's partial
     * aggregation over the same keys and aggregates) into this one: they are looked up here by
     * key, a chunk at a time, then every aggregate state combines through the resulting map of
     * group ids. {@code otherKeys} are the keys of all of other's groups, by group id.
     */
    void absorb(Aggregation other, ColumnVector[] otherKeys, int[] theirs, int from, int to) {
        int count = to - from;
        int[] mine = new int[count];
        Batch all = Batch.of(other.groupCount(), otherKeys);
        int[] selection = new int[Math.min(MERGE_CHUNK, count)];
        int[] chunkGids = new int[selection.length];
        for (int start = 0; start < count; start += MERGE_CHUNK) {
            int n = Math.min(MERGE_CHUNK, count - start);
            System.arraycopy(theirs, from + start, selection, 0, n);
            table.findOrInsert(otherKeys, all.withSelection(selection, n), chunkGids);
            System.arraycopy(chunkGids, 0, mine, start, n);
        }
        int groups = table.groupCount();
        for (int a = 0; a < states.length; a++) {
            states[a].ensureCapacity(groups);
            states[a].combine(other.states[a], theirs, from, mine, count);
        }
    }

    /** Merges every group of {@code other} into this one; {@code other} is spent. */
    void absorb(Aggregation other) {
        int theirs = other.groupCount();
        int[] all = new int[theirs];
        for (int g = 0; g < theirs; g++) {
            all[g] = g;
        }
        absorb(other, other.keys(0, theirs), all, 0, theirs);
    }

    /** The keys of groups {@code from .. from+count-1}, one dense vector per key column. */
    ColumnVector[] keys(int from, int count) {
        return table.keys(from, count);
    }

    /** Completes every aggregate (checks that need all input, derived counts); once, before output. */
    void finish() {
        for (AggregateState state : states) {
            state.finish(table.groupCount());
        }
    }

    /** Output rows {@code from .. from+count-1}: the group keys, then the aggregates. Read-only. */
    Batch output(int from, int count) {
        ColumnVector[] keys = table.keys(from, count);
        ColumnVector[] columns = new ColumnVector[keys.length + states.length];
        System.arraycopy(keys, 0, columns, 0, keys.length);
        for (int a = 0; a < states.length; a++) {
            columns[keys.length + a] = states[a].result(from, count);
        }
        return Batch.of(count, columns);
    }
}
