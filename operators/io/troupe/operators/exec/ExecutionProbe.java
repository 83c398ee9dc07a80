package io.troupe.operators.exec;

import io.troupe.operators.memory.MemoryReservation;

import java.util.List;

/**
 * What an executor reports to EXPLAIN ANALYZE: {@link PipelineRun} hands each participant's readers
 * and consumers to a probe to be wrapped while it binds them, and times each sink's finalize. An
 * {@link ExecContext} without a probe (every ordinary query) wraps nothing and times nothing, so
 * instrumentation costs nothing when it is off: the only test is one null check per bind.
 *
 * <p>Operators never see a probe: the wrappers sit between them, in the chains that
 * {@link PipelineRun#bind} builds (and, for the operators a Gather Merge runs above its merge, in the
 * chain {@code SortedStreams.chain} builds).
 *
 * <h2>Concurrency</h2>
 * {@link #bind} is called on the binding participant's thread, concurrently for different
 * participants; the {@link Recorder} it returns and the wrappers that recorder makes belong to that
 * one participant (they are touched only by the thread driving its task at the time, as the task
 * itself). {@link #finalized} is called on the executor's thread and, for the steps of a sink's
 * finalize work, on every worker's, concurrently: it must be threadsafe. Implementations say how their
 * counts are published to the thread that reads them at the end.
 */
public interface ExecutionProbe {

    /** The participant number of the leader: the thread stepping a LocalRun, or a Gather running morsels itself. */
    int LEADER = -1;

    /**
     * {@code participant} (a worker's index, or {@link #LEADER}) is about to bind its chains over
     * {@code pipeline}: the recorder that wraps them.
     */
    Recorder bind(Pipeline pipeline, int participant);

    /**
     * {@code pipeline}'s sink spent {@code nanos} finalizing: preparing, one step of its
     * {@link FinalizeWork} (from any worker), or {@link Sink.SinkState#finalizeSink()} itself.
     */
    void finalized(Pipeline pipeline, long nanos);

    /**
     * The query ended: what each operator's memory account held at its peak and spilled. Called once,
     * by the executor's thread that releases the query, after every participant stopped.
     */
    default void memory(List<MemoryReservation> reservations) {
    }

    /** Wraps one participant's readers and consumers. Not threadsafe: owned by that participant. */
    interface Recorder {

        /** Branch {@code branch}'s reader. */
        Source.SourceReader source(int branch, Source.SourceReader reader);

        /** The consumer that branch {@code branch} ends in (a sink local, or an exchange's tail). */
        BatchConsumer sink(int branch, BatchConsumer tail);

        /** The consumer operator {@code index} of branch {@code branch} bound for this participant. */
        BatchConsumer operator(int branch, int index, BatchConsumer bound);

        /**
         * The head of branch {@code branch}'s chain when no reader of this participant feeds it, but
         * an exchange pushes into it (a Gather Merge pushes the merge of the workers' sorted streams
         * into the operators above the sort): what enters counts where the branch's reader would.
         */
        BatchConsumer input(int branch, BatchConsumer head);
    }
}
