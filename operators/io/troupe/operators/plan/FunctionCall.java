package io.troupe.operators.plan;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.expr.ExpressionTypeException;
import io.troupe.operators.expr.FunctionRegistry;
import io.troupe.operators.types.Schema;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import static io.troupe.operators.Arguments.noNulls;
import static io.troupe.operators.Arguments.notNull;

/**
 * A call of a named scalar function, {@code sqrt(x)}: the name is looked up in the
 * {@link FunctionRegistry} when the plan is validated, and a node that decodes the plan from the
 * wire looks it up in its own. The name is kept in lower case, as it was called (an alias stays an
 * alias). Build one with {@link Expr#call}.
 */
public record FunctionCall(String name, List<Expr> args) implements Expr {

    public FunctionCall {
        notNull(name, "Expr.call", "name");
        name = name.toLowerCase(Locale.ROOT);
        args = List.copyOf(noNulls(notNull(args, "Expr.call", "args"), "Expr.call " + name, "args"));
    }

    @Override
    public Expression bind(Schema input, String where) {
        return bind(FunctionRegistry.builtIn(), name, args, input, where);
    }

    /** A call of {@code name} over {@code args} bound in {@code functions} (this one's, or a {@link UserCall}'s). */
    static Expression bind(FunctionRegistry functions, String name, List<Expr> args, Schema input, String where) {
        List<Expression> bound = Call.bindAll(args, input, where);
        try {
            return functions.bind(name, bound, text(name, args));
        } catch (ExpressionTypeException e) {
            throw new PlanException(where, e.getMessage());
        }
    }

    /** The call's text: {@code sqrt(x)}. */
    static String text(String name, List<Expr> args) {
        return name + "(" + args.stream().map(Expr::toString).collect(Collectors.joining(", ")) + ")";
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public String toString() {
        return text(name, args);
    }
}
