package io.troupe.operators.plan;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Rebuilds a plan top down ({@link Plan#withParameters}): each {@link Parameter} replaced by its value's literal,
 * and each node that {@code replace} takes (it returns non-null) replaced by what it returns, whose subtree is
 * then not visited. Every node and expression is copied. A shared subplan is rebuilt once, so that it stays
 * shared. One binding per call; not threadsafe.
 */
final class ParameterBinding {

    private final List<Literal> values;
    private final UnaryOperator<Plan> replace;
    private final Map<Plan, Plan> rebuilt;

    ParameterBinding(List<Literal> values) {
        this(values, node -> null);
    }

    ParameterBinding(List<Literal> values, UnaryOperator<Plan> replace) {
        this(values, replace, new IdentityHashMap<>());
    }

    private ParameterBinding(List<Literal> values, UnaryOperator<Plan> replace, Map<Plan, Plan> rebuilt) {
        this.values = values;
        this.replace = replace;
        this.rebuilt = rebuilt;
    }

    /**
     * This binding, with the nodes that {@code more} takes (it returns non-null) replaced as well, first: for a subtree
     * whose leaves refer to the node being rebuilt (a recursive term's work table scans). It shares this binding's
     * rebuilt nodes, so that a shared subplan stays shared.
     */
    ParameterBinding within(UnaryOperator<Plan> more) {
        return new ParameterBinding(values, node -> {
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
        if (e instanceof Parameter p) {
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
            return new FunctionCall(f.name(), exprs(f.args()));
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
