package io.troupe.transport.aeron;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.troupe.config.TroupeSettings;
import io.troupe.transport.BatchChannel;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import org.agrona.CloseHelper;
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
 * <h2>Concurrency</h2>
 * The data path is Aeron's (see {@link ExclusivePublication}). Beside it, two fields carry the ends'
 * lifecycle to each other within the JVM: {@code receiverClosed} (written once by the receiver's
 * close, before its subscription closes; read by every offer so a producer stops at once) and
 * {@code senderFinalPosition} (written once by the sender's close with the publication's position,
 * -1 until then; read by the receiver before each poll, so that once it has consumed up to that
 * position and saw no end of stream it knows the producer left). Both are volatile; each is written
 * by one thread.
 *
 * <p>Threadsafe as a whole: the sender is owned by one producer and the receiver by one consumer.
 */
public final class AeronIpcChannel implements BatchChannel {

    private final String uri;
    private final int streamId;
    private final AeronBatchSender sender;
    private final AeronBatchReceiver receiver;
    private final Runnable onClosed;
    private final AtomicInteger openEnds = new AtomicInteger(2);

    private volatile boolean receiverClosed;
    private volatile long senderFinalPosition = -1;

    private AeronIpcChannel(String uri, int streamId, ExclusivePublication publication, Subscription subscription,
                            TroupeSettings.Transport settings, Runnable onClosed) {
        this.uri = uri;
        this.streamId = streamId;
        this.onClosed = onClosed;
        this.sender = new AeronBatchSender(this, publication, idleStrategy(settings.idleStrategy()));
        this.receiver = new AeronBatchReceiver(this, subscription, publication.maxMessageLength(),
                publication.maxPayloadLength(), idleStrategy(settings.idleStrategy()));
    }

    /**
     * Adds the subscription, then the exclusive publication, on a new stream of {@code aeron}.
     *
     * @param onClosed run once, on the thread that closes the second end (a registry's release)
     * @throws IllegalStateException when the driver refuses the log (for instance no room in /dev/shm),
     *                               naming the channel and the settings to change
     */
    public static AeronIpcChannel open(EmbeddedAeron aeron, TroupeSettings.Transport settings, Runnable onClosed) {
        String uri = new ChannelUriStringBuilder().media("ipc")
                .termLength(settings.termLengthBytes())
                .mtu(settings.mtuBytes())
                .build();
        int streamId = aeron.nextStreamId();
        Aeron client = aeron.aeron();
        Subscription subscription = null;
        try {
            subscription = client.addSubscription(uri, streamId);
            ExclusivePublication publication = client.addExclusivePublication(uri, streamId);
            return new AeronIpcChannel(uri, streamId, publication, subscription, settings, onClosed);
        } catch (RuntimeException e) {
            CloseHelper.quietClose(subscription);
            throw new IllegalStateException("cannot open channel " + uri + " stream=" + streamId + " in "
                    + aeron.directory() + ": " + e.getMessage()
                    + " (each channel maps 3 x troupe.transport.term-length in troupe.transport.dir)", e);
        }
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
        return streamId;
    }

    @Override
    public String toString() {
        return "AeronIpcChannel[" + uri + ", stream=" + streamId + "]";
    }

    boolean receiverClosed() {
        return receiverClosed;
    }

    /** Called by the receiver's close, before its subscription closes. */
    void markReceiverClosed() {
        receiverClosed = true;
    }

    /** The sender's position when it closed, or -1 while it is open. */
    long senderFinalPosition() {
        return senderFinalPosition;
    }

    /** Called by the sender's close, before its publication closes. */
    void markSenderClosed(long finalPosition) {
        senderFinalPosition = finalPosition;
    }

    /** Called once by each end's close, after its Aeron resource is closed. */
    void endClosed() {
        if (openEnds.decrementAndGet() == 0) {
            onClosed.run();
        }
    }

    private static IdleStrategy idleStrategy(TroupeSettings.ChannelIdle idle) {
        return switch (idle) {
            case BACKOFF -> new BackoffIdleStrategy();
            case YIELDING -> new YieldingIdleStrategy();
            case BUSY_SPIN -> new BusySpinIdleStrategy();
        };
    }
}
