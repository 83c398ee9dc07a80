package io.troupe.actors.exchange;

import io.troupe.operators.batch.Batch;

/**
 * The seam between the Gather and the transport: a one-way pipe of batches from one worker to the
 * Gather, in the shape of {@code io.troupe.transport.BatchChannel} (offers return a position or a
 * negative constant; the consumer polls with a bound and idles when nothing was ready). It exists
 * until the Aeron transport lands on main; then it becomes a thin adapter over a
 * {@code BatchChannel} from the {@code TransportRuntime}.
 *
 * <p>Not threadsafe per end: the producer end ({@link #offer}, {@link #offerEndOfStream},
 * {@link #producerIdle}) is owned by one worker, the consumer end ({@link #poll}, {@link #state},
 * {@link #consumerIdle}) by the Gather. {@link #close()} is threadsafe and idempotent.
 */
public interface GatherChannel extends AutoCloseable {

    /** The consumer is behind and the channel is full: retry the same batch after an idle. */
    long BACK_PRESSURED = -2;

    /** The channel is closed: stop sending. */
    long CLOSED = -4;

    /** Where the stream stands, as the consumer sees it. */
    enum State {
        /** More may come. */
        OPEN,
        /** The producer sent everything. */
        END_OF_STREAM,
        /** The producer left without an end of stream (it failed or was cancelled). */
        PRODUCER_GONE,
        /** The channel was closed. */
        CLOSED
    }

    /** What a poll delivers, on the consumer's thread. */
    interface Handler {
        void onBatch(Batch batch);

        void onEndOfStream();
    }

    /** Sends a batch: a positive position, or BACK_PRESSURED or CLOSED. */
    long offer(Batch batch);

    /** Sends the end of stream: returns as {@link #offer} does. */
    long offerEndOfStream();

    /** Waits a little after an offer that made no progress. */
    void producerIdle();

    /** The producer leaves; without a prior end of stream the consumer sees PRODUCER_GONE. */
    void closeProducer();

    /** Delivers up to {@code limit} frames; returns how many (0: nothing was ready). */
    int poll(Handler handler, int limit);

    State state();

    /** Waits a little after a poll that delivered nothing. */
    void consumerIdle();

    /** Closes both ends: later offers return CLOSED. */
    @Override
    void close();
}
