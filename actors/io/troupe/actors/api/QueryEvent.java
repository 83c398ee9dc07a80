package io.troupe.actors.api;

/**
 * How one query of a {@link Troupe} ended, as its {@link QueryListener}s are told: once per query,
 * whether it ran or was turned away before it could.
 *
 * @param queryId         the query's id ({@link RunningQuery#queryId()}, {@link QueryStream#queryId()})
 * @param outcome         how it ended
 * @param rejection       why admission turned it away when {@code outcome} is {@link Outcome#REJECTED}; else null
 * @param queuedNanos     how long it waited to be admitted (0 when it was admitted at once)
 * @param runningNanos    from its admission to its end: its run, with a stream's waits on its reader (0 when it
 *                        was never admitted)
 * @param workers         workers it asked for (0: the leader alone, on the caller's thread)
 * @param peakMemoryBytes the most bytes its operators held at once ({@code troupe.memory.budget}'s accounting)
 * @param spilledBytes    bytes it wrote to spill files
 */
public record QueryEvent(long queryId, Outcome outcome, QueryRejectedException.Reason rejection, long queuedNanos,
                         long runningNanos, int workers, long peakMemoryBytes, long spilledBytes) {

    /** How a query ended. */
    public enum Outcome {
        /** It ran to its end: the caller has (or can read) its whole result. */
        SUCCEEDED,
        /** An operator failed (an expression error, memory it could not have), or it could not start. */
        FAILED,
        /**
         * It was stopped before its end: its caller cancelled it or closed its stream early, its thread was
         * interrupted while it waited to be admitted, or the Troupe closed.
         */
        CANCELLED,
        /** It was stopped once it had run as long as its {@link QueryOptions#timeout()}. */
        TIMED_OUT,
        /** Admission turned it away ({@link QueryRejectedException}); nothing of it ran. */
        REJECTED
    }
}
