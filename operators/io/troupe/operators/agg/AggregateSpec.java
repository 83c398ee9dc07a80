package io.troupe.operators.agg;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.expr.LiteralExpression;
import io.troupe.operators.sort.OrderKey;
import io.troupe.operators.types.DataType;
import io.troupe.operators.udf.OwnAggregate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One aggregate of a hash aggregate, bound: the function, its arguments and ORDER BY keys, and the type it
 * returns. Immutable and threadsafe.
 *
 * <p>The arguments are those of the call as SQL writes it, constants included: none for count(*) and
 * {@code mode()}, {@code (y, x)} for corr and the regressions, {@code (x, separator)} for string_agg,
 * {@code (x, fraction)} for approx_quantile, {@code (fraction)} for the percentiles, whose value is their one
 * WITHIN GROUP key. {@link #inputs} are what each row gives the aggregate.
 *
 * @param function   the aggregate function
 * @param arguments  the bound arguments; constants are {@link LiteralExpression}s
 * @param distinct   count(DISTINCT x) and string_agg(DISTINCT x, ...): each distinct non-NULL value once
 * @param order      the WITHIN GROUP (ORDER BY ...) keys of an ordered-set aggregate (one), or string_agg's ORDER BY
 * @param resultType the output type, as {@link AggregateTypes#resultType} gives it
 * @param text       the call as written, e.g. {@code sum(price)}, named in runtime errors
 * @param own        the aggregate of one's own that an {@link AggregateFunction#OWN} computes, its arguments
 *                   converted to its parameters' types; null for the others
 */
public record AggregateSpec(AggregateFunction function, List<Expression> arguments, boolean distinct,
                            List<OrderKey> order, DataType resultType, String text, OwnAggregate own) {

    public AggregateSpec {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(resultType, "resultType");
        Objects.requireNonNull(text, "text");
        arguments = List.copyOf(arguments);
        order = List.copyOf(order);
        if ((function == AggregateFunction.OWN) != (own != null)) {
            throw new IllegalArgumentException("an aggregate of one's own is an OWN spec that carries it: " + text);
        }
        if (own != null) {
            if (arguments.size() != own.arguments().size() || distinct || !order.isEmpty()
                    || !resultType.equals(own.result())) {
                throw new IllegalArgumentException(own + " takes " + own.arguments().size() + " argument(s), without "
                        + "DISTINCT or ORDER BY: " + text);
            }
        } else {
            checkBuiltIn(function, arguments, distinct, order, text);
        }
    }

    /** Checks a built-in aggregate's call: its arguments, its constants, ORDER BY and DISTINCT where it takes them. */
    private static void checkBuiltIn(AggregateFunction function, List<Expression> arguments, boolean distinct,
                                     List<OrderKey> order, String text) {
        int expected = AggregateTypes.argumentCount(function);
        if (arguments.size() != expected) {
            throw new IllegalArgumentException(function.sqlName() + " takes " + AggregateTypes.signature(function)
                    + ", not " + arguments.size() + " argument(s): " + text);
        }
        if (function.ordered() ? order.size() != 1 : !order.isEmpty() && function != AggregateFunction.STRING_AGG) {
            throw new IllegalArgumentException(function.sqlName() + " takes " + AggregateTypes.signature(function)
                    + ", not " + order.size() + " ORDER BY key(s): " + text);
        }
        if (distinct && function != AggregateFunction.COUNT && function != AggregateFunction.STRING_AGG) {
            throw new IllegalArgumentException("DISTINCT is supported with count and string_agg only: " + text);
        }
        Expression first = arguments.isEmpty() ? null : arguments.get(0);
        if (distinct && function == AggregateFunction.STRING_AGG
                && order.stream().anyMatch(k -> !k.expression().equals(first))) {
            throw new IllegalArgumentException("string_agg(DISTINCT x ORDER BY ...) orders by x alone, as in "
                    + "PostgreSQL: " + text);
        }
        for (int a : AggregateTypes.constantArguments(function)) {
            if (!(arguments.get(a) instanceof LiteralExpression)) {
                throw new IllegalArgumentException(function.sqlName() + " takes a constant as its "
                        + (a == 0 ? "first" : "second") + " argument, not " + arguments.get(a) + ": " + text);
            }
        }
        if (fractionAt(function) >= 0) {
            Object value = ((LiteralExpression) arguments.get(fractionAt(function))).value();
            if (!(value instanceof Number q) || !(q.doubleValue() >= 0 && q.doubleValue() <= 1)) {
                throw new IllegalArgumentException(function.sqlName() + " takes a fraction between 0 and 1, not "
                        + value + ": " + text);
            }
        }
    }

    /** A built-in aggregate: {@code own} is null. */
    public AggregateSpec(AggregateFunction function, List<Expression> arguments, boolean distinct,
                         List<OrderKey> order, DataType resultType, String text) {
        this(function, arguments, distinct, order, resultType, text, null);
    }

    /** A call of {@code own} over {@code arguments}, converted to its parameters' types already. */
    public static AggregateSpec of(OwnAggregate own, List<Expression> arguments, String text) {
        return new AggregateSpec(AggregateFunction.OWN, arguments, false, List.of(), own.result(), text, own);
    }

    /**
     * The aggregate of a call, its result type as {@link AggregateTypes#resultType} gives it for its inputs' types.
     *
     * @throws IllegalArgumentException naming the function and its signature when the arguments or ORDER BY keys do
     *                                  not fit it, or their types do not
     */
    public static AggregateSpec of(AggregateFunction function, List<Expression> arguments, boolean distinct,
                                   List<OrderKey> order, String text) {
        // Checked for its shape first, so that its inputs can be typed.
        AggregateSpec shape = new AggregateSpec(function, arguments, distinct, order, DataType.INT64, text);
        DataType type = AggregateTypes.resultType(function, shape.inputs().stream().map(Expression::type).toList());
        return new AggregateSpec(function, arguments, distinct, order, type, text);
    }

    /** A one-argument aggregate (or count(*), with a null argument). */
    public AggregateSpec(AggregateFunction function, Expression argument, boolean distinct, DataType resultType,
                         String text) {
        this(function, argument == null ? List.of() : List.of(argument), distinct, List.of(), resultType, text);
    }

    /** The value the aggregate is of: its WITHIN GROUP key when ordered, else its first argument; null for count(*). */
    public Expression argument() {
        if (function.ordered()) {
            return order.get(0).expression();
        }
        return arguments.isEmpty() ? null : arguments.get(0);
    }

    /**
     * What each row gives the aggregate, evaluated per batch: the value ({@link #argument}) first, then x of a pair
     * (y, x), or string_agg's ORDER BY keys; nothing for count(*); every argument of an aggregate of one's own.
     */
    public List<Expression> inputs() {
        if (own != null) {
            return arguments;
        }
        Expression value = argument();
        if (value == null) {
            return List.of();
        }
        List<Expression> inputs = new ArrayList<>();
        inputs.add(value);
        if (function.paired()) {
            inputs.add(arguments.get(1));
        } else if (function == AggregateFunction.STRING_AGG) {
            order.forEach(k -> inputs.add(k.expression()));
        }
        return List.copyOf(inputs);
    }

    /** The fraction of percentile_cont, percentile_disc (0.5 for median) and approx_quantile, exactly as written. */
    BigDecimal fraction() {
        if (function == AggregateFunction.MEDIAN) {
            return BigDecimal.valueOf(5, 1);
        }
        Object value = ((LiteralExpression) arguments.get(fractionAt(function))).value();
        return value instanceof BigDecimal exact ? exact : new BigDecimal(value.toString());
    }

    /** string_agg's separator; a NULL separator joins with nothing, as in PostgreSQL. */
    String separator() {
        Object value = ((LiteralExpression) arguments.get(1)).value();
        return value == null ? "" : value.toString();
    }

    /** Whether an ordered-set aggregate orders its values descending. */
    boolean descending() {
        return function.ordered() && !order.get(0).ascending();
    }

    private static int fractionAt(AggregateFunction function) {
        return switch (function) {
            case PERCENTILE_CONT, PERCENTILE_DISC -> 0;
            case APPROX_QUANTILE -> 1;
            default -> -1;
        };
    }
}
