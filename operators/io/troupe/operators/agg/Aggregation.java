package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.types.DataType;
import io.troupe.operators.memory.HeapArrays;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A hash aggregation in progress: the {@link GroupTable} that numbers the groups and one
 * {@link AggregateState} per aggregate, indexed by those numbers. A worker's partial aggregation
 * and the shared, merged one are both instances of this class.
 *
 * <p>Memory: before a batch (or a merge) may grow the table or the states, the bound their
 * {@code bytesFor} methods give is reserved from the aggregate's {@link MemoryReservation}; the
 * {@code try} methods add nothing and return false when it is refused, so that the caller can
 * spill. The bound moves only when a batch could pass a capacity, so the reservation is asked a
 * few dozen times over a table's life, never per row. While a batch grows the arrays, the arrays
 * they replace are reserved too (they live until their copies are made), and a merge's own
 * scratch (its map of group ids) while it runs; per-batch scratch of a batch's size is not counted.
 *
 * <p>Its {@link AggregateStep} says what it takes in (rows, or in a FINAL step partial states)
 * and gives out (values, or in a PARTIAL step partial states).
 *
 * <p>Not threadsafe: owned by one worker until its {@code finish()}; then read-only while merge
 * units (each on one worker) read it and write only their own merged aggregations; read-only
 * (and readable by several threads) once {@link #finish()} ran and the result was published.
 */
final class Aggregation implements ResultPart {

    /** Groups re-inserted per step when merging: one batch's worth of keys. */
    static final int MERGE_CHUNK = 2048;
    /**
     * Groups per block of partial rows in a spill file: what a merge reserves for at a time, so
     * that several workers merging under a small budget each find room for one.
     */
    static final int SPILL_CHUNK = 256;

    private final GroupTable table;
    private final AggregateState[] states;
    private final int keyCount;
    private final AggregateStep step;
    /** Per aggregate, the input column where its partial state starts (FINAL step), or -1: it takes its argument. */
    private final int[] inputAt;
    private final MemoryReservation memory;
    /** Whether a refusal makes the caller spill: it then leaves the budget's last share to what cannot. */
    private final boolean spillable;
    /** Bytes reserved for the arrays: at least what they take. */
    private long reserved;
    /** What the last refused reservation asked for, for the error when nothing else can be done. */
    private long refused;
    private int[] gids = new int[0];
    private int[] partialAt;

    Aggregation(List<DataType> keyTypes, List<AggregateSpec> aggregates, AggregateStep step, int[] inputAt,
                MemoryReservation memory, boolean spillable) {
        this.memory = memory;
        this.spillable = spillable;
        this.step = step;
        this.inputAt = inputAt;
        keyCount = keyTypes.size();
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

    @Override
    public int rowCount() {
        return table.groupCount();
    }

    /**
     * Adds the live rows of {@code batch}, or nothing when the memory they may take is refused.
     *
     * @param keys   the evaluated group keys, aligned with the batch
     * @param inputs per aggregate, its evaluated {@link AggregateSpec#inputs} (null for the aggregates that
     *               combine partial states, which come from the batch's columns)
     * @return false when refused ({@link #refusal()} says how much was asked)
     */
    boolean tryAdd(Batch batch, ColumnVector[] keys, ColumnVector[][] inputs) {
        int n = batch.size();
        if (n == 0) {
            return true;
        }
        ColumnVector[] partials = partialInputs(inputAt, batch);
        int groups = table.groupsAfter(n);
        long bytes = table.bytesFor(groups, keys, batch);
        for (int a = 0; a < states.length; a++) {
            bytes += inputAt[a] < 0 ? states[a].bytesAfterUpdate(groups, inputs[a], batch)
                    : states[a].bytesAfterPartial(groups, partials, inputAt[a], n);
        }
        long step = reserve(bytes, 0);
        if (step < 0) {
            return false;
        }
        try {
            gids = Inputs.room(gids, n);
            table.findOrInsert(keys, batch, gids);
            int after = table.groupCount();
            for (int a = 0; a < states.length; a++) {
                states[a].ensureCapacity(after);
                add(states[a], inputAt[a], inputs[a], partials, batch, gids);
            }
        } finally {
            memory.shrink(step);
        }
        return true;
    }

    /** Adds a batch's live rows to a state: from its inputs, or by combining its partial states at {@code at}. */
    private static void add(AggregateState state, int at, ColumnVector[] inputs, ColumnVector[] partials, Batch batch,
                            int[] gids) {
        if (at < 0) {
            state.update(inputs, batch, gids);
        } else {
            state.combinePartial(partials, at, batch.size(), gids);
        }
    }

    /**
     * The batch's columns as dense vectors of its live rows from the first partial state on (as
     * {@link AggregateState#combinePartial} reads them), or null when no aggregate combines partials.
     */
    private static ColumnVector[] partialInputs(int[] inputAt, Batch batch) {
        int first = Integer.MAX_VALUE;
        for (int at : inputAt) {
            first = at < 0 ? first : Math.min(first, at);
        }
        if (first == Integer.MAX_VALUE) {
            return null;
        }
        int[] sel = batch.selection();
        ColumnVector[] columns = new ColumnVector[batch.columnCount()];
        for (int c = first; c < columns.length; c++) {
            columns[c] = sel == null ? batch.column(c) : batch.column(c).gather(sel, batch.size());
        }
        return columns;
    }

    /**
     * Merges groups {@code theirs[from .. to)} of {@code other} (another worker's partial
     * aggregation over the same keys and aggregates) into this one, or nothing when the memory is
     * refused: their keys are looked up here a chunk at a time, then every aggregate state
     * combines through the resulting map of group ids (held while it runs).
     */
    boolean tryAbsorb(Aggregation other, int[] theirs, int from, int to) {
        int count = to - from;
        int groups = table.groupsAfter(count);
        long bytes = table.bytesForMerge(groups, other.table);
        for (int a = 0; a < states.length; a++) {
            bytes += states[a].bytesAfterCombine(groups, other.states[a], theirs, from, count);
        }
        long step = reserve(bytes, HeapArrays.bytes(count, Integer.BYTES));
        if (step < 0) {
            return false;
        }
        try {
            int[] mine = new int[count];
            int[] chunk = new int[Math.min(MERGE_CHUNK, count)];
            int[] chunkGids = new int[chunk.length];
            for (int start = 0; start < count; start += MERGE_CHUNK) {
                int n = Math.min(MERGE_CHUNK, count - start);
                System.arraycopy(theirs, from + start, chunk, 0, n);
                ColumnVector[] keys = other.table.keys(chunk, n);
                table.findOrInsert(keys, Batch.of(n, keys), chunkGids);
                System.arraycopy(chunkGids, 0, mine, start, n);
            }
            combine(other, theirs, from, mine, count);
            return true;
        } finally {
            memory.shrink(step);
        }
    }

    /** Merges every group of {@code other}, or nothing when the memory is refused; {@code other} is spent. */
    boolean tryAbsorb(Aggregation other) {
        int count = other.groupCount();
        return tryAbsorb(other, Inputs.range(0, count), 0, count);
    }

    private void combine(Aggregation other, int[] theirs, int from, int[] mine, int count) {
        int groups = table.groupCount();
        for (int a = 0; a < states.length; a++) {
            states[a].ensureCapacity(groups);
            states[a].combine(other.states[a], theirs, from, mine, count);
        }
    }

    /**
     * Merges a batch of partial rows (dense: the keys, then each state's {@link #partialTypes}
     * columns, as {@link #partialRows} wrote them), or nothing when the memory is refused.
     */
    boolean tryAbsorbPartial(Batch rows) {
        int n = rows.size();
        if (n == 0) {
            return true;
        }
        ColumnVector[] columns = new ColumnVector[rows.columnCount()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = rows.column(c);
        }
        ColumnVector[] keys = Arrays.copyOf(columns, keyCount);
        int[] at = partialColumns();
        int groups = table.groupsAfter(n);
        long bytes = table.bytesFor(groups, keys, rows);
        for (int a = 0; a < states.length; a++) {
            bytes += states[a].bytesAfterPartial(groups, columns, at[a], n);
        }
        long step = reserve(bytes, 0);
        if (step < 0) {
            return false;
        }
        try {
            gids = Inputs.room(gids, n);
            table.findOrInsert(keys, rows, gids);
            int after = table.groupCount();
            for (int a = 0; a < states.length; a++) {
                states[a].ensureCapacity(after);
                states[a].combinePartial(columns, at[a], n, gids);
            }
        } finally {
            memory.shrink(step);
        }
        return true;
    }

    /** The first column of each aggregate's state in a partial row (made on first use: only spilling needs it). */
    private int[] partialColumns() {
        if (partialAt == null) {
            int[] at = new int[states.length];
            int column = keyCount;
            for (int a = 0; a < states.length; a++) {
                at[a] = column;
                column += states[a].partialTypes().length;
            }
            partialAt = at;
        }
        return partialAt;
    }

    /** The columns of a partial row: the group keys, then each aggregate's partial state. */
    DataType[] partialTypes(List<DataType> keyTypes) {
        List<DataType> types = new ArrayList<>(keyTypes);
        for (AggregateState state : states) {
            types.addAll(List.of(state.partialTypes()));
        }
        return types.toArray(new DataType[0]);
    }

    /** Groups {@code gids[0 .. count-1]} as partial rows (dense), to spill. */
    Batch partialRows(int[] gids, int count) {
        int[] at = partialColumns();
        ColumnVector[] columns = new ColumnVector[states.length == 0 ? keyCount
                : at[states.length - 1] + states[states.length - 1].partialTypes().length];
        System.arraycopy(table.keys(gids, count), 0, columns, 0, keyCount);
        for (int a = 0; a < states.length; a++) {
            states[a].partial(gids, count, columns, at[a]);
        }
        return Batch.of(count, columns);
    }

    /**
     * The live rows of {@code batch} as partial rows, each row a group of its own, with no table:
     * how a worker that cannot hold even one more batch in memory spills its rows as they are.
     * The states are one batch's scratch.
     */
    static Batch singletonRows(List<AggregateSpec> aggregates, int[] inputAt, Batch batch, ColumnVector[] keys,
                               ColumnVector[][] inputs) {
        int n = batch.size();
        int[] sel = batch.selection();
        ColumnVector[] partials = partialInputs(inputAt, batch);
        List<ColumnVector> columns = new ArrayList<>();
        for (ColumnVector key : keys) {
            columns.add(sel == null ? key : key.gather(sel, n));
        }
        int[] each = Inputs.range(0, n);
        for (int a = 0; a < aggregates.size(); a++) {
            AggregateState state = AggregateState.create(aggregates.get(a));
            state.ensureCapacity(n);
            add(state, inputAt[a], inputs[a], partials, batch, each);
            ColumnVector[] part = new ColumnVector[state.partialTypes().length];
            state.partial(each, n, part, 0);
            columns.addAll(List.of(part));
        }
        return Batch.of(n, columns.toArray(new ColumnVector[0]));
    }

    /**
     * Reserves what one step (a batch, a merge) needs: the arrays' bound after it, which stays
     * reserved, and for the step only its {@code scratch} and, when the bound grows, the arrays it
     * replaces (what was reserved so far), which live until their copies are made.
     *
     * @return the bytes to give back after the step, or -1 (nothing reserved) when refused
     */
    private long reserve(long bytes, long scratch) {
        long growth = Math.max(0, bytes - reserved);
        long copied = growth > 0 ? reserved : 0;
        long asked = growth + copied + scratch;
        if (asked > 0 && !(spillable ? memory.tryGrowSpillable(asked) : memory.tryGrow(asked))) {
            refused = asked;
            return -1;
        }
        reserved += growth;
        return copied + scratch;
    }

    /** The budget's error for the last refused reservation (for a caller that cannot spill). */
    QueryFailedException refusal() {
        return memory.overBudget(refused);
    }

    /** Gives back what this aggregation reserved; it must not be used afterwards (it spilled, or merged into another). */
    void release() {
        memory.shrink(reserved);
        reserved = 0;
    }

    /** The keys of groups {@code from .. from+count-1}, one dense vector per key column. */
    ColumnVector[] keys(int from, int count) {
        return table.keys(from, count);
    }

    /**
     * Completes every aggregate (checks that need all input, derived counts); once, before output.
     * Not the partial states a PARTIAL step gives out: only their combination must pass the checks.
     */
    void finish() {
        if (step == AggregateStep.PARTIAL) {
            return;
        }
        for (AggregateState state : states) {
            state.finish(table.groupCount());
        }
    }

    /** Output rows {@code from .. from+count-1}: the keys, then the aggregates (or their partial states). Read-only. */
    Batch output(int from, int count) {
        if (step == AggregateStep.PARTIAL) {
            return partialRows(Inputs.range(from, count), count);
        }
        ColumnVector[] keys = table.keys(from, count);
        ColumnVector[] columns = new ColumnVector[keys.length + states.length];
        System.arraycopy(keys, 0, columns, 0, keys.length);
        for (int a = 0; a < states.length; a++) {
            columns[keys.length + a] = states[a].result(from, count);
        }
        return Batch.of(count, columns);
    }

    @Override
    public int morselCount(int batchSize) {
        return (table.groupCount() + batchSize - 1) / batchSize;
    }

    @Override
    public Batch morsel(int m, int batchSize) {
        int from = m * batchSize;
        return output(from, Math.min(batchSize, table.groupCount() - from));
    }
}
