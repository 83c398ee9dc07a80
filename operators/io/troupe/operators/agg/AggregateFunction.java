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
    SINGLE_VALUE("single_value"),
    /** the middle value: the mean of the two middle ones for a numeric argument, the lower one for a VARCHAR */
    MEDIAN("median"),
    /** percentile_cont(fraction) WITHIN GROUP (ORDER BY x): interpolated between the two nearest values */
    PERCENTILE_CONT("percentile_cont"),
    /** percentile_disc(fraction) WITHIN GROUP (ORDER BY x): the first value at or past the fraction */
    PERCENTILE_DISC("percentile_disc"),
    /** mode() WITHIN GROUP (ORDER BY x): the most frequent value, the first in that order among equals */
    MODE("mode"),
    /** string_agg(x, separator [ORDER BY ...]): the values joined by the separator */
    STRING_AGG("string_agg"),
    /** true when every non-NULL value is true */
    BOOL_AND("bool_and"),
    /** true when some non-NULL value is true */
    BOOL_OR("bool_or"),
    /**
     * corr(y, x) and the other aggregates of pairs of numbers, over the rows where neither is NULL
     * ({@link CovarianceState} has the arithmetic of the twelve)
     */
    CORR("corr"),
    COVAR_POP("covar_pop"),
    COVAR_SAMP("covar_samp"),
    REGR_SLOPE("regr_slope"),
    REGR_INTERCEPT("regr_intercept"),
    REGR_R2("regr_r2"),
    REGR_COUNT("regr_count"),
    REGR_AVGX("regr_avgx"),
    REGR_AVGY("regr_avgy"),
    REGR_SXX("regr_sxx"),
    REGR_SYY("regr_syy"),
    REGR_SXY("regr_sxy"),
    /** an estimate of count(DISTINCT x) from a HyperLogLog sketch per group ({@link DistinctSketchState}) */
    APPROX_COUNT_DISTINCT("approx_count_distinct"),
    /** approx_quantile(x, fraction): a value near that rank, from a sketch per group ({@link QuantileSketchState}) */
    APPROX_QUANTILE("approx_quantile"),
    /**
     * an aggregate of one's own, written in Java ({@code io.troupe.operators.udf.UserAggregate}): its spec carries it
     * ({@link AggregateSpec#own}), and a plan calls it by its name ({@code UserCall}), never by this constant
     */
    OWN("own");

    private final String sqlName;

    AggregateFunction(String sqlName) {
        this.sqlName = sqlName;
    }

    public String sqlName() {
        return sqlName;
    }

    /** Whether it counts, and so is never NULL: 0 for a group without values. */
    public boolean counts() {
        return this == COUNT_STAR || this == COUNT || this == REGR_COUNT || this == APPROX_COUNT_DISTINCT;
    }

    /**
     * Whether its value is the WITHIN GROUP (ORDER BY x) key (percentile_cont, percentile_disc, mode), as SQL's
     * ordered-set aggregates take it, rather than an argument.
     */
    public boolean ordered() {
        return this == PERCENTILE_CONT || this == PERCENTILE_DISC || this == MODE;
    }

    /** Whether it takes two values per row (y, x): corr, the covariances and the regressions. */
    public boolean paired() {
        return compareTo(CORR) >= 0 && compareTo(REGR_SXY) <= 0;
    }

    /**
     * Whether its state keeps every value of its group (median, the percentiles, mode, string_agg), so that it grows
     * with the input rather than with the groups.
     */
    public boolean holistic() {
        return this == MEDIAN || ordered() || this == STRING_AGG;
    }
}
