package io.troupe.operators.agg;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

/** The result type of each aggregate function, by argument type (DuckDB's choices where SQL leaves one). */
public final class AggregateTypes {

    private AggregateTypes() {
    }

    /**
     * @param argument the argument's type; null for count(*)
     * @return the result type
     * @throws IllegalArgumentException naming the function and type when the function does not apply
     */
    public static DataType resultType(AggregateFunction function, DataType argument) {
        return switch (function) {
            case COUNT_STAR, COUNT -> DataType.INT64;
            case SUM -> switch (argument.id()) {
                case INT32, INT64 -> DataType.INT64;
                case DECIMAL -> DataType.decimal(DataType.MAX_DECIMAL_PRECISION, argument.scale());
                case FLOAT64 -> DataType.FLOAT64;
                default -> throw unsupported(function, argument);
            };
            case AVG, VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP -> {
                if (!argument.isNumeric()) {
                    throw unsupported(function, argument);
                }
                yield DataType.FLOAT64;
            }
            case MIN, MAX, SINGLE_VALUE -> argument;
        };
    }

    private static IllegalArgumentException unsupported(AggregateFunction function, DataType argument) {
        return new IllegalArgumentException(function.sqlName() + " does not apply to " + argument
                + (argument.isNumeric() ? "" : "; it needs a numeric argument"));
    }
}
