package io.troupe.transport;

import io.troupe.config.TroupeSettings;
import io.troupe.config.TroupeSettings.GatherTransport;
import io.troupe.transport.aeron.AeronChannelPool;
import io.troupe.transport.aeron.EmbeddedAeron;
import io.troupe.transport.baseline.LockedQueueChannel;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The transport of one Troupe: opens {@link BatchChannel}s of the kind {@code troupe.gather.transport}
 * names, owns the embedded Aeron driver they use, and keeps a registry of open channels so that a
 * leak shows ({@link #openChannels()}) and {@link #close()} can release whatever a failed query left.
 *
 * <p>Aeron channels come from an {@link AeronChannelPool}: the log of a channel whose stream ended
 * cleanly is kept, idle, for the next channel, so that queries do not pay the driver's round trips
 * for every channel. An idle log is not an open channel: {@link #openChannels()} counts channels in
 * use, {@link #idleChannels()} the logs kept; {@link #close()} closes both.
 *
 * <p>The driver starts with the runtime when the configured transport is Aeron (its 0.6-1 s start is
 * paid once, not by the first query), or on the first Aeron channel otherwise, so that a benchmark can
 * compare both kinds in one run.
 *
 * <p>Threadsafe: channels may be opened from any thread.
 */
public final class TransportRuntime implements AutoCloseable {

    private enum Phase { RUNNING, CLOSED }

    private final TroupeSettings.Transport settings;
    private final Set<BatchChannel> openChannels = ConcurrentHashMap.newKeySet();
    /** Guarded by this. */
    private EmbeddedAeron aeron;
    /** Guarded by this; started with {@link #aeron}. */
    private AeronChannelPool pool;
    /** Guarded by this. */
    private Phase phase = Phase.RUNNING;

    private TransportRuntime(TroupeSettings.Transport settings) {
        this.settings = settings;
    }

    /** A runtime for {@code settings}, with the Aeron driver running when Aeron is the configured transport. */
    public static TransportRuntime start(TroupeSettings.Transport settings) {
        TransportRuntime runtime = new TransportRuntime(settings);
        if (settings.gatherTransport() == GatherTransport.AERON) {
            runtime.embeddedAeron();
        }
        return runtime;
    }

    public TroupeSettings.Transport settings() {
        return settings;
    }

    /** A new channel of the configured kind. */
    public BatchChannel openChannel() {
        return openChannel(settings.gatherTransport());
    }

    /**
     * A new channel of {@code kind} (for a side-by-side comparison), registered until both its ends
     * close; an Aeron channel over an idle log when the pool has one.
     *
     * @throws IllegalStateException after {@link #close()}, or when the driver cannot map another log
     */
    public BatchChannel openChannel(GatherTransport kind) {
        ChannelSlot slot = new ChannelSlot();
        BatchChannel channel = kind == GatherTransport.AERON
                ? channelPool().open(slot::release)
                : new LockedQueueChannel(settings.queueCapacity(), settings.wakeups(), slot::release);
        slot.channel = channel;
        openChannels.add(channel);
        synchronized (this) {
            if (phase == Phase.CLOSED) {
                channel.close();
                throw new IllegalStateException("transport runtime is closed");
            }
        }
        return channel;
    }

    /** Channels in use: with at least one end still open. */
    public int openChannels() {
        return openChannels.size();
    }

    /** Aeron logs kept idle for the next channels (each maps 3 terms in the driver directory). */
    public synchronized int idleChannels() {
        return pool == null ? 0 : pool.idle();
    }

    /** The embedded Aeron, when it has been started. */
    public synchronized Optional<EmbeddedAeron> aeron() {
        return Optional.ofNullable(aeron);
    }

    /** Closes every channel still open and every idle log, then stops the driver. Idempotent. */
    @Override
    public void close() {
        EmbeddedAeron toClose;
        AeronChannelPool poolToClose;
        synchronized (this) {
            if (phase == Phase.CLOSED) {
                return;
            }
            phase = Phase.CLOSED;
            toClose = aeron;
            poolToClose = pool;
        }
        List<BatchChannel> leftOpen = new ArrayList<>(openChannels);
        for (BatchChannel channel : leftOpen) {
            channel.close();
        }
        if (poolToClose != null) {
            poolToClose.close();
        }
        if (toClose != null) {
            toClose.close();
        }
    }

    private synchronized EmbeddedAeron embeddedAeron() {
        if (phase == Phase.CLOSED) {
            throw new IllegalStateException("transport runtime is closed");
        }
        if (aeron == null) {
            aeron = EmbeddedAeron.launch(settings);
            pool = new AeronChannelPool(aeron, settings);
        }
        return aeron;
    }

    private synchronized AeronChannelPool channelPool() {
        embeddedAeron();
        return pool;
    }

    /** Removes its channel from the registry once both ends have closed. */
    private final class ChannelSlot {
        private volatile BatchChannel channel;

        void release() {
            BatchChannel closed = channel;
            if (closed != null) {
                openChannels.remove(closed);
            }
        }
    }
}
