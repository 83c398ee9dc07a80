package io.troupe.operators.udf;

import io.troupe.operators.expr.FunctionRegistry;
import io.troupe.operators.expr.ParamType;
import io.troupe.operators.expr.ScalarFunction;
import io.troupe.operators.expr.Signature;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import static io.troupe.operators.Arguments.noNulls;
import static io.troupe.operators.Arguments.notNull;

/**
 * The functions one Troupe's users registered, beside Troupe's own ({@code Troupe.functions()}): scalar functions
 * one row at a time ({@link RowFunction}) or a batch at a time ({@link VectorFunction}), each typed when it is
 * registered: its arguments' types and its result type. A call finds them by name (any case) from SQL, plan text
 * and the plan API ({@code Expr.call("plus_tax", col("price"))}) of this Troupe only; it is checked and converted
 * as a call of a built-in function is ({@link ScalarFunction}): an INTEGER argument goes to a DOUBLE parameter, a
 * VARCHAR does not, and a call no signature takes fails with {@code no function plus_tax(VARCHAR); plus_tax
 * takes (DOUBLE)}. A name that a built-in function, aggregate or SQL keyword function has, or that is registered
 * already, is refused.
 *
 * <p>A plan keeps a call by name; across nodes each node binds it in its own Troupe, where it must be registered
 * under the same name and types: a node that lacks it fails the query naming the function.
 *
 * <p>Threadsafe: functions may be registered while queries run, from any thread; a query sees those registered
 * when it was planned. The functions themselves run on many worker threads at once (see {@link RowFunction}).
 */
public final class UserFunctions {

    /** What is registered, replaced whole at each registration. */
    private record Registered(FunctionRegistry registry, List<ScalarFunction> scalars) {
    }

    /** Names SQL binds to functions of its own beyond the registry's (coalesce, sum, row_number ...). */
    private final Set<String> reserved;
    private volatile Registered registered = new Registered(FunctionRegistry.builtIn(), List.of());

    /** Functions of one's own beside the built-in ones and those of {@code reserved} (lower case). */
    public UserFunctions(Set<String> reserved) {
        this.reserved = Set.copyOf(notNull(reserved, "UserFunctions", "reserved"));
    }

    /**
     * Registers a scalar function computed one row at a time.
     *
     * @param name      its name, an identifier (letters, digits and _), matched in any case
     * @param arguments its parameters' types, in order; an argument is converted to its parameter's type
     * @param result    its result's type
     * @param function  the function; not called for a row with a NULL argument
     * @return this, for more registrations
     * @throws IllegalArgumentException when an argument is null, the name is not an identifier, or it is taken
     */
    public UserFunctions scalar(String name, List<DataType> arguments, DataType result, RowFunction function) {
        notNull(function, "UserFunctions.scalar", "function");
        String own = name(name, "UserFunctions.scalar");
        return add(own, arguments, result, (args, type, text) -> new OwnCall(own, new RowsOf(own, function, type, text), args, type, text),
                "UserFunctions.scalar");
    }

    /**
     * Registers a scalar function computed a batch at a time.
     *
     * @param name      its name, an identifier (letters, digits and _), matched in any case
     * @param arguments its parameters' types, in order; an argument is converted to its parameter's type
     * @param result    its result's type
     * @param function  the function; it is given NULLs and decides their results
     * @return this, for more registrations
     * @throws IllegalArgumentException when an argument is null, the name is not an identifier, or it is taken
     */
    public UserFunctions vectorised(String name, List<DataType> arguments, DataType result, VectorFunction function) {
        notNull(function, "UserFunctions.vectorised", "function");
        String own = name(name, "UserFunctions.vectorised");
        return add(own, arguments, result, (args, type, text) -> new OwnCall(own, function, args, type, text),
                "UserFunctions.vectorised");
    }

    private synchronized UserFunctions add(String name, List<DataType> arguments, DataType result,
                                           Signature.Kernel kernel, String where) {
        noNulls(notNull(arguments, where, "arguments"), where, "arguments");
        notNull(result, where, "result");
        ParamType[] params = arguments.stream().map(ParamType::of).toArray(ParamType[]::new);
        ScalarFunction f = ScalarFunction.of(name, Signature.of(Signature.ResultType.fixed(result), kernel, params));
        Registered now = registered;
        if (FunctionRegistry.builtIn().find(name) != null || reserved.contains(name)) {
            throw new IllegalArgumentException(where + ": '" + name + "' is a built-in function's name; "
                    + "a function of one's own takes another");
        }
        if (now.registry().find(name) != null) {
            throw new IllegalArgumentException(where + ": a function '" + name + "' is registered already: "
                    + signature(now.registry().find(name)));
        }
        List<ScalarFunction> scalars = new ArrayList<>(now.scalars());
        scalars.add(f);
        registered = new Registered(now.registry().with(List.of(f)), List.copyOf(scalars));
        return this;
    }

    private static String name(String name, String where) {
        notNull(name, where, "name");
        return name.toLowerCase(Locale.ROOT);
    }

    /** A function's signature as errors name it: {@code plus_tax(DOUBLE) -> DOUBLE}. */
    static String signature(ScalarFunction f) {
        return f.signatures().stream()
                .map(s -> f.name() + s + " -> " + s.result().of(List.of()))
                .collect(Collectors.joining(", "));
    }

    /** The built-in functions and those registered. */
    public FunctionRegistry registry() {
        return registered.registry();
    }

    /** The scalar functions registered, in order. */
    public List<ScalarFunction> scalars() {
        return registered.scalars();
    }

    /**
     * {@code plan} with each call of a function registered here bound to it, so that it validates and runs in this
     * Troupe; {@code plan} itself when none is registered.
     */
    public Plan resolve(Plan plan) {
        Registered now = registered;
        return now.scalars().isEmpty() ? plan : plan.withFunctions(now.registry());
    }
}
