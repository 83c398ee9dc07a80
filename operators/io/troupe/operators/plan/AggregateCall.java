package io.troupe.operators.plan;

import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.troupe.operators.Arguments.notNull;

/**
 * An aggregate function over a group: {@code count(*)}, {@code sum(x)}, {@code count(DISTINCT x)},
 * {@code corr(y, x)}, {@code percentile_cont(0.5) WITHIN GROUP (ORDER BY x)},
 * {@code string_agg(s, ',' ORDER BY k)}. Only {@code Plan.aggregate} accepts one; anywhere else binding it is a
 * {@link PlanException}.
 *
 * @param arguments the arguments as SQL writes them, constants included (none for count(*) and mode())
 * @param order     the WITHIN GROUP key of percentile_cont, percentile_disc and mode (their value), or
 *                  string_agg's ORDER BY keys; empty for the others
 */
public record AggregateCall(AggregateFunction function, List<Expr> arguments, boolean distinct, List<SortKey> order)
        implements Expr {

    public AggregateCall {
        notNull(function, "AggregateCall", "function");
        if (function == AggregateFunction.OWN) {
            throw new IllegalArgumentException("AggregateCall: an aggregate of one's own is called by its name, "
                    + "Expr.call(name, args)");
        }
        for (Expr argument : notNull(arguments, "AggregateCall", "arguments")) {
            notNull(argument, "Expr." + function.sqlName(), "value");
        }
        for (SortKey key : notNull(order, "AggregateCall", "order")) {
            notNull(key, "Expr." + function.sqlName(), "order");
        }
        arguments = List.copyOf(arguments);
        order = List.copyOf(order);
    }

    /** A call of one argument, or count(*) of none. */
    AggregateCall(AggregateFunction function, Expr argument, boolean distinct) {
        this(function, function == AggregateFunction.COUNT_STAR ? List.of()
                : List.of(notNull(argument, "Expr." + function.sqlName(), "value")), distinct, List.of());
    }

    /** The value it aggregates: an ordered-set aggregate's WITHIN GROUP key, else its first argument (none: null). */
    public Expr argument() {
        if (function.ordered()) {
            return order.isEmpty() ? null : order.get(0).expr();
        }
        return arguments.isEmpty() ? null : arguments.get(0);
    }

    @Override
    public Expression bind(Schema input, String where) {
        throw new PlanException(where, "aggregate function " + this
                + " is not allowed here; aggregates belong in aggregate()");
    }

    @Override
    public List<Expr> children() {
        List<Expr> children = new ArrayList<>(arguments);
        order.forEach(k -> children.add(k.expr()));
        return children;
    }

    @Override
    public String toString() {
        if (function == AggregateFunction.COUNT_STAR) {
            return "count(*)";
        }
        String args = arguments.stream().map(Expr::toString).collect(Collectors.joining(", "));
        if (function.ordered()) {
            SortKey key = order.get(0);
            return function.sqlName() + "(" + args + ") WITHIN GROUP (ORDER BY " + key.expr()
                    + (key.ascending() ? "" : " DESC") + ")";
        }
        String orderBy = order.isEmpty() ? ""
                : " ORDER BY " + order.stream().map(SortKey::toString).collect(Collectors.joining(", "));
        return function.sqlName() + "(" + (distinct ? "DISTINCT " : "") + args + orderBy + ")";
    }
}
