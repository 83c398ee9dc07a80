package io.troupe.operators.plan;

import static io.troupe.operators.Arguments.notNull;

/** One ORDER BY key: an expression, its direction and where NULLs go. Immutable. */
public record SortKey(Expr expr, boolean ascending, boolean nullsFirst) {

    public SortKey {
        notNull(expr, "SortKey", "expr");
    }

    /** This key with NULLs before every value. */
    public SortKey withNullsFirst() {
        return new SortKey(expr, ascending, true);
    }

    /** This key with NULLs after every value. */
    public SortKey withNullsLast() {
        return new SortKey(expr, ascending, false);
    }

    @Override
    public String toString() {
        return expr + (ascending ? " ASC" : " DESC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
}
