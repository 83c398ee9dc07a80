package io.troupe.operators.agg;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

import java.util.List;

/**
 * The signature and result type of each aggregate function, by argument type: PostgreSQL's choices, and DuckDB's
 * where PostgreSQL has no such function (median, approx_quantile) or SQL leaves one.
 */
public final class AggregateTypes {

    private AggregateTypes() {
    }

    /**
     * @param argument the argument's type; null for count(*)
     * @return the result type
     * @throws IllegalArgumentException naming the function and type when the function does not apply
     */
    public static DataType resultType(AggregateFunction function, DataType argument) {
        return resultType(function, argument == null ? List.of() : List.of(argument));
    }

    /**
     * @param inputs the types of what each row gives the aggregate ({@link AggregateSpec#inputs}): its value, then
     *               x of a pair (y, x) or string_agg's ORDER BY keys
     * @return the result type
     * @throws IllegalArgumentException naming the function, the type and the signature when the function does not
     *                                  apply
     */
    public static DataType resultType(AggregateFunction function, List<DataType> inputs) {
        DataType argument = inputs.isEmpty() ? null : inputs.get(0);
        return switch (function) {
            case COUNT_STAR, COUNT, APPROX_COUNT_DISTINCT -> DataType.INT64;
            case SUM -> switch (argument.id()) {
                // PostgreSQL's sum of a SMALLINT is a BIGINT; of a REAL a DOUBLE, as DuckDB's (PostgreSQL's is a REAL).
                case INT32, INT64, INT16, INT8 -> DataType.INT64;
                case DECIMAL -> DataType.decimal(DataType.MAX_DECIMAL_PRECISION, argument.scale());
                case FLOAT64, FLOAT32 -> DataType.FLOAT64;
                default -> throw unsupported(function, argument);
            };
            case AVG, VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP -> numeric(function, argument, DataType.FLOAT64);
            case PERCENTILE_CONT -> numeric(function, oneWord(function, argument), DataType.FLOAT64);
            case MIN, MAX, SINGLE_VALUE -> argument;
            // Their values are kept one word each: an INTERVAL or a DECIMAL of more than 18 digits, of two, is not
            // one of them.
            case PERCENTILE_DISC, MODE -> oneWord(function, argument);
            // DuckDB's: the mean of two middle integers or doubles is a DOUBLE, of two decimals the decimal type.
            case MEDIAN -> switch (argument.id()) {
                case INT32, INT64, FLOAT64, INT16, INT8, FLOAT32 -> DataType.FLOAT64;
                case DECIMAL -> oneWord(function, argument);
                case VARCHAR -> argument;
                default -> throw new IllegalArgumentException("median does not apply to " + argument
                        + "; it needs a numeric or VARCHAR argument: median(x)");
            };
            case STRING_AGG -> only(function, argument, DataType.VARCHAR);
            case BOOL_AND, BOOL_OR -> only(function, argument, DataType.BOOLEAN);
            case CORR, COVAR_POP, COVAR_SAMP, REGR_SLOPE, REGR_INTERCEPT, REGR_R2, REGR_COUNT, REGR_AVGX, REGR_AVGY,
                 REGR_SXX, REGR_SYY, REGR_SXY -> {
                numeric(function, argument, argument);
                numeric(function, inputs.get(1), argument);
                yield function == AggregateFunction.REGR_COUNT ? DataType.INT64 : DataType.FLOAT64;
            }
            case APPROX_QUANTILE -> argument.id().isTemporal() ? argument
                    : oneWord(function, numeric(function, argument, argument));
            case OWN -> throw new IllegalArgumentException("an aggregate of one's own has the result type it was "
                    + "registered with");
        };
    }

    /** The argument, which must be of a type whose values are one word each (not INTERVAL, not a wide DECIMAL). */
    private static DataType oneWord(AggregateFunction function, DataType argument) {
        if (argument.physical() == PhysicalType.INT128) {
            boolean interval = argument.id() == TypeId.INTERVAL;
            throw new IllegalArgumentException(function.sqlName() + " does not take "
                    + (interval ? "an INTERVAL" : "a " + argument.sqlName()) + " yet: " + signature(function)
                    + " of any other type" + (interval ? "" : " (a DECIMAL of at most 18 digits)"));
        }
        return argument;
    }

    /** How many arguments the function takes as SQL writes it (a WITHIN GROUP key is not one). */
    static int argumentCount(AggregateFunction function) {
        return switch (function) {
            case COUNT_STAR, MODE -> 0;
            case STRING_AGG, APPROX_QUANTILE -> 2;
            case PERCENTILE_CONT, PERCENTILE_DISC -> 1;
            default -> function.paired() ? 2 : 1;
        };
    }

    /** The arguments that must be constants: the fractions, string_agg's separator. */
    static List<Integer> constantArguments(AggregateFunction function) {
        return switch (function) {
            case PERCENTILE_CONT, PERCENTILE_DISC -> List.of(0);
            case STRING_AGG, APPROX_QUANTILE -> List.of(1);
            default -> List.of();
        };
    }

    /** The function's signature as errors and the docs write it, e.g. {@code corr(y, x)}. */
    public static String signature(AggregateFunction function) {
        String name = function.sqlName();
        return switch (function) {
            case COUNT_STAR -> "count(*)";
            case PERCENTILE_CONT, PERCENTILE_DISC -> name + "(fraction) WITHIN GROUP (ORDER BY x)";
            case MODE -> "mode() WITHIN GROUP (ORDER BY x)";
            case STRING_AGG -> "string_agg(x, separator [ORDER BY ...])";
            case APPROX_QUANTILE -> "approx_quantile(x, fraction)";
            default -> name + (function.paired() ? "(y, x)" : "(x)");
        };
    }

    private static DataType numeric(AggregateFunction function, DataType argument, DataType result) {
        if (!argument.isNumeric()) {
            throw unsupported(function, argument);
        }
        return result;
    }

    private static DataType only(AggregateFunction function, DataType argument, DataType type) {
        if (!argument.equals(type)) {
            throw new IllegalArgumentException(function.sqlName() + " does not apply to " + argument + "; it takes "
                    + signature(function) + " with a " + type.sqlName() + " x");
        }
        return argument;
    }

    private static IllegalArgumentException unsupported(AggregateFunction function, DataType argument) {
        return new IllegalArgumentException(function.sqlName() + " does not apply to " + argument
                + (argument.isNumeric() ? "" : "; it needs a numeric argument")
                + (function.compareTo(AggregateFunction.SINGLE_VALUE) > 0 ? ": " + signature(function) : ""));
    }
}
