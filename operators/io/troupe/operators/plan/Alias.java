package io.troupe.operators.plan;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.Schema;

import java.util.List;

/** Gives the column an expression produces a name: {@code expr AS name}, shown as {@code name} where they read alike. */
public record Alias(Expr expr, String name) implements Expr {

    @Override
    public Expression bind(Schema input, String where) {
        return expr.bind(input, where);
    }

    @Override
    public List<Expr> children() {
        return List.of(expr);
    }

    @Override
    public String outputName() {
        return name;
    }

    @Override
    public String toString() {
        String text = expr.toString();
        return text.equals(name) ? name : text + " AS " + name;
    }
}
