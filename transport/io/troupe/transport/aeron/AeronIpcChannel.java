package io.troupe.transport.aeron;

import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.troupe.config.TroupeSettings;
import io.troupe.transport.BatchChannel;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lesson 3's "on" position ({@code troupe.gather.transport = aeron}): batches travel through an
 * Aeron IPC log buffer, {@code aeron:ipc?term-length=..|mtu=..} on a stream of their own. The
 * producer owns an {@link ExclusivePublication} (single writer, no locks, no CAS) and the consumer a
 * {@link Subscription}; neither ever wakes the other. The consumer's position in shared memory is
 * the only progress signal, read by the driver's conductor to move the producer's limit; each side
 * waits under its idle strategy ({@code troupe.transport.idle-strategy}) when it can make no progress.
 *
 * <p>Batches are encoded with {@link io.troupe.transport.codec.BatchCodec}: in place in the log with
 * {@code tryClaim} when the frame fits the MTU, else from a scratch buffer with {@code offer}
 * (fragmented by Aeron, reassembled by the receiver). A batch larger than the largest message
 * (term-length / 8) is sent as several batches.
 *
 * <p>Channels come from an {@link AeronChannelPool}: when both ends close cleanly (the end of stream
 * was sent and delivered) the publication and subscription go back to it for the next channel,
 * which starts where this one ended; otherwise each end closes its Aeron resource.
 *
 * <h2>Concurrency</h2>
 * The data path is Aeron's (see {@link ExclusivePublication}). Beside it, two fields carry the ends'
 * lifecycle to each other within the JVM: {@code receiverClosed} (written once by the receiver's
 * close, before its subscription closes; read by every offer so a producer stops at once) and
 * {@code senderFinalPosition} (written once by the sender's close with the publication's position,
 * -1 until then; read by the receiver before each poll, so that once it has consumed up to that
 * position and saw no end of stream it knows the producer left). Both are volatile; each is written
 * by one thread. Each end's close also says whether it kept its resource for the pool, before it
 * counts itself out of {@code openEnds}; the close that counts the last end out reads both and
 * recycles or closes the log, so exactly one thread does.
 *
 * <p>Threadsafe as a whole: the sender is owned by one producer and the receiver by one consumer.
 */
public final class AeronIpcChannel implements BatchChannel {

    private final String uri;
    private final AeronChannelPool.Log log;
    private final AeronBatchSender sender;
    private final AeronBatchReceiver receiver;
    private final AeronChannelPool pool;
    private final Runnable onClosed;
    private final AtomicInteger openEnds = new AtomicInteger(2);

    private volatile boolean receiverClosed;
    private volatile long senderFinalPosition = -1;
    /** Set by an end that closed cleanly instead of closing its Aeron resource; read by the second end's close. */
    private volatile boolean publicationKept;
    private volatile boolean subscriptionKept;

    /**
     * A channel over {@code log}, whose stream is at {@code startPosition} with nothing unread (0 for a
     * new log); opened by {@link AeronChannelPool#open}.
     */
    AeronIpcChannel(String uri, AeronChannelPool.Log log, long startPosition, TroupeSettings.Transport settings,
                    AeronChannelPool pool, Runnable onClosed) {
        this.uri = uri;
        this.log = log;
        this.pool = pool;
        this.onClosed = onClosed;
        ExclusivePublication publication = log.publication();
        Ends ends = new Ends();
        this.sender = new AeronBatchSender(ends, publication, idleStrategy(settings.idleStrategy()));
        this.receiver = new AeronBatchReceiver(ends, log.subscription(), startPosition, publication.maxMessageLength(),
                publication.maxPayloadLength(), idleStrategy(settings.idleStrategy()));
    }

    @Override
    public BatchSender sender() {
        return sender;
    }

    @Override
    public BatchReceiver receiver() {
        return receiver;
    }

    @Override
    public boolean isClosed() {
        return openEnds.get() == 0;
    }

    @Override
    public void close() {
        sender.close();
        receiver.close();
    }

    /** The Aeron channel URI, for logs and errors. */
    public String uri() {
        return uri;
    }

    public int streamId() {
        return log.publication().streamId();
    }

    @Override
    public String toString() {
        return "AeronIpcChannel[" + uri + ", stream=" + streamId() + "]";
    }

    boolean receiverClosed() {
        return receiverClosed;
    }

    /**
     * Called once by the receiver's close. A receiver that delivered the end of stream keeps its
     * subscription for the pool; any other closes it now, and the producer's offers return CLOSED.
     */
    void receiverClosed(boolean delivered) {
        receiverClosed = true;
        if (delivered) {
            subscriptionKept = true;
        } else {
            log.subscription().close();
        }
        endClosed();
    }

    /** The sender's position when it closed, or -1 while it is open. */
    long senderFinalPosition() {
        return senderFinalPosition;
    }

    /**
     * Called once by the sender's close with the publication's position. A sender that sent its end of
     * stream keeps its publication for the pool; any other closes it now.
     */
    void senderClosed(long finalPosition, boolean ended) {
        senderFinalPosition = finalPosition;
        if (ended) {
            publicationKept = true;
        } else {
            log.publication().close();
        }
        endClosed();
    }

    /** After both ends: the log goes back to the pool when both kept their resource, else what is kept closes. */
    private void endClosed() {
        if (openEnds.decrementAndGet() != 0) {
            return;
        }
        if (publicationKept && subscriptionKept) {
            pool.recycle(log);
        } else if (publicationKept) {
            log.publication().close();
        } else if (subscriptionKept) {
            log.subscription().close();
        }
        onClosed.run();
    }

    /** The ends' view of this channel (kept off its public surface). */
    private final class Ends implements SenderLink, ReceiverLink {
        @Override
        public boolean receiverClosed() {
            return AeronIpcChannel.this.receiverClosed();
        }

        @Override
        public void senderClosed(long finalPosition, boolean ended) {
            AeronIpcChannel.this.senderClosed(finalPosition, ended);
        }

        @Override
        public long senderFinalPosition() {
            return AeronIpcChannel.this.senderFinalPosition();
        }

        @Override
        public void receiverClosed(boolean delivered) {
            AeronIpcChannel.this.receiverClosed(delivered);
        }

        @Override
        public String toString() {
            return AeronIpcChannel.this.toString();
        }
    }

    static IdleStrategy idleStrategy(TroupeSettings.ChannelIdle idle) {
        return switch (idle) {
            case BACKOFF -> new BackoffIdleStrategy();
            case YIELDING -> new YieldingIdleStrategy();
            case BUSY_SPIN -> new BusySpinIdleStrategy();
        };
    }
}
