package io.troupe.actors.exchange;

import io.troupe.config.TroupeSettings;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import io.troupe.transport.baseline.LockedQueueChannel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link NodeLinks} between "nodes" that are Troupes in one JVM, for tests of spread queries without
 * processes: one {@link Hub} per query holds a locked-queue channel per stream, made by whichever end
 * opens first.
 */
public final class InMemoryNodeLinks implements NodeLinks {

    /** The streams of one query. Threadsafe. */
    public static final class Hub {
        private final int nodes;
        private final Map<List<Integer>, LockedQueueChannel> channels = new ConcurrentHashMap<>();

        public Hub(int nodes) {
            this.nodes = nodes;
        }

        /** Node {@code self}'s links. */
        public InMemoryNodeLinks node(int self) {
            return new InMemoryNodeLinks(this, self);
        }

        private LockedQueueChannel channel(int pipeline, int from, int worker, int to) {
            return channels.computeIfAbsent(List.of(pipeline, from, worker, to),
                    k -> new LockedQueueChannel(8, TroupeSettings.Wakeups.BATCHED, () -> { }));
        }

        /** Streams opened so far, by either end. */
        public int streams() {
            return channels.size();
        }

        /** Whether every stream has both ends closed. */
        public boolean allClosed() {
            return channels.values().stream().allMatch(LockedQueueChannel::isClosed);
        }
    }

    private final Hub hub;
    private final int self;
    private final List<AutoCloseable> opened = new ArrayList<>();

    private InMemoryNodeLinks(Hub hub, int self) {
        this.hub = hub;
        this.self = self;
    }

    @Override
    public int self() {
        return self;
    }

    @Override
    public int nodes() {
        return hub.nodes;
    }

    @Override
    public synchronized BatchSender sender(int pipeline, int worker, int to) {
        BatchSender sender = hub.channel(pipeline, self, worker, to).sender();
        opened.add(sender);
        return sender;
    }

    @Override
    public synchronized BatchReceiver receiver(int pipeline, int from, int worker) {
        BatchReceiver receiver = hub.channel(pipeline, from, worker, self).receiver();
        opened.add(receiver);
        return receiver;
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable end : opened) {
            try {
                end.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
