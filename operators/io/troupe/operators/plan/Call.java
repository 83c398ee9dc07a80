package io.troupe.operators.plan;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.expr.ExpressionTypeException;
import io.troupe.operators.expr.Function;
import io.troupe.operators.expr.Functions;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static io.troupe.operators.Arguments.notNull;

/**
 * A scalar function or operator applied to arguments. {@code castType} is the target type of
 * CAST and null for every other function.
 */
public record Call(Function function, List<Expr> args, DataType castType) implements Expr {

    public Call {
        notNull(function, "Call", "function");
        notNull(args, "Call", "args");
        for (int i = 0; i < args.size(); i++) {
            // Every operator of Expr (col("a").eq(null)) comes here: name the function and the argument.
            notNull(args.get(i), "Expr " + function, "argument " + (i + 1));
        }
        args = List.copyOf(args);
    }

    static Call of(Function function, Expr... args) {
        return new Call(function, Arrays.asList(args), null);
    }

    @Override
    public Expression bind(Schema input, String where) {
        List<Expression> bound = bindAll(args, input, where);
        try {
            return Functions.bind(function, bound, castType, toString());
        } catch (ExpressionTypeException e) {
            throw new PlanException(where, e.getMessage());
        }
    }

    /** {@code args} bound; an untyped NULL literal as a null entry, for the function to accept or refuse. */
    static List<Expression> bindAll(List<Expr> args, Schema input, String where) {
        List<Expression> bound = new ArrayList<>(args.size());
        for (Expr arg : args) {
            bound.add(arg instanceof Literal l && l.type() == null ? null : arg.bind(input, where));
        }
        return bound;
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public String toString() {
        return switch (function) {
            case NEGATE -> "(- " + args.get(0) + ")";
            case NOT -> "(NOT " + args.get(0) + ")";
            case IS_NULL, IS_NOT_NULL -> "(" + args.get(0) + " " + function.symbol() + ")";
            case IN -> "(" + args.get(0) + " IN (" + join(args.subList(1, args.size())) + "))";
            case BETWEEN -> "(" + args.get(0) + " BETWEEN " + args.get(1) + " AND " + args.get(2) + ")";
            case CAST -> "CAST(" + args.get(0) + " AS " + castType
                    + (args.size() == 2 ? " AT TIME ZONE " + args.get(1) : "") + ")";
            case CASE -> caseText();
            default -> function.isInfix()
                    ? "(" + args.get(0) + " " + function.symbol() + " " + args.get(1) + ")"
                    : function.symbol() + "(" + join(args) + ")";
        };
    }

    private String caseText() {
        StringBuilder sb = new StringBuilder("CASE");
        for (int i = 0; i + 1 < args.size(); i += 2) {
            sb.append(" WHEN ").append(args.get(i)).append(" THEN ").append(args.get(i + 1));
        }
        Expr otherwise = args.get(args.size() - 1);
        if (!(otherwise instanceof Literal l && l.value() == null && l.type() == null)) {
            sb.append(" ELSE ").append(otherwise);
        }
        return sb.append(" END").toString();
    }

    private static String join(List<Expr> exprs) {
        return exprs.stream().map(Expr::toString).collect(Collectors.joining(", "));
    }
}
