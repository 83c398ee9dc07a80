package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

import java.util.List;

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

    /**
     * Whether {@code a} and {@code b} are, pair by pair, references to the same input columns (bound over inputs
     * of the same rows, they then yield the same values).
     */
    public static boolean sameColumns(List<Expression> a, List<Expression> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!(a.get(i) instanceof ColumnExpression x && b.get(i) instanceof ColumnExpression y
                    && x.index() == y.index())) {
                return false;
            }
        }
        return true;
    }
}
