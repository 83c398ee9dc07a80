package io.troupe.operators.plan;

import io.troupe.operators.agg.AggregateSpec;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.expr.ScalarFunction;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Schema;
import io.troupe.operators.udf.OwnAggregate;
import io.troupe.operators.udf.OwnFunctions;

import java.util.ArrayList;
import java.util.List;

import static io.troupe.operators.Arguments.noNulls;
import static io.troupe.operators.Arguments.notNull;

/**
 * A call of a function or aggregate of one's own ({@code io.troupe.operators.udf.UserFunctions}), bound to the
 * functions of the Troupe that runs it: what a {@link FunctionCall} of such a name becomes when that Troupe takes
 * the plan ({@link Plan#withFunctions}). It travels by name; a node that decodes it binds it again in its own
 * Troupe, and until then {@code functions} is null, which fails validation naming the function. Immutable and
 * threadsafe.
 *
 * @param name      the function's name, lower case
 * @param args      the arguments
 * @param functions the functions of the Troupe that has it, or null where it is not bound yet
 */
public record UserCall(String name, List<Expr> args, OwnFunctions functions) implements Expr {

    public UserCall {
        notNull(name, "UserCall", "name");
        args = List.copyOf(noNulls(notNull(args, "UserCall", "args"), "UserCall " + name, "args"));
    }

    @Override
    public Expression bind(Schema input, String where) {
        requireBound(where);
        if (isAggregate()) {
            throw new PlanException(where, "aggregate function " + this + " is not allowed here; aggregates belong in "
                    + "aggregate()");
        }
        return FunctionCall.bind(functions.registry(), name, args, input, where);
    }

    /**
     * The aggregate this call makes in {@code Plan.aggregate}, its arguments converted to the registered types as a
     * function's are.
     *
     * @throws PlanException naming the aggregate and its signature when the arguments do not fit it
     */
    AggregateSpec bindAggregate(Schema input, String where) {
        requireBound(where);
        OwnAggregate own = functions.aggregate(name);
        ScalarFunction signature = own.signature();
        List<Expression> bound = Call.bindAll(args, input, where);
        List<DataType> types = bound.stream().map(e -> e == null ? null : e.type()).toList();
        ScalarFunction.Resolution r = signature.resolve(types);
        if (r == null) {
            throw new PlanException(where, signature.mismatch(name, types.stream()
                    .map(t -> t == null ? "NULL" : t.sqlName()).toList()) + " in " + this);
        }
        List<Expression> converted = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            DataType target = r.types().get(i);
            boolean same = bound.get(i) != null && bound.get(i).type().equals(target);
            converted.add(same ? bound.get(i) : args.get(i).cast(target).bind(input, where));
        }
        return AggregateSpec.of(own, converted, toString());
    }

    private void requireBound(String where) {
        if (functions == null) {
            throw new PlanException(where, "the function " + name + " of " + this + " is not registered in this "
                    + "Troupe: register it under the same name with Troupe.functions() on every node that runs "
                    + "the plan");
        }
    }

    /** Whether it calls an aggregate (false while it is not bound). */
    public boolean isAggregate() {
        return functions != null && functions.aggregate(name) != null;
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
