package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

/**
 * The running state of one aggregate for every group, in primitive arrays indexed by group id
 * (counts in a {@code long[]}, sums in a {@code long[]} or {@code double[]} ...): no object per
 * group, no boxing. Every method works on a whole batch or a whole table, dispatching on types
 * once and looping tightly inside.
 *
 * <p>Life cycle: {@link #update} per batch of a worker, {@link #combine} to merge another worker's
 * state into this one, {@link #finish} once, then {@link #result} (read-only, may be called by
 * several readers at once).
 *
 * <p>Memory: {@link #bytesFor} and the {@code bytesAfter...} bounds say, before an update or a
 * combine, how large the state's arrays may grow in it, so that its {@link Aggregation} reserves
 * that first (once per batch, and only when the bound passes what it holds).
 *
 * <p>Spilling: {@link #partial} writes groups' states as columns of {@link #partialTypes} (exact:
 * 128-bit sums as two longs, counts, min/max with NULL where no value was seen), and
 * {@link #combinePartial} merges such rows back as {@link #combine} merges another state.
 *
 * <p>Not threadsafe until finished: owned by one worker, or by the shared state under its lock.
 */
abstract class AggregateState {

    protected final AggregateSpec spec;

    protected AggregateState(AggregateSpec spec) {
        this.spec = spec;
    }

    /** A new, empty state for {@code spec}, of the class that fits its function and argument type. */
    static AggregateState create(AggregateSpec spec) {
        AggregateFunction f = spec.function();
        if (f == AggregateFunction.OWN) {
            return new OwnAggregateState(spec);
        }
        TypeId arg = spec.argument() == null ? null : spec.argument().type().id();
        if (f == AggregateFunction.COUNT_STAR || f == AggregateFunction.COUNT) {
            return new CountState(spec);
        }
        if (f == AggregateFunction.SUM || f == AggregateFunction.AVG) {
            return arg == TypeId.FLOAT64 || arg == TypeId.FLOAT32 ? new DoubleSumState(spec) : new LongSumState(spec);
        }
        if (f == AggregateFunction.VAR_SAMP || f == AggregateFunction.VAR_POP || f == AggregateFunction.STDDEV_SAMP
                || f == AggregateFunction.STDDEV_POP) {
            return new VarianceState(spec);
        }
        if (f == AggregateFunction.SINGLE_VALUE) {
            return new SingleValueState(spec);
        }
        if (f.holistic()) {
            return new ValueListState(spec);
        }
        if (f.paired()) {
            return new CovarianceState(spec);
        }
        if (f == AggregateFunction.APPROX_COUNT_DISTINCT) {
            return new DistinctSketchState(spec);
        }
        if (f == AggregateFunction.APPROX_QUANTILE) {
            return new QuantileSketchState(spec);
        }
        if (arg == TypeId.FLOAT64 || arg == TypeId.FLOAT32) {
            return new DoubleMinMaxState(spec);
        }
        if (arg == TypeId.VARCHAR || arg == TypeId.BLOB) {
            return new StringMinMaxState(spec);
        }
        if (spec.argument().type().physical() == PhysicalType.INT128) {
            return new Int128MinMaxState(spec);
        }
        return new LongMinMaxState(spec);
    }

    /** Makes room for groups 0 .. groups-1; new groups start empty. */
    abstract void ensureCapacity(int groups);

    /**
     * Adds the live rows of {@code batch}: live row i belongs to group {@code gids[i]}.
     *
     * @param inputs the evaluated {@link AggregateSpec#inputs}, aligned with the batch: the argument first; none
     *               for count(*)
     */
    abstract void update(ColumnVector[] inputs, Batch batch, int[] gids);

    /**
     * Adds {@code other}'s group {@code theirs[theirsFrom + k]} into this state's group
     * {@code mine[k]}, for every k below {@code count} (a worker's partial result, or one partition
     * of it, into a merged one). The groups of {@code theirs} are distinct.
     */
    abstract void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count);

    /**
     * Merges partial rows {@code 0 .. count-1} (columns {@code columns[at ..]}, as {@link #partial}
     * wrote them) into this state's groups {@code mine[0 .. count-1]}, which may repeat (a FINAL
     * step's batch has several rows of a group). The columns are dense.
     */
    abstract void combinePartial(ColumnVector[] columns, int at, int count, int[] mine);

    /** The types of the columns {@link #partial} writes. */
    abstract DataType[] partialTypes();

    /** Writes the states of groups {@code groups[0 .. count-1]} as dense vectors into {@code out[at ..]}. */
    abstract void partial(int[] groups, int count, ColumnVector[] out, int at);

    /** Bytes the state's arrays take once they have room for {@code groups} groups (at least those they take now). */
    abstract long bytesFor(int groups);

    /** At least the bytes of the state's arrays after {@link #update} of {@code batch} into at most {@code groups} groups. */
    long bytesAfterUpdate(int groups, ColumnVector[] inputs, Batch batch) {
        return bytesFor(groups);
    }

    /** At least the bytes after {@link #combine} of those groups of {@code other} into at most {@code groups} groups. */
    long bytesAfterCombine(int groups, AggregateState other, int[] theirs, int theirsFrom, int count) {
        return bytesFor(groups);
    }

    /** At least the bytes after {@link #combinePartial} of those rows into at most {@code groups} groups. */
    long bytesAfterPartial(int groups, ColumnVector[] columns, int at, int count) {
        return bytesFor(groups);
    }

    /** Called once after the last update and combine, with the final group count. */
    void finish(int groups) {
    }

    /** The results of groups {@code from .. from+count-1} as a dense vector. Read-only. */
    abstract ColumnVector result(int from, int count);

    /** The capacity to grow to from {@code current} so that {@code needed} groups fit. */
    static int grow(int current, int needed) {
        return Math.max(needed, Math.max(64, current * 2));
    }

    /** The capacity an array of {@code current} entries has once {@link #grow} made room for {@code needed}. */
    static long capacityFor(int current, int needed) {
        return needed > current ? grow(current, needed) : current;
    }

    /** The error for a sum that does not fit {@code type}, naming the aggregate. */
    QueryFailedException overflow(Object type) {
        return new QueryDataException(QueryDataException.Kind.OVERFLOW,
                "overflow in " + spec.text() + ": the sum does not fit " + type);
    }
}
