package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.types.DataType;

/**
 * A constant. {@code value} is the Java form ({@link ColumnVector#getObject}'s types) or null.
 * Evaluates to a vector holding the value at every row.
 */
public record LiteralExpression(Object value, DataType type, String text) implements Expression {

    @Override
    public ColumnVector evaluate(Batch batch) {
        int n = batch.rowCount();
        VectorBuilder builder = new VectorBuilder(type, n);
        for (int i = 0; i < n; i++) {
            builder.appendObject(value);
        }
        return builder.build();
    }

    @Override
    public String toString() {
        return text;
    }
}
