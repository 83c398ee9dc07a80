package io.troupe.operators.exec;

/**
 * The end of a pipeline (hash join build, hash aggregate, sort, the result collector).
 * Immutable and threadsafe; state lives in the {@link SinkState} of an execution.
 *
 * <p>Protocol, after DuckDB's Sink / Combine / Finalize:
 * <ol>
 *   <li>{@link #open} once per execution;</li>
 *   <li>{@link SinkState#local()} once per worker (any thread); the worker pushes its batches into
 *       it and calls {@code finish()}, which merges the worker's local state into the shared
 *       state (may run concurrently with other workers' finish);</li>
 *   <li>{@link SinkState#prepareFinalize()} once, after every local has finished, single-threaded:
 *       it returns the {@link FinalizeWork} that every worker then shares (a hash join's inserts);</li>
 *   <li>{@link SinkState#finalizeSink()} once, after every worker's last {@code step()},
 *       single-threaded. It publishes the result in the {@link ExecContext} for the pipelines that
 *       depend on it.</li>
 * </ol>
 */
public interface Sink {

    SinkState open(ExecContext ctx);

    /** What the workers feeding this sink do, for their names in logs and EXPLAIN ANALYZE ("hash-build"). */
    String role();

    /**
     * For the sink that ends the body of a loop (WITH RECURSIVE's recursive term): the id of the body's first
     * pipeline. Once this sink finalized, the executor runs the pipelines from that one to this one again, as long
     * as {@link SinkState#again()} says so ({@link PipelineOrder}); -1, for every other sink, runs on.
     */
    default int loopStart() {
        return -1;
    }

    /** The shared state of one execution of a sink. Threadsafe as described on {@link Sink}. */
    interface SinkState {
        BatchConsumer local();

        /** The work the workers share before {@link #finalizeSink()}; none unless a sink has some. */
        default FinalizeWork prepareFinalize() {
            return FinalizeWork.NONE;
        }

        void finalizeSink();

        /** After {@link #finalizeSink()}, for the sink that ends a loop's body: whether the body runs again. */
        default boolean again() {
            return false;
        }
    }
}
