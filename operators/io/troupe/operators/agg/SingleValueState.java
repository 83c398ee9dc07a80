package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * single_value(x), Calcite's SINGLE_VALUE: the aggregate it wraps around a scalar subquery that is not known to
 * return at most one row. The value of a group's one row (NULL when that row's x is NULL), NULL for a group of
 * no row, and a failed query once a group has a second row, with PostgreSQL's message ({@link #TOO_MANY_ROWS}).
 *
 * <p>A count of rows per group (NULL values counted: a second row is an error whatever it holds) beside the
 * state of min(x), which over at most one row is that row's value. Partials from workers and spilled rows add
 * their counts, so two partials of a row each fail as one partial of two rows does; the check runs after every
 * update and merge, so the error comes as soon as a worker sees the second row.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
final class SingleValueState extends AggregateState {

    /** PostgreSQL's words (its SQLSTATE 21000, cardinality violation); DuckDB says the same, capitalised. */
    static final String TOO_MANY_ROWS = "more than one row returned by a subquery used as an expression";

    private final AggregateState value;
    private long[] counts = new long[0];

    SingleValueState(AggregateSpec spec) {
        super(spec);
        this.value = AggregateState.create(new AggregateSpec(AggregateFunction.MIN, spec.argument(), false,
                spec.resultType(), spec.text()));
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > counts.length) {
            counts = Arrays.copyOf(counts, grow(counts.length, groups));
        }
        value.ensureCapacity(groups);
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        for (int i = 0, n = batch.size(); i < n; i++) {
            check(++counts[gids[i]]);
        }
        value.update(inputs, batch, gids);
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        SingleValueState o = (SingleValueState) other;
        for (int k = 0; k < count; k++) {
            check(counts[mine[k]] += o.counts[theirs[theirsFrom + k]]);
        }
        value.combine(o.value, theirs, theirsFrom, mine, count);
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        long[] theirCounts = ((LongVector) columns[at]).values();
        for (int k = 0; k < count; k++) {
            check(counts[mine[k]] += theirCounts[k]);
        }
        value.combinePartial(columns, at + 1, count, mine);
    }

    private static void check(long rows) {
        if (rows > 1) {
            throw new QueryDataException(QueryDataException.Kind.TOO_MANY_ROWS, TOO_MANY_ROWS);
        }
    }

    /** The row count, then min(x)'s columns. */
    @Override
    DataType[] partialTypes() {
        DataType[] theirs = value.partialTypes();
        DataType[] types = new DataType[theirs.length + 1];
        types[0] = DataType.INT64;
        System.arraycopy(theirs, 0, types, 1, theirs.length);
        return types;
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        out[at] = new LongVector(DataType.INT64, Inputs.gather(counts, groups, count));
        value.partial(groups, count, out, at + 1);
    }

    @Override
    long bytesFor(int groups) {
        return HeapArrays.bytes(capacityFor(counts.length, groups), Long.BYTES) + value.bytesFor(groups);
    }

    @Override
    long bytesAfterUpdate(int groups, ColumnVector[] inputs, Batch batch) {
        return HeapArrays.bytes(capacityFor(counts.length, groups), Long.BYTES)
                + value.bytesAfterUpdate(groups, inputs, batch);
    }

    @Override
    long bytesAfterCombine(int groups, AggregateState other, int[] theirs, int theirsFrom, int count) {
        return HeapArrays.bytes(capacityFor(counts.length, groups), Long.BYTES)
                + value.bytesAfterCombine(groups, ((SingleValueState) other).value, theirs, theirsFrom, count);
    }

    @Override
    long bytesAfterPartial(int groups, ColumnVector[] columns, int at, int count) {
        return HeapArrays.bytes(capacityFor(counts.length, groups), Long.BYTES)
                + value.bytesAfterPartial(groups, columns, at + 1, count);
    }

    @Override
    void finish(int groups) {
        value.finish(groups);
    }

    @Override
    ColumnVector result(int from, int count) {
        return value.result(from, count);
    }
}
