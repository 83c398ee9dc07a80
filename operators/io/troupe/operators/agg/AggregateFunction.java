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
    AVG("avg");

    private final String sqlName;

    AggregateFunction(String sqlName) {
        this.sqlName = sqlName;
    }

    public String sqlName() {
        return sqlName;
    }
}
