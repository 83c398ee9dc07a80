package io.troupe.operators.udf;

import io.troupe.operators.expr.FunctionRegistry;
import io.troupe.operators.expr.ParamType;
import io.troupe.operators.expr.ScalarFunction;
import io.troupe.operators.expr.Signature;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

import static io.troupe.operators.Arguments.noNulls;
import static io.troupe.operators.Arguments.notNull;

/**
 * The functions one Troupe's users registered, beside Troupe's own ({@code Troupe.functions()}): scalar functions
 * one row at a time ({@link RowFunction}) or a batch at a time ({@link VectorFunction}), and aggregates ({@link
 * UserAggregate}), each typed when it is registered: its arguments' types and its result type. A call finds them by name (any case) from SQL, plan text
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

    /**
     * Names SQL binds to functions of its own beyond the registry's (coalesce, sum, row_number ...), asked for at the
     * first registration: SQL's planner, which knows them, loads only when it is used.
     */
    private final Supplier<Set<String>> reservedNames;
    /** The reserved names once asked for; guarded by this. */
    private Set<String> reserved;
    /** What is registered, replaced whole at each registration. */
    private volatile OwnFunctions current = OwnFunctions.none();

    /** Functions of one's own beside the built-in ones and those {@code reserved} gives (lower case). */
    public UserFunctions(Supplier<Set<String>> reserved) {
        this.reservedNames = notNull(reserved, "UserFunctions", "reserved");
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
        String where = "UserFunctions.scalar";
        notNull(function, where, "function");
        String own = name(name, where);
        return add(own, arguments, result, (args, type, text) ->
                new OwnCall(own, new RowsOf(own, function, type, text), args, type, text), where);
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
        String where = "UserFunctions.vectorised";
        notNull(function, where, "function");
        String own = name(name, where);
        return add(own, arguments, result, (args, type, text) -> new OwnCall(own, function, args, type, text), where);
    }

    /**
     * Registers an aggregate function, which runs in parallel as sum does: each worker aggregates its rows into
     * states of its own, merged at the end.
     *
     * @param name      its name, an identifier (letters, digits and _), matched in any case
     * @param arguments its parameters' types, in order; an argument is converted to its parameter's type
     * @param result    its result's type
     * @param state     the types of its state's fields (see {@link UserAggregate})
     * @param function  the aggregate; rows with a NULL argument are skipped
     * @return this, for more registrations
     * @throws IllegalArgumentException when an argument is null, the name is not an identifier, or it is taken
     */
    public UserFunctions aggregate(String name, List<DataType> arguments, DataType result, List<DataType> state,
                                   UserAggregate function) {
        String where = "UserFunctions.aggregate";
        notNull(function, where, "function");
        noNulls(notNull(state, where, "state"), where, "state");
        checkTypes(arguments, result, where);
        String own = name(name, where);
        OwnAggregate aggregate = new OwnAggregate(own, arguments, result, state, function);
        synchronized (this) {
            current = free(own, where).with(aggregate);
        }
        return this;
    }

    private UserFunctions add(String name, List<DataType> arguments, DataType result, Signature.Kernel kernel,
                              String where) {
        checkTypes(arguments, result, where);
        ParamType[] params = arguments.stream().map(ParamType::of).toArray(ParamType[]::new);
        ScalarFunction f = ScalarFunction.of(name, Signature.of(Signature.ResultType.fixed(result), kernel, params));
        synchronized (this) {
            current = free(name, where).with(f);
        }
        return this;
    }

    /** What is registered now, where {@code name} is free: no built-in's and none of one's own. Under the lock. */
    private OwnFunctions free(String name, String where) {
        if (reserved == null) {
            reserved = Set.copyOf(reservedNames.get());
        }
        if (FunctionRegistry.builtIn().find(name) != null || reserved.contains(name)) {
            throw new IllegalArgumentException(where + ": '" + name + "' is a built-in function's name; "
                    + "a function of one's own takes another");
        }
        OwnFunctions now = current;
        if (now.has(name)) {
            throw new IllegalArgumentException(where + ": a function '" + name + "' is registered already: "
                    + (now.aggregate(name) != null ? now.aggregate(name) : now.registry().find(name)));
        }
        return now;
    }

    private static void checkTypes(List<DataType> arguments, DataType result, String where) {
        noNulls(notNull(arguments, where, "arguments"), where, "arguments");
        notNull(result, where, "result");
    }

    private static String name(String name, String where) {
        String lower = notNull(name, where, "name").toLowerCase(Locale.ROOT);
        if (!lower.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException(where + ": '" + name + "' is not a function name (letters, digits "
                    + "and _, not first a digit)");
        }
        return lower;
    }

    /** What is registered now: a query binds its calls to one such snapshot. */
    public OwnFunctions current() {
        return current;
    }

    /**
     * {@code plan} with each call of a function registered here bound to it, so that it validates and runs in this
     * Troupe; {@code plan} itself when none is registered.
     */
    public Plan resolve(Plan plan) {
        OwnFunctions now = current;
        return now.isEmpty() ? plan : plan.withFunctions(now);
    }
}
