package io.troupe.operators.agg;

/** The aggregate functions of plans; only {@code Plan.aggregate} accepts them. */
public enum AggregateFunction {
    /** count(*): rows, NULLs included; takes no argument */
    COUNT_STAR("count"),
    /** count(x): rows where x is not NULL; with distinct, distinct non-NULL values */
    COUNT("count"),
    SUM("sum"),
    MIN("min"),
    MAX("max"),
    AVG("avg"),
    /** the sample variance: NULL under 2 values ({@link VarianceState} has the arithmetic of the four) */
    VAR_SAMP("var_samp"),
    /** the population variance: NULL without values */
    VAR_POP("var_pop"),
    STDDEV_SAMP("stddev_samp"),
    STDDEV_POP("stddev_pop"),
    /**
     * the value of the group's one row (NULL without rows); a second row fails the query: Calcite's SINGLE_VALUE
     * around a scalar subquery ({@link SingleValueState})
     */
    SINGLE_VALUE("single_value");

    private final String sqlName;

    AggregateFunction(String sqlName) {
        this.sqlName = sqlName;
    }

    public String sqlName() {
        return sqlName;
    }
}
