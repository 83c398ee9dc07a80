package io.troupe.operators.agg;

/**
 * What a {@link HashAggregateSink} takes in and gives out. An aggregate with count(DISTINCT)
 * beside other aggregates runs in steps, as DuckDB runs its distinct aggregates: the input feeds
 * a {@link #PARTIAL} step of the other aggregates per keys and, per distinct argument x, a plain
 * aggregate per (keys, x) whose rows are then counted per keys by a {@link #PARTIAL} count(x); a
 * {@link #FINAL} step combines those partial results per keys. Every step is a plain aggregate,
 * which spills over the budget, where the one-step count(DISTINCT)'s set of pairs cannot.
 */
public enum AggregateStep {
    /** Rows in; out, one row per group: the keys, then the aggregates' values. */
    COMPLETE,
    /**
     * Rows in; out, one row per group: the keys, then each aggregate's partial state (the
     * columns it spills, see {@link AggregateState#partial}), so that a {@link #FINAL} step can
     * combine them exactly. No count(DISTINCT).
     */
    PARTIAL,
    /**
     * Partial states in: the keys are the input's first columns, then each aggregate's partial
     * state, in order (as a {@link #PARTIAL} step gives them out, or the state of no rows: see
     * {@link PartialStatesSource}). Out as {@link #COMPLETE}. No count(DISTINCT).
     */
    FINAL
}
