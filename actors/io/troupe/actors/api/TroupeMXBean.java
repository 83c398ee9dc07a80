package io.troupe.actors.api;

/**
 * A Troupe seen over JMX, registered as {@code io.troupe:type=Troupe,name=troupe-N} (N as in
 * {@link Troupe#name()}) while the Troupe runs when {@code troupe.metrics.jmx = on}, and unregistered by
 * its close. Every attribute is read when asked: the first group from {@link Troupe#status()} (what it
 * holds now), the second from {@link Troupe#counters()} (counted since it started, only growing).
 * Latency percentiles are not here: they are Micrometer's job ({@code io.troupe.actors.metrics.TroupeMetrics}
 * records them as histograms a registry can publish).
 */
public interface TroupeMXBean {

    /** Queries admitted and not ended (a stream's until it ends or is closed). */
    int getRunningQueries();

    /** Queries waiting to be admitted. */
    int getQueuedQueries();

    /** Worker actors that have not stopped. */
    int getLiveWorkers();

    /** Channels of running queries. */
    int getOpenChannels();

    /** Bytes of {@code troupe.memory.budget} that queries hold now. */
    long getMemoryUsedBytes();

    /** {@code troupe.memory.budget} in bytes. */
    long getMemoryBudgetBytes();

    /** Bytes the spill files of running queries hold now. */
    long getSpillHeldBytes();

    /** Queries admitted since start. */
    long getQueriesAdmitted();

    /** Queries that ran to their end. */
    long getQueriesSucceeded();

    /** Queries that failed, or could not start. */
    long getQueriesFailed();

    /** Queries cancelled (by their caller, a closed stream, an interrupt while queued, the Troupe's close). */
    long getQueriesCancelled();

    /** Queries stopped at their timeout. */
    long getQueriesTimedOut();

    /** Queries admission turned away, for any reason (the four below added up). */
    long getQueriesRejected();

    /** Queries turned away because {@code troupe.admission.queue-size} queries were waiting. */
    long getQueriesRejectedQueueFull();

    /** Queries turned away after {@code troupe.admission.queue-timeout} in the queue. */
    long getQueriesRejectedQueueTimeout();

    /** Queries turned away because what they must be given could never fit. */
    long getQueriesRejectedNeverFits();

    /** Queries turned away because the Troupe closed. */
    long getQueriesRejectedClosed();

    /** Times a worker found its channel to the Gather full and waited for room. */
    long getBackPressureEvents();

    /** Bytes written to spill files since start. */
    long getSpillWrittenBytes();
}
