package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;

import java.util.List;

/**
 * A hash aggregate's result read as rows of a {@link AggregateStep#FINAL} step's input: its keys,
 * then, for each of the final step's aggregates, the partial state that this result carries for
 * it, or the state of no rows where it carries none. This is how the results of an aggregate's
 * steps meet (the other aggregates' PARTIAL step, the counts of each distinct argument): each is
 * one branch of the FINAL step's pipeline, read through one of these, so every branch's rows have
 * the FINAL step's columns.
 *
 * <p>Immutable and threadsafe; each execution's state is as {@link HashAggregateSource}'s.
 */
public final class PartialStatesSource implements Source {

    private final HashAggregateSource result;
    private final int keyCount;
    private final List<AggregateSpec> aggregates;
    /** Per aggregate, the result's column where its partial state starts, or -1: none. */
    private final int[] from;

    /**
     * @param resultKey  a PARTIAL step's result: its keys, then the partial states of the FINAL
     *                   step's aggregates that it carries, in their order
     * @param keyCount   how many keys it has (and the FINAL step has)
     * @param aggregates the FINAL step's aggregates
     * @param carried    per FINAL aggregate, whether the result carries its partial state (else the
     *                   state of no rows stands in)
     */
    public PartialStatesSource(StateKey<AggregateResult> resultKey, int keyCount, List<AggregateSpec> aggregates,
                               boolean[] carried) {
        if (carried.length != aggregates.size()) {
            throw new IllegalArgumentException(carried.length + " flags for " + aggregates.size() + " aggregates");
        }
        this.result = new HashAggregateSource(resultKey);
        this.keyCount = keyCount;
        this.aggregates = List.copyOf(aggregates);
        this.from = new int[carried.length];
        int column = keyCount;
        for (int a = 0; a < carried.length; a++) {
            from[a] = carried[a] ? column : -1;
            column += carried[a] ? AggregateState.create(aggregates.get(a)).partialTypes().length : 0;
        }
    }

    @Override
    public SourceState open(ExecContext ctx) {
        SourceState rows = result.open(ctx);
        return () -> {
            SourceReader reader = rows.reader();
            return () -> {
                Batch batch = reader.next();
                return batch == null ? null : layOut(batch);
            };
        };
    }

    private Batch layOut(Batch batch) {
        int n = batch.size();
        int width = keyCount;
        AggregateState[] states = new AggregateState[aggregates.size()];
        for (int a = 0; a < states.length; a++) {
            states[a] = AggregateState.create(aggregates.get(a));
            width += states[a].partialTypes().length;
        }
        ColumnVector[] columns = new ColumnVector[width];
        for (int k = 0; k < keyCount; k++) {
            columns[k] = batch.column(k);
        }
        int at = keyCount;
        int[] noRows = null;
        for (int a = 0; a < states.length; a++) {
            int partialWidth = states[a].partialTypes().length;
            if (from[a] >= 0) {
                for (int c = 0; c < partialWidth; c++) {
                    columns[at + c] = batch.column(from[a] + c);
                }
            } else {
                // Group 0 of a new state has seen no row: its partial state is every aggregate's identity.
                noRows = noRows == null ? new int[n] : noRows;
                states[a].ensureCapacity(1);
                states[a].partial(noRows, n, columns, at);
            }
            at += partialWidth;
        }
        return Batch.of(n, columns);
    }
}
