package io.troupe.operators.stream;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Operator;
import io.troupe.operators.expr.Expression;

import java.util.List;

/**
 * Computes one output column per expression over the same rows and selection. A plain column
 * reference passes the input vector through without copying.
 */
public final class ProjectOperator implements Operator {

    private final Expression[] expressions;

    public ProjectOperator(List<Expression> expressions) {
        this.expressions = expressions.toArray(new Expression[0]);
    }

    @Override
    public OperatorState open(ExecContext ctx) {
        return downstream -> new BatchConsumer() {
            @Override
            public boolean accept(Batch batch) {
                ColumnVector[] out = new ColumnVector[expressions.length];
                for (int i = 0; i < expressions.length; i++) {
                    out[i] = expressions[i].evaluate(batch);
                }
                return downstream.accept(batch.withColumns(out));
            }

            @Override
            public void finish() {
                downstream.finish();
            }
        };
    }
}
