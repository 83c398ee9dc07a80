package io.troupe.operators.expr;

import io.troupe.config.Spelling;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The named scalar functions, by each of their names, case-insensitively: where a plan's
 * {@code Expr.call("sqrt", x)}, plan text's {@code sqrt(x)} and SQL's {@code SQRT(x)} all find
 * {@code sqrt}. {@link #builtIn()} holds Troupe's own, one family per class ({@link
 * NumericFunctions}, {@link StringFunctions}, {@link DateTimeFunctions}); {@link #with} layers more over a
 * registry (a Troupe's user functions), refusing a name that is taken. The package comment says how to add a
 * function.
 *
 * <p>Immutable and threadsafe.
 */
public final class FunctionRegistry {

    private static final FunctionRegistry BUILT_IN = new FunctionRegistry(Map.of())
            .with(NumericFunctions.all()).with(StringFunctions.all()).with(DateTimeFunctions.all())
            .with(BinaryFunctions.all());

    /** Each function under each of its names. */
    private final Map<String, ScalarFunction> byName;

    private FunctionRegistry(Map<String, ScalarFunction> byName) {
        this.byName = byName;
    }

    /** Troupe's own functions. */
    public static FunctionRegistry builtIn() {
        return BUILT_IN;
    }

    /**
     * This registry and {@code functions}.
     *
     * @throws IllegalArgumentException when a name of one of them is taken already
     */
    public FunctionRegistry with(List<ScalarFunction> functions) {
        Map<String, ScalarFunction> all = new LinkedHashMap<>(byName);
        for (ScalarFunction f : functions) {
            for (String name : f.names()) {
                ScalarFunction taken = all.putIfAbsent(name, f);
                if (taken != null) {
                    throw new IllegalArgumentException("FunctionRegistry: the name '" + name + "' of " + f
                            + " is taken by " + taken);
                }
            }
        }
        return new FunctionRegistry(Collections.unmodifiableMap(all));
    }

    /** The function called {@code name} in any case, or null. */
    public ScalarFunction find(String name) {
        return byName.get(name.toLowerCase(Locale.ROOT));
    }

    /** Every name, aliases included, in registration order. */
    public Set<String> names() {
        return byName.keySet();
    }

    /** Every function once, in registration order. */
    public List<ScalarFunction> functions() {
        return byName.values().stream().distinct().collect(Collectors.toCollection(ArrayList::new));
    }

    /**
     * A call of the function {@code name} over bound {@code args} (see {@link ScalarFunction}).
     *
     * @param text the call's text, for error messages
     * @throws ExpressionTypeException for an unknown name (with the nearest known ones) or arguments
     *         that no signature takes
     */
    public Expression bind(String name, List<Expression> args, String text) {
        ScalarFunction f = find(name);
        if (f == null) {
            throw new ExpressionTypeException(unknown(name) + " in " + text);
        }
        return f.bind(name, args, text);
    }

    /** The message for an unknown function {@code name}: it, and the known names nearest to it. */
    public String unknown(String name) {
        List<String> nearest = Spelling.closest(name.toLowerCase(Locale.ROOT), names());
        return "unknown function '" + name + "'" + (nearest.isEmpty() ? ""
                : nearest.stream().map(n -> "'" + n + "'").collect(Collectors.joining(" or ", " (did you mean ", "?)")));
    }
}
