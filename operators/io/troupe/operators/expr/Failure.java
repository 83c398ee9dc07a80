package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;

/**
 * A call whose constant argument no row can take (a LIKE pattern that ends in its escape
 * character): it fails when a row reaches it, as a division by zero does and as PostgreSQL fails
 * it, not when the plan is built, so that a query over no rows still answers.
 *
 * <p>Immutable and threadsafe.
 */
final class Failure implements Expression {

    private final DataType type;
    private final DomainException cause;
    private final String text;

    Failure(DataType type, DomainException cause, String text) {
        this.type = type;
        this.cause = cause;
        this.text = text;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        if (batch.size() > 0) {
            throw cause.failure(text);
        }
        ColumnVector none = ColumnVector.allocate(type, batch.rowCount());
        if (none instanceof StringVector s) {
            s.seal();
        }
        none.setValidity(Kernels.allNull(batch.rowCount()));
        return none;
    }

    @Override
    public String toString() {
        return text;
    }
}
