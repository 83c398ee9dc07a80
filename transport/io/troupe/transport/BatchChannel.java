package io.troupe.transport;

/**
 * A one-way pipe of batches from one producer to one consumer: the producer owns the
 * {@link #sender()}, the consumer owns the {@link #receiver()}, and each end is used by one thread
 * at a time (an actor's, in the executor). Tuple batches travel here; control (start, cancel,
 * failure) travels as actor messages.
 *
 * <p>The stream protocol: the producer offers batches, then offers an end of stream, then closes
 * its sender. A sender closed without an end of stream tells the consumer that the producer failed
 * or was cancelled ({@link BatchReceiver.State#PRODUCER_GONE}). A receiver closed early (a consumer
 * that stops: LIMIT, cancel, failure) makes every later offer return {@link BatchSender#CLOSED}, so
 * a producer never waits forever for a consumer that has left.
 *
 * <pre>{@code
 * // producer thread                          // consumer thread
 * for (Batch b : batches) {                   while (receiver.state() == State.OPEN) {
 *     long r;                                     receiver.idle(receiver.poll(handler, 16));
 *     while ((r = sender.offer(b)) < 0) {     }
 *         if (r == BatchSender.CLOSED) break; receiver.close();
 *         sender.idle(0);
 *     }
 * }
 * ...offerEndOfStream() the same way...; sender.close();
 * }</pre>
 *
 * <p>Implementations: {@code aeron.AeronIpcChannel} (an Aeron IPC log buffer: lesson 3 on) and
 * {@code baseline.LockedQueueChannel} (a ring under a monitor: lesson 3 off); pick one with
 * {@code troupe.gather.transport} through {@link TransportRuntime#openChannel()}.
 * Each end's {@code close()} is threadsafe against the other end's use.
 */
public interface BatchChannel extends AutoCloseable {

    /** The producer's end. Not threadsafe: owned by one producer. */
    BatchSender sender();

    /** The consumer's end. Not threadsafe: owned by one consumer. */
    BatchReceiver receiver();

    /** True once both ends are closed. Threadsafe. */
    boolean isClosed();

    /** Closes both ends (idempotent): for the owner of a failed or cancelled query, once both ends are idle. */
    @Override
    void close();
}
