package io.troupe.operators.stream;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Operator;
import io.troupe.operators.expr.Expression;

/**
 * Keeps the live rows where a BOOLEAN predicate is true (neither false nor NULL), by narrowing the
 * batch's selection vector: no column is copied. The predicate writes the selection itself
 * ({@link Expression#select}), so comparisons, BETWEEN and AND/OR of them build no BOOLEAN vector.
 * Batches with no row left are dropped.
 *
 * <p>Immutable and threadsafe; each worker's consumer is stateless between batches.
 */
public final class FilterOperator implements Operator {

    private final Expression predicate;

    public FilterOperator(Expression predicate) {
        this.predicate = predicate;
    }

    @Override
    public OperatorState open(ExecContext ctx) {
        return downstream -> new BatchConsumer() {
            @Override
            public boolean accept(Batch batch) {
                int[] selection = new int[batch.size()];
                int kept = predicate.select(batch, selection);
                return kept == 0 || downstream.accept(batch.withSelection(selection, kept));
            }

            @Override
            public void finish() {
                downstream.finish();
            }
        };
    }
}
