package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;
import io.troupe.operators.udf.JavaValues;
import io.troupe.operators.udf.OwnAggregate;
import io.troupe.operators.udf.UserAggregate;

import java.util.Arrays;
import java.util.List;

/**
 * An aggregate of one's own ({@link OwnAggregate}): one {@code Object[]} state per group, made by the user's
 * {@code init} when the group first gets a row or a share, grown by {@code accumulate} (rows with a NULL argument
 * skipped, as PostgreSQL's STRICT) and {@code merge}, and made a value by {@code finish} once, in {@link #finish}.
 * Its partial rows are the state's fields, typed as registered and checked on the way out, so that a state spills,
 * and crosses to another node, as its fields' values. A group without a state writes a fresh one.
 *
 * <p>Whatever the user's code throws fails the query naming the aggregate (and a row's arguments where it was
 * adding one). Not threadsafe (see {@link AggregateState}); each worker's states are its own.
 */
final class OwnAggregateState extends AggregateState {

    /** A state's guessed size beside its reference: the array's header, and a boxed value a field. */
    private static final int ARRAY_BYTES = 16;
    private static final int FIELD_BYTES = 8 + 24;

    private final OwnAggregate own;
    private final UserAggregate function;
    private final List<DataType> fields;
    private Object[][] states = new Object[0][];
    private Object[] results;

    OwnAggregateState(AggregateSpec spec) {
        super(spec);
        this.own = spec.own();
        this.function = own.function();
        this.fields = own.state();
    }

    @Override
    void ensureCapacity(int groups) {
        if (groups > states.length) {
            states = Arrays.copyOf(states, grow(states.length, groups));
        }
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        Object[] values = new Object[inputs.length];
        rows:
        for (int i = 0, n = batch.size(); i < n; i++) {
            int r = batch.row(i);
            for (int a = 0; a < values.length; a++) {
                values[a] = inputs[a].getObject(r);
                if (values[a] == null) {
                    continue rows;
                }
            }
            Object[] state = stateOf(gids[i]);
            try {
                function.accumulate(state, values.clone());
            } catch (Exception e) {
                throw failure("failed on (" + JavaValues.describe(List.of(values)) + ")", e);
            }
        }
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        Object[][] theirStates = ((OwnAggregateState) other).states;
        for (int k = 0; k < count; k++) {
            Object[] their = theirStates[theirs[theirsFrom + k]];
            if (their != null) {
                merge(stateOf(mine[k]), their);
            }
        }
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        for (int k = 0; k < count; k++) {
            Object[] their = new Object[fields.size()];
            for (int f = 0; f < their.length; f++) {
                their[f] = columns[at + f].getObject(k);
            }
            merge(stateOf(mine[k]), their);
        }
    }

    @Override
    DataType[] partialTypes() {
        return fields.toArray(new DataType[0]);
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        VectorBuilder[] columns = new VectorBuilder[fields.size()];
        for (int f = 0; f < columns.length; f++) {
            columns[f] = new VectorBuilder(fields.get(f), count);
        }
        for (int k = 0; k < count; k++) {
            Object[] state = groups[k] < states.length && states[groups[k]] != null ? states[groups[k]] : fresh();
            for (int f = 0; f < columns.length; f++) {
                columns[f].appendObject(field(state, f));
            }
        }
        for (int f = 0; f < columns.length; f++) {
            out[at + f] = columns[f].build();
        }
    }

    @Override
    long bytesFor(int groups) {
        return HeapArrays.bytes(capacityFor(states.length, groups), Long.BYTES)
                + (long) groups * (ARRAY_BYTES + (long) fields.size() * FIELD_BYTES);
    }

    /** Every group's value, made once: the user's {@code finish} runs on this thread alone. */
    @Override
    void finish(int groups) {
        results = new Object[groups];
        for (int g = 0; g < groups; g++) {
            Object[] state = g < states.length && states[g] != null ? states[g] : fresh();
            Object value;
            try {
                value = function.finish(state);
            } catch (Exception e) {
                throw failure("failed to finish a group", e);
            }
            try {
                results[g] = JavaValues.exact(value, own.result());
            } catch (IllegalArgumentException e) {
                throw failure("finished with a value that is not a " + own.result().sqlName() + ": "
                        + e.getMessage(), null);
            }
            if (g < states.length) {
                states[g] = null;
            }
        }
    }

    @Override
    ColumnVector result(int from, int count) {
        VectorBuilder out = new VectorBuilder(spec.resultType(), count);
        for (int k = 0; k < count; k++) {
            out.appendObject(results[from + k]);
        }
        return out.build();
    }

    /** Group {@code g}'s state, made when it has none. */
    private Object[] stateOf(int g) {
        Object[] state = states[g];
        if (state == null) {
            state = states[g] = fresh();
        }
        return state;
    }

    private Object[] fresh() {
        Object[] state;
        try {
            state = function.init();
        } catch (RuntimeException e) {
            throw failure("failed to make a state", e);
        }
        if (state == null || state.length != fields.size()) {
            throw failure("made a state of " + (state == null ? "null" : state.length + " fields") + ", not of its "
                    + fields.size() + " fields " + fields, null);
        }
        return state;
    }

    private void merge(Object[] state, Object[] other) {
        try {
            function.merge(state, other);
        } catch (Exception e) {
            throw failure("failed to merge two states", e);
        }
    }

    /** Field {@code f} of {@code state}, checked against its type. */
    private Object field(Object[] state, int f) {
        try {
            return JavaValues.exact(state[f], fields.get(f));
        } catch (IllegalArgumentException e) {
            throw failure("holds in its state's field " + (f + 1) + " a value that is not a "
                    + fields.get(f).sqlName() + ": " + e.getMessage(), null);
        }
    }

    private QueryFailedException failure(String what, Exception cause) {
        String message = "the aggregate " + own.name() + " " + what + " in " + spec.text()
                + (cause == null ? "" : ": " + cause);
        return cause == null ? new QueryFailedException(message) : new QueryFailedException(message, cause);
    }
}
