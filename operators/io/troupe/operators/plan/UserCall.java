package io.troupe.operators.plan;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.expr.FunctionRegistry;
import io.troupe.operators.types.Schema;

import java.util.List;

import static io.troupe.operators.Arguments.noNulls;
import static io.troupe.operators.Arguments.notNull;

/**
 * A call of a function of one's own ({@code io.troupe.operators.udf.UserFunctions}), bound to the registry of
 * the Troupe that runs it: what a {@link FunctionCall} of such a name becomes when that Troupe takes the plan
 * ({@link Plan#withFunctions}). It travels by name; a node that decodes it binds it again in its own Troupe, and
 * until then {@code functions} is null, which fails validation naming the function.
 *
 * @param name      the function's name, lower case
 * @param args      the arguments
 * @param functions the registry that has the function, or null where it is not bound yet
 */
public record UserCall(String name, List<Expr> args, FunctionRegistry functions) implements Expr {

    public UserCall {
        notNull(name, "UserCall", "name");
        args = List.copyOf(noNulls(notNull(args, "UserCall", "args"), "UserCall " + name, "args"));
    }

    @Override
    public Expression bind(Schema input, String where) {
        if (functions == null) {
            throw new PlanException(where, "the function " + name + " of " + this + " is not registered in this "
                    + "Troupe: register it under the same name with Troupe.functions() on every node that runs "
                    + "the plan");
        }
        return FunctionCall.bind(functions, name, args, input, where);
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public String toString() {
        return FunctionCall.text(name, args);
    }
}
