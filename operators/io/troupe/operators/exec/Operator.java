package io.troupe.operators.exec;

/**
 * A streaming step of a pipeline (filter, project, hash join probe, limit): it transforms the
 * batches pushed into it and pushes the results on. Immutable and threadsafe; state lives in
 * the {@link OperatorState} of an execution.
 */
public interface Operator {

    /** Starts one execution. Called once per query, after every pipeline this one depends on finished. */
    OperatorState open(ExecContext ctx);

    /** The shared state of one execution (a limit's counter, a probe's hash table). Threadsafe. */
    interface OperatorState {
        /** This operator for one worker, pushing to {@code downstream}. The result is not threadsafe. */
        BatchConsumer bind(BatchConsumer downstream);
    }
}
