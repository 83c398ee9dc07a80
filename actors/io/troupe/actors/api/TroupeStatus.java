package io.troupe.actors.api;

/**
 * What a Troupe holds at one moment, for monitoring and for leak checks (a soak compares two of
 * them): a snapshot, read field by field without a common lock, so the fields of a busy Troupe may
 * come from slightly different instants. What it counted since it started is {@link TroupeCounters}.
 *
 * @param runningQueries     queries not ended: in the actor executor, those whose actors have not all stopped;
 *                           on a caller's thread (0 workers), those whose run has not ended (an open stream's)
 * @param liveWorkers        worker actors of any query that have not stopped
 * @param openChannels       channels of running queries (a query's channels close before its future completes)
 * @param idleChannels       Aeron logs of cleanly ended channels kept for the next queries
 * @param driverPublications publications the embedded Aeron driver still holds (idle ones included; a
 *                           closed one goes a short linger after its consumer drained it); 0 without a driver
 * @param memoryInUseBytes   bytes of the memory budget that queries hold now
 * @param queuedQueries      queries waiting to be admitted ({@code troupe.admission})
 * @param spillHeldBytes     bytes the spill files of running queries hold now ({@code troupe.spill})
 */
public record TroupeStatus(int runningQueries, int liveWorkers, int openChannels, int idleChannels,
                           int driverPublications, long memoryInUseBytes, int queuedQueries, long spillHeldBytes) {
}
