package io.troupe.operators.plan;

import io.troupe.operators.udf.OwnFunctions;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Rebuilds a plan top down ({@link Plan#withParameters}): each {@link Parameter} replaced by its value's literal,
 * and each node that {@code replace} takes (it returns non-null) replaced by what it returns, whose subtree is
 * then not visited; or ({@link Plan#withFunctions}) each call of a function of one's own bound to the registry that
 * has it, as a {@link UserCall}, the parameters kept. Every node and expression is copied. A shared subplan is
 * rebuilt once, so that it stays shared. One binding per call; not threadsafe.
 */
final class ParameterBinding {

    /** The parameters' values; null: parameters stay. */
    private final List<Literal> values;
    /** The functions of one's own that calls are bound to; null: calls stay as they are. */
    private final OwnFunctions functions;
    private final UnaryOperator<Plan> replace;
    private final Map<Plan, Plan> rebuilt;
    /** Whether a call was bound to {@code functions} that was not bound to them yet. */
    private boolean rebound;

    ParameterBinding(List<Literal> values) {
        this(values, null, node -> null);
    }

    /** The binding of {@link Plan#withFunctions}: calls of {@code functions}' own bound to it. */
    ParameterBinding(OwnFunctions functions) {
        this(null, functions, node -> null);
    }

    ParameterBinding(List<Literal> values, UnaryOperator<Plan> replace) {
        this(values, null, replace);
    }

    private ParameterBinding(List<Literal> values, OwnFunctions functions, UnaryOperator<Plan> replace) {
        this(values, functions, replace, new IdentityHashMap<>());
    }

    private ParameterBinding(List<Literal> values, OwnFunctions functions, UnaryOperator<Plan> replace,
                             Map<Plan, Plan> rebuilt) {
        this.values = values;
        this.functions = functions;
        this.replace = replace;
        this.rebuilt = rebuilt;
    }

    /**
     * This binding, with the nodes that {@code more} takes (it returns non-null) replaced as well, first: for a subtree
     * whose leaves refer to the node being rebuilt (a recursive term's work table scans). It shares this binding's
     * rebuilt nodes, so that a shared subplan stays shared.
     */
    ParameterBinding within(UnaryOperator<Plan> more) {
        return new ParameterBinding(values, functions, node -> {
            Plan replaced = more.apply(node);
            return replaced != null ? replaced : replace.apply(node);
        }, rebuilt);
    }

    Plan plan(Plan node) {
        Plan done = rebuilt.get(node);
        if (done == null) {
            Plan replaced = replace.apply(node);
            done = replaced != null ? replaced : node.withParameters(this);
            rebuilt.put(node, done);
        }
        return done;
    }

    /** {@code e} with its parameters replaced; column references and literals are themselves. */
    Expr expr(Expr e) {
        if (e instanceof Parameter p && values != null) {
            if (p.position() > values.size()) {
                throw new IllegalArgumentException("Plan.withParameters: parameter " + p + " has no value; "
                        + values.size() + " given");
            }
            return values.get(p.position() - 1);
        }
        if (e instanceof Call c) {
            return new Call(c.function(), exprs(c.args()), c.castType());
        }
        if (e instanceof FunctionCall f) {
            rebound |= own(f.name());
            return own(f.name()) ? new UserCall(f.name(), exprs(f.args()), functions)
                    : new FunctionCall(f.name(), exprs(f.args()));
        }
        if (e instanceof UserCall u) {
            OwnFunctions bound = functions == null ? u.functions() : own(u.name()) ? functions : null;
            rebound |= bound != u.functions();
            return new UserCall(u.name(), exprs(u.args()), bound);
        }
        if (e instanceof Alias a) {
            return new Alias(expr(a.expr()), a.name());
        }
        if (e instanceof WindowCall w) {
            return new WindowCall(w.function(), exprs(w.arguments()), w.frame(), w.ignoresNulls());
        }
        if (e instanceof AggregateCall a) {
            return new AggregateCall(a.function(), exprs(a.arguments()), a.distinct(), keys(a.order()));
        }
        return e;
    }

    /** Whether a call was bound to other functions than it was: else the rebuilt plan is the same as the given. */
    boolean rebound() {
        return rebound;
    }

    /** Whether {@code name} is a function of one's own of those calls are bound to. */
    private boolean own(String name) {
        return functions != null && functions.has(name);
    }

    List<Expr> exprs(List<Expr> list) {
        List<Expr> out = new ArrayList<>(list.size());
        for (Expr e : list) {
            out.add(expr(e));
        }
        return out;
    }

    List<SortKey> keys(List<SortKey> keys) {
        List<SortKey> out = new ArrayList<>(keys.size());
        for (SortKey k : keys) {
            out.add(new SortKey(expr(k.expr()), k.ascending(), k.nullsFirst()));
        }
        return out;
    }
}
