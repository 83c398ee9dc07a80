package io.troupe.operators.plan;

/**
 * Hash join types, relative to the left (probe) and right (build) inputs. SEMI and ANTI are left
 * semi and left anti joins and output the left columns only; RIGHT_SEMI and RIGHT_ANTI output the
 * right (build) rows that some probe row matched, or that none did, and the right columns only: the
 * form to choose when the rows to keep are the smaller side (TPC-H q4's orders, probed by its
 * lineitem). Every type that decides on build rows needs per-build-row match flags.
 */
public enum JoinType {
    INNER,
    LEFT,
    RIGHT,
    FULL,
    SEMI,
    ANTI,
    RIGHT_SEMI,
    RIGHT_ANTI;

    /** True when build rows are output once every probe is done, which needs match flags (lesson 1). */
    public boolean needsMatchFlags() {
        return this == RIGHT || this == FULL || this == RIGHT_SEMI || this == RIGHT_ANTI;
    }

    /** True when the build rows output at the end are those no probe matched (else: those matched). */
    public boolean emitsUnmatchedBuildRows() {
        return this == RIGHT || this == FULL || this == RIGHT_ANTI;
    }

    /** True when the output holds the left input's columns. */
    public boolean emitsLeft() {
        return this != RIGHT_SEMI && this != RIGHT_ANTI;
    }

    /** True when the output holds the right input's columns. */
    public boolean emitsRight() {
        return this != SEMI && this != ANTI;
    }

    /** True when each match is an output row of both sides' columns (INNER, LEFT, RIGHT, FULL). */
    public boolean emitsPairs() {
        return emitsLeft() && emitsRight();
    }
}
