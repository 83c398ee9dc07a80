package io.troupe.operators.exec;

/**
 * A streaming step of a pipeline (filter, project, hash join probe, limit): it transforms the
 * batches pushed into it and pushes the results on. Immutable and threadsafe; state lives in
 * the {@link OperatorState} of an execution.
 */
public interface Operator {

    /**
     * Starts one execution: once per query (once per round of a loop's body that the pipeline belongs to), after
     * every pipeline this one depends on finished.
     */
    OperatorState open(ExecContext ctx);

    /**
     * Whether this operator must see all of its input in one JVM: a LIMIT's one count, a RIGHT or FULL
     * join's build rows that no probe matched. A query spread over nodes runs a pipeline that holds
     * one on its coordinator alone.
     */
    default boolean needsWholeInput() {
        return false;
    }

    /** The shared state of one execution (a limit's counter, a probe's hash table). Threadsafe. */
    interface OperatorState {
        /** This operator for one worker, pushing to {@code downstream}. The result is not threadsafe. */
        BatchConsumer bind(BatchConsumer downstream);
    }
}
