package io.troupe.operators.agg;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.DataType;

import java.util.Objects;

/**
 * One aggregate of a hash aggregate, bound: the function, its argument, and the type it returns.
 * Immutable and threadsafe.
 *
 * @param function   the aggregate function
 * @param argument   the bound argument; null for count(*)
 * @param distinct   count(DISTINCT x): counts distinct non-NULL values (only with COUNT)
 * @param resultType the output type, as {@link AggregateTypes#resultType} gives it
 * @param text       the call as written, e.g. {@code sum(price)}, named in runtime errors
 */
public record AggregateSpec(AggregateFunction function, Expression argument, boolean distinct,
                            DataType resultType, String text) {

    public AggregateSpec {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(resultType, "resultType");
        Objects.requireNonNull(text, "text");
        if ((function == AggregateFunction.COUNT_STAR) != (argument == null)) {
            throw new IllegalArgumentException("count(*) and only count(*) takes no argument: " + text);
        }
        if (distinct && function != AggregateFunction.COUNT) {
            throw new IllegalArgumentException("DISTINCT is supported with count only: " + text);
        }
    }
}
