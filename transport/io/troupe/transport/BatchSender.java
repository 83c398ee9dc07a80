package io.troupe.transport;

import io.troupe.operators.batch.Batch;

/**
 * The producer's end of a {@link BatchChannel}. Not threadsafe: owned by one producer; only
 * {@link #close()} may be called from another thread.
 *
 * <p>Offers never block and never throw on the hot path: they return a positive position when the
 * batch was sent, or one of the negative constants below, each of which says what to do. Misuse
 * (an offer after the end of stream, a different batch after a partial send, a single row larger
 * than the channel's largest message) throws.
 */
public interface BatchSender extends AutoCloseable {

    /** No consumer is attached yet: retry (after {@link #idle(int) idle(0)}). */
    long NOT_CONNECTED = -1;

    /**
     * The consumer is behind and the channel is full: retry the same batch after
     * {@link #idle(int) idle(0)}. Part of a large batch may already have been sent; offering the
     * same batch again sends the rest.
     */
    long BACK_PRESSURED = -2;

    /** The channel is closed at either end (the consumer left, or this sender was closed): stop sending. */
    long CLOSED = -4;

    /**
     * Sends the live rows of {@code batch}. The batch is not modified and, on the locked-queue
     * channel, handed over as it is: do not modify it afterwards (batches are immutable by contract).
     *
     * @return a positive position (grows with every send), or NOT_CONNECTED, BACK_PRESSURED or CLOSED
     * @throws IllegalStateException after the end of stream, or when another batch is offered while one
     *                               is partly sent (back-pressured after some of its rows went out)
     * @throws IllegalArgumentException when one row alone encodes to more than the largest message
     */
    long offer(Batch batch);

    /** Sends the end of stream; afterwards only {@link #close()} may follow. Returns as {@link #offer} does. */
    long offerEndOfStream();

    /**
     * Wakes a consumer parked on this channel now if sends are pending a batched wake-up. Call it before
     * this producer waits for anything other than this channel: whatever drains a channel never waits on a
     * thread that a full channel may hold.
     * Positions in shared memory need no signal: a no-op on Aeron.
     */
    void flush();

    /**
     * Waits the channel's way after an offer that made no progress ({@code workCount == 0}): the idle
     * strategy on Aeron, the monitor until the consumer signals on the locked queue. A positive
     * {@code workCount} resets the idle strategy and returns at once.
     */
    void idle(int workCount);

    /** Releases this end (idempotent, any thread). Without a prior end of stream the consumer sees PRODUCER_GONE. */
    @Override
    void close();
}
