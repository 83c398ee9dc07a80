package io.troupe.operators.window;

import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.agg.AggregateTypes;
import io.troupe.operators.types.DataType;

/**
 * The functions a window computes for each row (SQL's {@code f(...) OVER (...)}): the ranking functions,
 * which read the row's place among its partition's rows and peers; the aggregates, over the row's frame;
 * and the value functions, which read another row's value. Result types are DuckDB's: ranks and counts
 * BIGINT, PERCENT_RANK and CUME_DIST DOUBLE, SUM and AVG as the aggregates' ({@link AggregateTypes}),
 * MIN, MAX and the value functions their argument's type.
 */
public enum WindowFunction {
    ROW_NUMBER("row_number", false),
    RANK("rank", false),
    DENSE_RANK("dense_rank", false),
    PERCENT_RANK("percent_rank", false),
    CUME_DIST("cume_dist", false),
    /** ntile(n): the row's bucket, 1..n, of n as equal as can be (the first ones one row larger). */
    NTILE("ntile", false),
    /** count(*) over the frame: rows, NULLs included. */
    COUNT_STAR("count", true),
    COUNT("count", true),
    SUM("sum", true),
    AVG("avg", true),
    MIN("min", true),
    MAX("max", true),
    /** lag(x, offset, default): x of the row offset rows before in the partition, else default (else NULL). */
    LAG("lag", false),
    LEAD("lead", false),
    FIRST_VALUE("first_value", true),
    LAST_VALUE("last_value", true),
    /** nth_value(x, n): x of the frame's n-th row (from 1), NULL when the frame has fewer. */
    NTH_VALUE("nth_value", true);

    private final String sqlName;
    private final boolean framed;

    WindowFunction(String sqlName, boolean framed) {
        this.sqlName = sqlName;
        this.framed = framed;
    }

    public String sqlName() {
        return sqlName;
    }

    /** Whether the function reads the rows of its frame; the others ignore the frame. */
    public boolean framed() {
        return framed;
    }

    /** Whether IGNORE NULLS applies: the functions that take another row's value. */
    public boolean takesNullTreatment() {
        return switch (this) {
            case LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> true;
            default -> false;
        };
    }

    /** Whether the function takes a value argument (a column or an expression over the row). */
    public boolean takesValue() {
        return switch (this) {
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, COUNT_STAR -> false;
            default -> true;
        };
    }

    /**
     * The window function of an aggregate function (count(DISTINCT) has none).
     *
     * @throws IllegalArgumentException for the aggregates that windows do not compute (the variances, standard
     *         deviations, single_value, the percentiles, ...)
     */
    public static WindowFunction of(AggregateFunction function) {
        return switch (function) {
            case COUNT_STAR -> COUNT_STAR;
            case COUNT -> COUNT;
            case SUM -> SUM;
            case AVG -> AVG;
            case MIN -> MIN;
            case MAX -> MAX;
            default -> throw new IllegalArgumentException(function.sqlName() + " over a window is not supported");
        };
    }

    /**
     * @param argument the value argument's type; null for a function without one
     * @throws IllegalArgumentException naming the function and type when the function does not apply
     */
    public DataType resultType(DataType argument) {
        return switch (this) {
            case ROW_NUMBER, RANK, DENSE_RANK, NTILE, COUNT_STAR, COUNT -> DataType.INT64;
            case PERCENT_RANK, CUME_DIST -> DataType.FLOAT64;
            case SUM -> AggregateTypes.resultType(AggregateFunction.SUM, argument);
            case AVG -> AggregateTypes.resultType(AggregateFunction.AVG, argument);
            case MIN, MAX, LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> argument;
        };
    }
}
