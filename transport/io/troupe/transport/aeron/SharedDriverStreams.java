package io.troupe.transport.aeron;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.protocol.DataHeaderFlyweight;
import io.troupe.config.TroupeSettings;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import org.agrona.CloseHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Batch streams between processes of one host, through the host's standalone media driver
 * ({@link StandaloneDriver}): each process connects an Aeron client of its own to the driver's
 * directory, and an {@code aeron:ipc} log the driver maps there is shared memory between them. The
 * producer {@link #publish()}es (an exclusive publication, whose session id the driver makes unique)
 * and tells the consumer, by a control message of its own, the stream and session; the consumer
 * {@link #subscribe}s to exactly that session. Batches are written and read by the same
 * {@link AeronBatchSender} and {@link AeronBatchReceiver} as a channel within one JVM, in the
 * {@link io.troupe.transport.codec.BatchCodec} format, with the same back-pressure: the driver moves the
 * producer's limit from the consumer's position, so a slow consumer holds the producer back.
 *
 * <p>What differs from one JVM: neither end sees the other's objects, only the driver's view. The
 * producer counts the consumer gone once its publication, connected before, is connected no more (the
 * consumer closed its subscription, or its process stopped and the driver timed its client out); the
 * consumer counts the producer gone once the producer's image, seen before, is closed or at its end
 * without an end-of-stream frame, or gone. Neither log is pooled: each stream's ends close their Aeron
 * resource. Whatever else an end must know (the query failed, was cancelled) travels as control messages.
 *
 * <p>Threadsafe: {@link #publish()} and {@link #subscribe} from any thread; each end is owned by one
 * thread, as {@link BatchSender} and {@link BatchReceiver} say; {@link #close()} closes the client and so
 * every stream still open.
 */
public final class SharedDriverStreams implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SharedDriverStreams.class);

    /** The stream id of every result stream: the session id tells streams apart. */
    public static final int STREAM_ID = 2001;
    private static final long POLL_MS = 1;

    private final Aeron aeron;
    private final Path directory;
    private final TroupeSettings.Transport settings;
    private final String publicationUri;
    private final AtomicInteger openStreams = new AtomicInteger();

    private SharedDriverStreams(Aeron aeron, Path directory, TroupeSettings.Transport settings) {
        this.aeron = aeron;
        this.directory = directory;
        this.settings = settings;
        this.publicationUri = new ChannelUriStringBuilder().media("ipc")
                .termLength(settings.termLengthBytes())
                .mtu(settings.mtuBytes())
                .build();
    }

    /**
     * Connects a client to the driver running in {@code directory}.
     *
     * @param settings the term length and MTU of the streams this process publishes, and the idle strategy
     *                 of its ends
     * @param timeout  how long to wait for the driver to answer
     * @throws IllegalStateException naming the directory when no driver runs there within {@code timeout}
     */
    public static SharedDriverStreams connect(Path directory, TroupeSettings.Transport settings, Duration timeout)
            throws InterruptedException {
        if (!StandaloneDriver.awaitActive(directory, timeout)) {
            throw new IllegalStateException("no Aeron media driver runs in " + directory + " (waited "
                    + timeout.toSeconds() + " s): batches between processes go through the host's driver");
        }
        try {
            Aeron aeron = Aeron.connect(new Aeron.Context()
                    .aeronDirectoryName(directory.toString())
                    .driverTimeoutMs(Math.max(1_000, timeout.toMillis()))
                    .threadFactory(runnable -> {
                        Thread thread = new Thread(runnable, "troupe-aeron-shared-client");
                        thread.setDaemon(true);
                        return thread;
                    })
                    .errorHandler(error -> LOG.warn("[{}] Aeron client error", directory, error)));
            return new SharedDriverStreams(aeron, directory, settings);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot connect to the Aeron media driver in " + directory + ": "
                    + e.getMessage(), e);
        }
    }

    /** The driver's directory. */
    public Path directory() {
        return directory;
    }

    /** Streams with an end still open in this process: 0 once every stream is closed. */
    public int openStreams() {
        return openStreams.get();
    }

    /**
     * A new stream to publish on: nothing is written until a consumer subscribes to its session
     * (offers return NOT_CONNECTED).
     *
     * @throws IllegalStateException when the driver refuses the log (no room for its terms), naming it
     */
    public Outgoing publish() {
        try {
            ExclusivePublication publication = aeron.addExclusivePublication(publicationUri, STREAM_ID);
            openStreams.incrementAndGet();
            return new Outgoing(publication);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot open stream " + publicationUri + " stream=" + STREAM_ID + " in "
                    + directory + ": " + e.getMessage() + " (each stream maps 3 x troupe.transport.term-length)", e);
        }
    }

    /**
     * Subscribes to the stream another process published as {@code sessionId} and waits, at most
     * {@code timeout}, until its log is there; {@link #subscribe(int, int, Duration, BooleanSupplier)}.
     */
    public BatchReceiver subscribe(int streamId, int sessionId, Duration timeout) throws InterruptedException {
        return subscribe(streamId, sessionId, timeout, () -> false);
    }

    /**
     * Subscribes to the stream another process published as {@code sessionId} and waits until its log is
     * there: at most {@code timeout}, and no longer than {@code giveUp} is false (the caller's other news,
     * such as the producer's failure, which may close the stream before it was ever read).
     *
     * @return the receiver, or null when {@code giveUp} said so first (nothing is left open)
     * @throws IllegalStateException naming the session when no such stream shows within {@code timeout}
     */
    public BatchReceiver subscribe(int streamId, int sessionId, Duration timeout, BooleanSupplier giveUp)
            throws InterruptedException {
        String uri = new ChannelUriStringBuilder().media("ipc").sessionId(sessionId).build();
        Subscription subscription = aeron.addSubscription(uri, streamId);
        openStreams.incrementAndGet();
        boolean handedOver = false;
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            Image image;
            while ((image = subscription.imageBySessionId(sessionId)) == null) {
                if (giveUp.getAsBoolean()) {
                    return null;
                }
                if (System.nanoTime() - deadline >= 0) {
                    throw new IllegalStateException("no stream " + streamId + " session " + sessionId + " in "
                            + directory + " within " + timeout.toMillis() + " ms: its producer is gone");
                }
                TimeUnit.MILLISECONDS.sleep(POLL_MS);
            }
            Incoming incoming = new Incoming(subscription, sessionId);
            BatchReceiver receiver = new AeronBatchReceiver(incoming, subscription, image.joinPosition(),
                    FrameDescriptor.computeMaxMessageLength(image.termBufferLength()),
                    image.mtuLength() - DataHeaderFlyweight.HEADER_LENGTH,
                    AeronIpcChannel.idleStrategy(settings.idleStrategy()));
            handedOver = true;
            return receiver;
        } finally {
            if (!handedOver) {
                subscription.close();
                openStreams.decrementAndGet();
            }
        }
    }

    /** Closes the client: every stream still open closes with it. Idempotent. */
    @Override
    public void close() {
        CloseHelper.quietClose(aeron);
    }

    @Override
    public String toString() {
        return "SharedDriverStreams[" + directory + "]";
    }

    /** A stream this process publishes: its sender, and what the consumer needs to subscribe. */
    public final class Outgoing {
        private final ExclusivePublication publication;
        private final AeronBatchSender sender;
        private final AtomicBoolean closed = new AtomicBoolean();
        /** Written and read by the sender's thread only (every offer asks whether the consumer left). */
        private boolean wasConnected;

        private Outgoing(ExclusivePublication publication) {
            this.publication = publication;
            this.sender = new AeronBatchSender(new Link(), publication,
                    AeronIpcChannel.idleStrategy(settings.idleStrategy()));
        }

        /** The producer's end: owned by one thread. Its close closes the publication. */
        public BatchSender sender() {
            return sender;
        }

        public int streamId() {
            return publication.streamId();
        }

        public int sessionId() {
            return publication.sessionId();
        }

        /** Whether a consumer is subscribed now. */
        public boolean isConnected() {
            return publication.isConnected();
        }

        @Override
        public String toString() {
            return "stream " + streamId() + " session " + sessionId() + " in " + directory;
        }

        /** The sender's view of the consumer: the driver's. */
        private final class Link implements SenderLink {
            @Override
            public boolean receiverClosed() {
                if (publication.isConnected()) {
                    wasConnected = true;
                    return false;
                }
                return wasConnected;
            }

            @Override
            public void senderClosed(long finalPosition, boolean ended) {
                // The driver drains the log to a connected consumer before it frees it: closing loses nothing.
                if (closed.compareAndSet(false, true)) {
                    publication.close();
                    openStreams.decrementAndGet();
                }
            }

            @Override
            public String toString() {
                return Outgoing.this.toString();
            }
        }
    }

    /** The consumer's side of a stream another process publishes. */
    private final class Incoming implements ReceiverLink {
        private final Subscription subscription;
        private final int sessionId;
        private final AtomicBoolean closed = new AtomicBoolean();

        Incoming(Subscription subscription, int sessionId) {
            this.subscription = subscription;
            this.sessionId = sessionId;
        }

        @Override
        public long senderFinalPosition() {
            Image image = subscription.imageBySessionId(sessionId);
            if (image == null) {
                // Seen when subscribed: gone since, with whatever it held.
                return 0;
            }
            return image.isClosed() || image.isEndOfStream() ? image.position() : -1;
        }

        @Override
        public void receiverClosed(boolean delivered) {
            if (closed.compareAndSet(false, true)) {
                subscription.close();
                openStreams.decrementAndGet();
            }
        }

        @Override
        public String toString() {
            return "stream " + subscription.streamId() + " session " + sessionId + " in " + directory;
        }
    }
}
