package io.troupe.operators.sort;

import io.troupe.operators.expr.Expression;

/**
 * One bound ORDER BY key: the expression (bound against the sort's input), its direction and
 * where its NULLs go. NULL placement is always explicit (the plan's {@code SortKey} supplies
 * PostgreSQL's defaults: ASC NULLS LAST, DESC NULLS FIRST).
 *
 * <p>Immutable and threadsafe.
 *
 * @param expression the key, evaluated over each input batch
 * @param ascending  true for ASC, false for DESC
 * @param nullsFirst true when NULLs sort before every value, whatever the direction
 */
public record OrderKey(Expression expression, boolean ascending, boolean nullsFirst) {

    @Override
    public String toString() {
        return expression + (ascending ? " ASC" : " DESC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
}
