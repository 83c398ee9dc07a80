package io.troupe.operators.stream;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Operator;
import io.troupe.operators.expr.Expression;

/**
 * Keeps the live rows where a BOOLEAN predicate is true (neither false nor NULL), by narrowing the
 * batch's selection vector: no column is copied. Batches with no row left are dropped.
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
                BooleanVector mask = (BooleanVector) predicate.evaluate(batch);
                byte[] values = mask.values();
                int size = batch.size();
                int[] selection = new int[size];
                int kept = 0;
                if (!mask.mayHaveNulls()) {
                    for (int i = 0; i < size; i++) {
                        int r = batch.row(i);
                        selection[kept] = r;
                        kept += values[r];
                    }
                } else {
                    for (int i = 0; i < size; i++) {
                        int r = batch.row(i);
                        if (values[r] != 0 && !mask.isNull(r)) {
                            selection[kept++] = r;
                        }
                    }
                }
                return kept == 0 || downstream.accept(batch.withSelection(selection, kept));
            }

            @Override
            public void finish() {
                downstream.finish();
            }
        };
    }
}
