package io.troupe.operators.plan;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Schema;

import java.util.List;

import static io.troupe.operators.Arguments.notNull;

/**
 * A parameter of a prepared statement ({@code ?} in SQL), of the type the statement gives it: a place for
 * a value that comes with each execution. {@link Plan#withParameters} puts the values in, as literals,
 * before the plan is validated and run; a plan that still holds one does not validate.
 *
 * @param position 1-based, in the order the statement's {@code ?} appear
 */
public record Parameter(int position, DataType type) implements Expr {

    public Parameter {
        if (position < 1) {
            throw new IllegalArgumentException("Parameter: position must be at least 1, got " + position);
        }
        notNull(type, "Parameter", "type");
    }

    @Override
    public Expression bind(Schema input, String where) {
        throw new PlanException(where, "parameter " + this + " has no value; give the plan its parameters' values "
                + "first (Plan.withParameters)");
    }

    @Override
    public List<Expr> children() {
        return List.of();
    }

    @Override
    public String toString() {
        return "?" + position;
    }
}
