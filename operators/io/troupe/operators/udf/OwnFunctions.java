package io.troupe.operators.udf;

import io.troupe.operators.expr.FunctionRegistry;
import io.troupe.operators.expr.ScalarFunction;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one Troupe's users registered at one moment ({@link UserFunctions#current}): the built-in scalar functions
 * with those of its own ({@link #registry}), and its aggregates by name. A plan's calls are bound to one of these.
 *
 * <p>Immutable and threadsafe.
 */
public final class OwnFunctions {

    private final FunctionRegistry registry;
    private final List<ScalarFunction> scalars;
    private final Map<String, OwnAggregate> aggregates;

    OwnFunctions(FunctionRegistry registry, List<ScalarFunction> scalars, Map<String, OwnAggregate> aggregates) {
        this.registry = registry;
        this.scalars = List.copyOf(scalars);
        this.aggregates = Map.copyOf(aggregates);
    }

    /** None of one's own. */
    static OwnFunctions none() {
        return new OwnFunctions(FunctionRegistry.builtIn(), List.of(), Map.of());
    }

    /** These and {@code f}. */
    OwnFunctions with(ScalarFunction f) {
        List<ScalarFunction> more = new ArrayList<>(scalars);
        more.add(f);
        return new OwnFunctions(registry.with(List.of(f)), more, aggregates);
    }

    /** These and {@code a}. */
    OwnFunctions with(OwnAggregate a) {
        Map<String, OwnAggregate> more = new LinkedHashMap<>(aggregates);
        more.put(a.name(), a);
        return new OwnFunctions(registry, scalars, more);
    }

    /** The built-in scalar functions and those of one's own. */
    public FunctionRegistry registry() {
        return registry;
    }

    /** The scalar functions of one's own, in the order they were registered. */
    public List<ScalarFunction> scalars() {
        return scalars;
    }

    /** The aggregates of one's own. */
    public List<OwnAggregate> aggregates() {
        return List.copyOf(aggregates.values());
    }

    /** The aggregate of one's own called {@code name} in any case, or null. */
    public OwnAggregate aggregate(String name) {
        return aggregates.get(name.toLowerCase(Locale.ROOT));
    }

    /** Whether {@code name} (any case) is a function or aggregate of one's own. */
    public boolean has(String name) {
        return aggregate(name) != null
                || registry.find(name) != null && FunctionRegistry.builtIn().find(name) == null;
    }

    /** Whether there is none of one's own. */
    public boolean isEmpty() {
        return scalars.isEmpty() && aggregates.isEmpty();
    }
}
