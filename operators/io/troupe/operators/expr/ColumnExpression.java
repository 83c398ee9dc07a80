package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

/** A reference to input column {@code index}: returns the batch's own vector, copying nothing. */
public record ColumnExpression(int index, DataType type, String name) implements Expression {

    @Override
    public ColumnVector evaluate(Batch batch) {
        return batch.column(index);
    }

    @Override
    public String toString() {
        return name;
    }
}
