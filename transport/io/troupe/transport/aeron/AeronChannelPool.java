package io.troupe.transport.aeron;

import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.troupe.config.TroupeSettings;
import org.agrona.CloseHelper;

import java.util.ArrayDeque;

/**
 * Opens {@link AeronIpcChannel}s on one {@link EmbeddedAeron} and keeps the logs of channels that
 * ended cleanly for the next ones, so that a query does not pay for its channels' Aeron setup.
 *
 * <p><b>Why.</b> Adding a subscription and an exclusive publication, and later closing both, are
 * four synchronous round trips to the driver's conductor: the client sleeps 1 ms between checks for
 * the reply (Aeron's awaiting idle strategy) and the driver's conductor, idling with a backoff on
 * few cores, may take up to 1 ms to look. A new subscription then waits for its image (the client
 * conductor's next duty cycle) before the first offer is connected. Measured, that was most of the
 * fixed cost of a query with one worker (see {@code QueryFixedCostMain}).
 *
 * <p><b>When a log comes back.</b> Only when both ends closed cleanly: the producer sent its end of
 * stream, and the consumer delivered it, so nothing is left in the log and no one writes or reads
 * it any more. The next channel over that log starts at the publication's position, connected. A
 * channel whose producer left without an end of stream, or whose consumer closed before it (a
 * failure, a cancel, a LIMIT), closes its log instead: its state is unknown. At most
 * {@link #MAX_IDLE} idle logs are kept (each maps 3 terms in the driver directory); more close.
 *
 * <p>Threadsafe: channels may be opened and closed from any thread. An idle log is handed from the
 * thread that closed the second end to the thread that opens the next channel under this pool's
 * monitor, which orders everything done to it before the next use.
 */
public final class AeronChannelPool implements AutoCloseable {

    /**
     * Idle logs kept: a Gather has a channel per worker and a query has a worker per processor by
     * default, so twice the processors (two queries' worth), and at least 8. With fewer than a query's
     * workers kept, every query opened the rest afresh: on 16 cores, 8 kept, Aeron's Gather of 10M rows
     * at 16 workers took 41-61 ms against the locked queue's 6-10 ms (docs/performance.md). Each log
     * maps 3 terms (8 MiB each by default), and the pool never holds more than the most channels that
     * were ever open at once.
     */
    public static final int MAX_IDLE = Math.max(8, 2 * Runtime.getRuntime().availableProcessors());

    /** A channel's log: its exclusive publication and the subscription that reads it. */
    record Log(ExclusivePublication publication, Subscription subscription) {
    }

    private final EmbeddedAeron aeron;
    private final TroupeSettings.Transport settings;
    private final String uri;
    /** Guarded by this. */
    private final ArrayDeque<Log> idle = new ArrayDeque<>();
    /** Guarded by this. */
    private boolean closed;

    public AeronChannelPool(EmbeddedAeron aeron, TroupeSettings.Transport settings) {
        this.aeron = aeron;
        this.settings = settings;
        this.uri = new ChannelUriStringBuilder().media("ipc")
                .termLength(settings.termLengthBytes())
                .mtu(settings.mtuBytes())
                .build();
    }

    /**
     * A channel over an idle log when there is one, else over a new one.
     *
     * @param onClosed run once, on the thread that closes the second end (a registry's release)
     * @throws IllegalStateException after {@link #close()}, or when the driver refuses a new log (for
     *                               instance no room in /dev/shm), naming the channel and the settings to change
     */
    public AeronIpcChannel open(Runnable onClosed) {
        Log log;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("channel pool of " + aeron + " is closed");
            }
            log = idle.pollFirst();
        }
        // Released once the channel's log is recycled or closed: the driver serves it promptly until then.
        DemandIdleStrategy.Demand inUse = aeron.channelInUse();
        if (log != null) {
            return new AeronIpcChannel(uri, log, log.publication().position(), settings, this,
                    released(onClosed, inUse, null));
        }
        // A new log's subscription waits for its image, which the client conductor brings.
        DemandIdleStrategy.Demand awaitingImage = aeron.awaitingImage();
        int streamId = aeron.nextStreamId();
        Subscription subscription = null;
        try {
            subscription = aeron.aeron().addSubscription(uri, streamId);
            ExclusivePublication publication = aeron.aeron().addExclusivePublication(uri, streamId);
            return new AeronIpcChannel(uri, new Log(publication, subscription), 0, settings, this,
                    released(onClosed, inUse, awaitingImage));
        } catch (RuntimeException e) {
            CloseHelper.quietClose(subscription);
            inUse.release();
            awaitingImage.release();
            throw new IllegalStateException("cannot open channel " + uri + " stream=" + streamId + " in "
                    + aeron.directory() + ": " + e.getMessage()
                    + " (each channel maps 3 x troupe.transport.term-length in troupe.transport.dir)", e);
        }
    }

    private static Runnable released(Runnable onClosed, DemandIdleStrategy.Demand inUse,
                                     DemandIdleStrategy.Demand awaitingImage) {
        return () -> {
            inUse.release();
            if (awaitingImage != null) {
                awaitingImage.release();
            }
            onClosed.run();
        };
    }

    /** Idle logs kept for the next channels. */
    public synchronized int idle() {
        return idle.size();
    }

    /** Takes back the log of a channel whose ends both closed cleanly, or closes it when full or closed. */
    void recycle(Log log) {
        synchronized (this) {
            if (!closed && idle.size() < MAX_IDLE) {
                idle.addLast(log);
                return;
            }
        }
        close(log);
    }

    static void close(Log log) {
        CloseHelper.closeAll(log.publication(), log.subscription());
    }

    /** Closes every idle log; logs that come back later close at once. Idempotent. */
    @Override
    public void close() {
        ArrayDeque<Log> toClose;
        synchronized (this) {
            closed = true;
            toClose = new ArrayDeque<>(idle);
            idle.clear();
        }
        // Each close is a command the driver answers: promptly, not after a rest.
        DemandIdleStrategy.Demand closing = aeron.channelInUse();
        try {
            for (Log log : toClose) {
                close(log);
            }
        } finally {
            closing.release();
        }
    }
}
