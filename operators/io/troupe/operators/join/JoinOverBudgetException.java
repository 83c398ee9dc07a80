package io.troupe.operators.join;

import io.troupe.operators.exec.QueryFailedException;

/**
 * A hash join needed memory that its query's budget refused and could not spill to make room: its
 * partition's rows share too many hash bits to split, spilling is off, or what is left after
 * spilling holds not even its spill buffers. The message names the join, the partition and the
 * limit. A worker joining a spilled partition catches it before it emitted a row and tries the
 * partition again once the other workers' partitions gave their memory back.
 */
final class JoinOverBudgetException extends QueryFailedException {

    JoinOverBudgetException(String message) {
        super(message);
    }
}
