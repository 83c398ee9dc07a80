package io.troupe.transport;

/**
 * The consumer's end of a {@link BatchChannel}. Not threadsafe: owned by one consumer; only
 * {@link #close()} may be called from another thread.
 */
public interface BatchReceiver extends AutoCloseable {

    /** Where the stream stands, as seen by the consumer. */
    enum State {
        /** More may come: keep polling. */
        OPEN,
        /** The end of stream was delivered: nothing more will come. */
        END_OF_STREAM,
        /** The producer closed its end without an end of stream (it failed or was cancelled). */
        PRODUCER_GONE,
        /** This receiver was closed. */
        CLOSED
    }

    /**
     * Delivers up to {@code batchLimit} frames (batches, and the end of stream) to {@code handler} and
     * returns how many it delivered: 0 when nothing was ready. Bounded work per call, so the caller
     * can check for cancellation between calls. Returns 0 once the state is not OPEN.
     * An exception thrown by the handler propagates once the frame that caused it is consumed.
     */
    int poll(BatchHandler handler, int batchLimit);

    State state();

    /**
     * Tells a parked producer now about consumption pending a batched signal. Call it before this
     * consumer waits for anything other than this channel. A no-op on Aeron, whose consumer position
     * is always visible to the producer.
     */
    void flush();

    /**
     * Waits the channel's way after a poll that delivered nothing ({@code workCount == 0}): the idle
     * strategy on Aeron, the monitor until the producer signals on the locked queue. A positive
     * {@code workCount} resets the idle strategy and returns at once.
     */
    void idle(int workCount);

    /** Releases this end (idempotent, any thread): the producer's offers return CLOSED from then on. */
    @Override
    void close();
}
