package io.troupe.operators.plan;

import io.troupe.operators.TroupeException;

/**
 * A plan that cannot run: an unknown or ambiguous column, a type mismatch, an aggregate where
 * none is allowed, a join without equality keys. Raised by validation, before anything runs;
 * the message names the plan node and, where there is one, the column.
 */
public final class PlanException extends TroupeException {

    private final String node;

    public PlanException(String node, String message) {
        super(Category.QUERY, message + " (in " + node + ")");
        this.node = node;
    }

    /** The plan node where validation failed, as EXPLAIN labels it. */
    public String node() {
        return node;
    }
}
