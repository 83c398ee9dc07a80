package io.troupe.transport.aeron;

import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.CommonContext;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Subscription;
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
 * Batch streams between processes, through the host's standalone media driver ({@link StandaloneDriver}):
 * each process connects an Aeron client of its own to the driver's directory, and an {@code aeron:ipc} log
 * the driver maps there is shared memory between the processes of the host. Between hosts a stream is
 * {@code aeron:udp} from the producer's driver to the consumer's ({@link #publishOverUdp},
 * {@link #expectOverUdp}): the consumer's driver binds its data-plane endpoint, the producer's sends there,
 * and Aeron's flow control (the receiver's window in its status messages) stands in for the shared
 * position: the same ends, states and back-pressure, only the log is copied across the network. Batches
 * are written and read by the same {@link AeronBatchSender} and {@link AeronBatchReceiver} as a channel
 * within one JVM, in the {@link io.troupe.transport.codec.BatchCodec} format, with the same back-pressure:
 * the driver moves the producer's limit from the consumer's position, so a slow consumer holds the
 * producer back.
 *
 * <p>The two ends meet in one of two ways:
 * <ul>
 *   <li><b>Told.</b> A result stream: the producer {@link #publish()}es on {@link #STREAM_ID} (an exclusive
 *       publication, whose session id the driver makes unique) and tells the consumer, by a control message
 *       of its own, the stream and session; the consumer {@link #subscribe}s to exactly that session, which
 *       waits until the producer's log is there.
 *   <li><b>Derived.</b> An exchange stream of a query spread over nodes: there are many (per pipeline,
 *       producer node, worker and consumer node) and no control round trip tells where they are. Both ends
 *       compute the session id from the query (its coordinator's random tag, and those four) and open their
 *       end on {@link #EXCHANGE_STREAM_ID} independently, in either order, at any time during the query: the
 *       producer {@link #publish(int, int)}es as that session, the consumer {@link #expect}s it.
 * </ul>
 * What each end sees, whichever opened first:
 * <pre>
 *   producer's offers:  NOT_CONNECTED until the consumer's subscription is there (nothing is written, so
 *                       nothing is lost); then positions, BACK_PRESSURED when the consumer lags;
 *                       CLOSED once the consumer, connected before, is gone
 *   consumer's polls:   (expect only) 0 and OPEN until the producer's log is there; PRODUCER_GONE, never
 *                       connected, if it is not there within the connect timeout;
 *                       then every batch from the start, and END_OF_STREAM; or PRODUCER_GONE once the
 *                       producer left without an end of stream and its log is read to where it stopped
 * </pre>
 * A producer that closes after its end of stream loses nothing: the driver keeps the log until the
 * connected consumer has read it. A session id names one publication on a stream, across every process of
 * the driver: a second {@link #publish(int, int)} of it is refused while the first is open, and for a moment
 * after its close, until the driver has freed its log (its linger and timer: a fraction of a second): hence
 * a fresh random tag per query, not one reused by a retry.
 *
 * <p>What differs from one JVM: neither end sees the other's objects, only the driver's view. The
 * producer counts the consumer gone once its publication, connected before, is connected no more (the
 * consumer closed its subscription, or its process stopped and the driver timed its client out); the
 * consumer counts the producer gone once the producer's image, seen before, is closed or at its end
 * without an end-of-stream frame, or gone. Neither log is pooled: each stream's ends close their Aeron
 * resource. Whatever else an end must know (the query failed, was cancelled) travels as control messages.
 *
 * <p>Threadsafe: every method from any thread; each end is owned by one thread, as {@link BatchSender} and
 * {@link BatchReceiver} say; {@link #close()} closes the client and so every stream still open.
 */
public final class SharedDriverStreams implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SharedDriverStreams.class);

    /** The stream id of every result stream: the session id, the driver's pick, tells streams apart. */
    public static final int STREAM_ID = 2001;
    /**
     * The stream id of every exchange stream between the nodes of a query: apart from {@link #STREAM_ID}, so that
     * the session ids the ends derive from the query never meet one the driver picked for a result stream (a
     * driver makes a session id unique per stream id). The session id tells exchange streams apart.
     */
    public static final int EXCHANGE_STREAM_ID = 2002;
    private static final long POLL_MS = 1;

    private final Aeron aeron;
    /** The client conductor's idle: prompt only while a subscription waits for its producer's image. */
    private final DemandIdleStrategy conductorIdle;
    private final Path directory;
    private final TroupeSettings.Transport settings;
    private final String publicationUri;
    private final AtomicInteger openStreams = new AtomicInteger();

    private SharedDriverStreams(Aeron aeron, DemandIdleStrategy conductorIdle, Path directory,
                                TroupeSettings.Transport settings) {
        this.aeron = aeron;
        this.conductorIdle = conductorIdle;
        this.directory = directory;
        this.settings = settings;
        this.publicationUri = publication().build();
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
            DemandIdleStrategy conductorIdle = new DemandIdleStrategy(EmbeddedAeron.AGENT_REST_NS);
            Aeron aeron = Aeron.connect(new Aeron.Context()
                    .aeronDirectoryName(directory.toString())
                    .idleStrategy(conductorIdle)
                    .driverTimeoutMs(Math.max(1_000, timeout.toMillis()))
                    .threadFactory(runnable -> {
                        Thread thread = new Thread(runnable, "troupe-aeron-shared-client");
                        thread.setDaemon(true);
                        return thread;
                    })
                    .errorHandler(error -> LOG.warn("[{}] Aeron client error", directory, error)));
            return new SharedDriverStreams(aeron, conductorIdle, directory, settings);
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
     * A new stream to publish on, on {@link #STREAM_ID} with a session id the driver picks: nothing is written
     * until a consumer subscribes to its session (offers return NOT_CONNECTED).
     *
     * @throws IllegalStateException when the driver refuses the log (no room for its terms), naming it
     */
    public Outgoing publish() {
        return publish(publicationUri, STREAM_ID, "stream " + STREAM_ID);
    }

    /**
     * A new stream to publish on as {@code sessionId}, which both ends derived from the query: nothing is
     * written until a consumer {@link #expect}s it (offers return NOT_CONNECTED).
     *
     * @throws IllegalStateException naming the stream and session when the driver refuses it: the session
     *                               is another publication's on {@code streamId} (in any process of the
     *                               driver, open or closed but not yet freed), or there is no room for its
     *                               terms
     */
    public Outgoing publish(int streamId, int sessionId) {
        return publish(publication().sessionId(sessionId).build(), streamId,
                "stream " + streamId + " session " + sessionId);
    }

    /**
     * A new stream to publish on as {@code sessionId} to a consumer on another host, whose data plane
     * takes Aeron UDP at {@code endpoint} ({@code host:port}); frames of at most {@code mtu} bytes. As
     * {@link #publish(int, int)} otherwise: nothing is written until that consumer {@link #expectOverUdp}s it.
     *
     * @throws IllegalStateException naming the stream and endpoint when the driver refuses it
     */
    public Outgoing publishOverUdp(String endpoint, int mtu, int streamId, int sessionId) {
        String uri = new ChannelUriStringBuilder().media("udp").endpoint(endpoint).sessionId(sessionId)
                .termLength(settings.termLengthBytes()).mtu(mtu).build();
        return publish(uri, streamId, "stream " + streamId + " session " + sessionId + " to " + endpoint);
    }

    /** Publishes on {@code uri}; {@code stream} names it in the error. */
    private Outgoing publish(String uri, int streamId, String stream) {
        try {
            ExclusivePublication publication = aeron.addExclusivePublication(uri, streamId);
            openStreams.incrementAndGet();
            return new Outgoing(publication);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot open " + stream + " (" + uri + ") in " + directory
                    + ", the driver refused it: " + e.getMessage() + " (a session id is one publication's on a"
                    + " stream until the driver frees it after its close; each stream maps 3 x"
                    + " troupe.transport.term-length)", e);
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
        // The client conductor brings the image: it looks every millisecond while this waits.
        DemandIdleStrategy.Demand awaitingImage = conductorIdle.demand();
        try {
            return awaitImage(streamId, sessionId, timeout, giveUp);
        } finally {
            awaitingImage.release();
        }
    }

    private BatchReceiver awaitImage(int streamId, int sessionId, Duration timeout, BooleanSupplier giveUp)
            throws InterruptedException {
        Subscription subscription = aeron.addSubscription(subscriptionUri(sessionId), streamId);
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
            BatchReceiver receiver = AeronBatchReceiver.ofImage(new Incoming(subscription, sessionId), image,
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

    /**
     * The consumer's end of the stream {@code sessionId} on {@code streamId}, whether or not its producer has
     * published yet: returns once the subscription is registered with the driver, without waiting for the
     * producer (unlike {@link #subscribe}, which waits, hence the other name). The stream is OPEN and delivers
     * nothing until the producer's log shows; if it has not shown {@code connectTimeout} after this call,
     * a poll makes it PRODUCER_GONE with {@link ExpectedStream#connected()} false. Its {@code close} releases
     * the subscription in every state.
     *
     * @throws IllegalStateException when the driver refuses the subscription, naming the stream
     */
    public ExpectedStream expect(int streamId, int sessionId, Duration connectTimeout) {
        return expect(subscriptionUri(sessionId), streamId, sessionId, connectTimeout);
    }

    private ExpectedStream expect(String uri, int streamId, int sessionId, Duration connectTimeout) {
        DemandIdleStrategy.Demand awaitingImage = conductorIdle.demand();
        Subscription subscription;
        try {
            subscription = aeron.addSubscription(uri, streamId);
        } catch (RuntimeException e) {
            awaitingImage.release();
            throw new IllegalStateException("cannot subscribe to " + uri + " stream=" + streamId + " in " + directory
                    + ": " + e.getMessage(), e);
        }
        openStreams.incrementAndGet();
        return new ExpectedStream(new Incoming(subscription, sessionId), subscription, sessionId, connectTimeout,
                AeronIpcChannel.idleStrategy(settings.idleStrategy()), awaitingImage);
    }

    /**
     * The consumer's end of the stream {@code sessionId} that a producer on another host publishes to this
     * process's data plane at {@code endpoint} ({@code host:port}, bound here for UDP); as {@link #expect}
     * otherwise. Every stream expected at one endpoint shares its socket in the driver.
     *
     * @throws IllegalStateException when the driver refuses the subscription (the port taken by another
     *                               program), naming the endpoint
     */
    public ExpectedStream expectOverUdp(String endpoint, int streamId, int sessionId, Duration connectTimeout) {
        return expect(new ChannelUriStringBuilder().media("udp").endpoint(endpoint).sessionId(sessionId).build(),
                streamId, sessionId, connectTimeout);
    }

    /** The channel of this process's publications: IPC with its term length and MTU. */
    private ChannelUriStringBuilder publication() {
        return new ChannelUriStringBuilder().media("ipc")
                .termLength(settings.termLengthBytes())
                .mtu(settings.mtuBytes());
    }

    private static String subscriptionUri(int sessionId) {
        return new ChannelUriStringBuilder().media("ipc").sessionId(sessionId).build();
    }

    /** How a stream's description names a UDP channel's endpoint; nothing for IPC. */
    private static String overUdp(String channel) {
        ChannelUri uri = ChannelUri.parse(channel);
        return "udp".equals(uri.media()) ? " over udp " + uri.get(CommonContext.ENDPOINT_PARAM_NAME) : "";
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
            return "stream " + streamId() + " session " + sessionId() + overUdp(publication.channel()) + " in "
                    + directory;
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
            return "stream " + subscription.streamId() + " session " + sessionId + overUdp(subscription.channel())
                    + " in " + directory;
        }
    }
}
