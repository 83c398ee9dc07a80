package io.troupe.operators.plan;

import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.Schema;

import java.util.List;

import static io.troupe.operators.Arguments.notNull;

/**
 * An aggregate function over a group: {@code count(*)}, {@code sum(x)}, {@code count(DISTINCT x)}.
 * Only {@code Plan.aggregate} accepts one; anywhere else binding it is a {@link PlanException}.
 *
 * @param argument null for count(*)
 */
public record AggregateCall(AggregateFunction function, Expr argument, boolean distinct) implements Expr {

    public AggregateCall {
        notNull(function, "AggregateCall", "function");
        if (function != AggregateFunction.COUNT_STAR) {
            notNull(argument, "Expr." + function.sqlName(), "value");
        }
    }

    @Override
    public Expression bind(Schema input, String where) {
        throw new PlanException(where, "aggregate function " + this
                + " is not allowed here; aggregates belong in aggregate()");
    }

    @Override
    public List<Expr> children() {
        return argument == null ? List.of() : List.of(argument);
    }

    @Override
    public String toString() {
        if (function == AggregateFunction.COUNT_STAR) {
            return "count(*)";
        }
        return function.sqlName() + "(" + (distinct ? "DISTINCT " : "") + argument + ")";
    }
}
