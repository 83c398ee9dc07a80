package io.troupe.operators.plan;

import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * A column by {@code name} or {@code qualifier.name}. Its text ({@link #toString()}, which EXPLAIN and error messages
 * show) leaves out a qualifier that SQL's lowering made ({@code $3.amount} reads {@code amount}).
 */
public record ColumnRef(String reference) implements Expr {

    @Override
    public Expression bind(Schema input, String where) {
        int index = input.resolve(reference);
        if (index == Schema.NOT_FOUND) {
            throw new PlanException(where, "unknown column '" + reference + "'; available: " + names(input));
        }
        if (index == Schema.AMBIGUOUS) {
            List<String> matches = new ArrayList<>();
            String name = reference.substring(reference.lastIndexOf('.') + 1);
            for (Field f : input.fields()) {
                if (f.name().equalsIgnoreCase(name)) {
                    matches.add(f.qualifiedName());
                }
            }
            throw new PlanException(where, "ambiguous column '" + reference + "': matches " + matches
                    + "; qualify it, e.g. '" + matches.get(0) + "'");
        }
        return new ColumnExpression(index, input.type(index), toString());
    }

    private static String names(Schema input) {
        List<String> names = new ArrayList<>();
        for (Field f : input.fields()) {
            names.add(f.qualifiedName());
        }
        return String.join(", ", names);
    }

    @Override
    public List<Expr> children() {
        return List.of();
    }

    @Override
    public String outputName() {
        return reference.substring(reference.lastIndexOf('.') + 1);
    }

    @Override
    public String toString() {
        int dot = reference.lastIndexOf('.');
        return dot > 0 && AliasNode.internal(reference.substring(0, dot)) ? reference.substring(dot + 1) : reference;
    }
}
