package io.troupe.transport.aeron;

import io.aeron.Image;
import io.aeron.Subscription;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import org.agrona.concurrent.IdleStrategy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The consumer's end of a stream between processes whose producer may not have published yet
 * ({@link SharedDriverStreams#expect}): a subscription to one session, made before or after the producer's
 * publication. Until the producer's image shows, the stream is OPEN and a poll delivers nothing; the first
 * poll that finds the image builds the {@link AeronBatchReceiver} every other stream has, from the image's
 * join position, and from then on this end is that receiver (the same end-of-stream and PRODUCER_GONE
 * rules). A poll that finds no image once the connect timeout has passed since the subscription makes the
 * state PRODUCER_GONE for good, {@link #connected()} false: the producer never opened the stream. An image
 * that shows later is not read; the caller closes the stream, and a late producer's offers turn CLOSED.
 * <pre>
 *   AWAITING (OPEN, polls deliver 0) ──a poll finds the image──> the AeronBatchReceiver's states
 *            └──a poll after the connect timeout, no image──> PRODUCER_GONE, never connected
 *   any ──close──> CLOSED where it was OPEN; the subscription released
 * </pre>
 *
 * <p>Not threadsafe, as {@link BatchReceiver} says: owned by one poller, which alone builds the receiver;
 * {@link #close()} may come from any thread, and a poll after it delivers nothing.
 */
public final class ExpectedStream implements BatchReceiver {

    private final ReceiverLink link;
    private final Subscription subscription;
    private final int sessionId;
    private final Duration connectTimeout;
    private final long deadlineNs;
    /** One strategy for both phases: the receiver built on connection idles with it too. */
    private final IdleStrategy idleStrategy;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Released once the wait for the image is over: found, given up, or closed. */
    private final DemandIdleStrategy.Demand awaitingImage;

    /** Written by the poller once, when it finds the image; read by {@link #state()} from any thread. */
    private volatile AeronBatchReceiver receiver;
    /** The state before there is a receiver: OPEN, then PRODUCER_GONE if the image never came. */
    private volatile State awaiting = State.OPEN;

    ExpectedStream(ReceiverLink link, Subscription subscription, int sessionId, Duration connectTimeout,
                   IdleStrategy idleStrategy, DemandIdleStrategy.Demand awaitingImage) {
        this.link = link;
        this.subscription = subscription;
        this.sessionId = sessionId;
        this.connectTimeout = connectTimeout;
        this.deadlineNs = System.nanoTime() + connectTimeout.toNanos();
        this.idleStrategy = idleStrategy;
        this.awaitingImage = awaitingImage;
    }

    @Override
    public int poll(BatchHandler handler, int batchLimit) {
        if (closed.get()) {
            return 0;
        }
        AeronBatchReceiver connectedReceiver = receiver;
        if (connectedReceiver == null) {
            connectedReceiver = connect();
            if (connectedReceiver == null) {
                return 0;
            }
        }
        return connectedReceiver.poll(handler, batchLimit);
    }

    /** The receiver, once the producer's image is there; null while it is not (or never will be). */
    private AeronBatchReceiver connect() {
        if (awaiting != State.OPEN) {
            return null;
        }
        Image image = subscription.imageBySessionId(sessionId);
        if (image == null) {
            if (System.nanoTime() - deadlineNs >= 0) {
                awaiting = State.PRODUCER_GONE;
                awaitingImage.release();
            }
            return null;
        }
        awaitingImage.release();
        receiver = AeronBatchReceiver.ofImage(link, image, idleStrategy);
        return receiver;
    }

    /** Whether a poll has found the producer's image: false in PRODUCER_GONE means it never published. */
    public boolean connected() {
        return receiver != null;
    }

    @Override
    public State state() {
        AeronBatchReceiver connectedReceiver = receiver;
        State state = connectedReceiver != null ? connectedReceiver.state() : awaiting;
        return state == State.OPEN && closed.get() ? State.CLOSED : state;
    }

    @Override
    public void flush() {
        // As the receiver's: the consumer's position is in shared memory after every poll.
    }

    @Override
    public void idle(int workCount) {
        idleStrategy.idle(workCount);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            awaitingImage.release();
            AeronBatchReceiver connectedReceiver = receiver;
            if (connectedReceiver != null) {
                connectedReceiver.close();
            }
            // Releases the subscription where the receiver did not (never built, or built after the read above);
            // the link releases it once, however often it is told.
            link.receiverClosed(false);
        }
    }

    /** The stream, and where it stands: whether its producer connected, and if not, for how long it was awaited. */
    @Override
    public String toString() {
        State state = state();
        if (connected()) {
            return link + ": connected, " + state;
        }
        if (state == State.PRODUCER_GONE) {
            return link + ": its producer never opened it within " + connectTimeout.toMillis() + " ms";
        }
        return link + ": " + (state == State.OPEN ? "awaiting its producer" : "closed before its producer came")
                + " (connect timeout " + connectTimeout.toMillis() + " ms)";
    }
}
