package io.troupe.operators.plan;

/**
 * Hash join types, relative to the left (probe) and right (build) inputs. Only RIGHT and FULL
 * need per-build-row match flags (to emit unmatched build rows at the end); SEMI and ANTI are
 * left semi and left anti joins and output the left columns only.
 */
public enum JoinType {
    INNER,
    LEFT,
    RIGHT,
    FULL,
    SEMI,
    ANTI;

    /** True when unmatched build rows are emitted, which needs match flags (lesson 1). */
    public boolean needsMatchFlags() {
        return this == RIGHT || this == FULL;
    }

    /** True when the output holds the right input's columns. */
    public boolean emitsRight() {
        return this != SEMI && this != ANTI;
    }
}
