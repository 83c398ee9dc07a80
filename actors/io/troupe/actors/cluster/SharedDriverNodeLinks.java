package io.troupe.actors.cluster;

import io.troupe.actors.exchange.NodeLinks;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;
import io.troupe.transport.aeron.SharedDriverStreams;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The streams of one spread query between its nodes, each through its host's media driver
 * ({@link SharedDriverStreams}): between two nodes of one host ({@link DataPlaneEndpoint#sameHostAs}) a
 * stream is an {@code aeron:ipc} exclusive publication in their driver; between hosts it is
 * {@code aeron:udp} from the producer's driver to the consumer's data-plane endpoint
 * ({@link DataPlaneEndpoint#udpEndpoint()}), where every stream to that node arrives on one socket. Either
 * way the stream is on {@link SharedDriverStreams#EXCHANGE_STREAM_ID} with a session id both ends compute
 * from the query's tag and the stream's four numbers ({@link #session}), so neither end tells the other
 * anything.
 *
 * <p>Tags are drawn at random by the coordinator, in steps of {@link #STREAMS_PER_QUERY}, so that two
 * queries' session ids never overlap unless they drew the same tag: then the second query's first
 * publication that clashes is refused by the driver ("clashing sessionId"), that node's part fails
 * with the driver's words, and with it the query: its coordinator ends the client's stream only once
 * every node's part succeeded, so rows another query's stream fed one of its sinks meanwhile end in the
 * failure, never in a complete result.
 * A receiver waits at most {@code connectTimeout} for its producer; the failure detector ends a query
 * whose node died sooner.
 *
 * <p>Threadsafe: ends are opened from the coordinator's thread, {@link #close()} from any.
 */
final class SharedDriverNodeLinks implements NodeLinks {

    /** The session ids one query may use: its tag is a multiple of this. */
    static final int STREAMS_PER_QUERY = 1 << 16;

    private final SharedDriverStreams streams;
    private final int tag;
    private final int self;
    private final List<DataPlaneEndpoint> endpoints;
    private final int nodes;
    private final int workers;
    private final int udpMtu;
    private final Duration connectTimeout;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private boolean closed;

    /**
     * @param tag            the query's tag: a multiple of {@link #STREAMS_PER_QUERY}
     * @param endpoints      the query's nodes' data planes, by index (the coordinator first)
     * @param workers        workers per node of every pipeline (the most any pipeline runs)
     * @param udpMtu         the largest frame of the streams this node sends to other hosts
     * @param connectTimeout how long a receiver waits for its producer to publish
     */
    SharedDriverNodeLinks(SharedDriverStreams streams, int tag, int self, List<DataPlaneEndpoint> endpoints,
                          int workers, int udpMtu, Duration connectTimeout) {
        if (tag % STREAMS_PER_QUERY != 0) {
            throw new IllegalArgumentException("tag " + tag + " is not a multiple of " + STREAMS_PER_QUERY);
        }
        this.streams = streams;
        this.tag = tag;
        this.self = self;
        this.endpoints = List.copyOf(endpoints);
        this.nodes = endpoints.size();
        this.workers = workers;
        this.udpMtu = udpMtu;
        this.connectTimeout = connectTimeout;
    }

    /** A random tag for a new query. */
    static int newTag() {
        return ThreadLocalRandom.current().nextInt() & -STREAMS_PER_QUERY;
    }

    @Override
    public int self() {
        return self;
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public String nodeName(int node) {
        return "node " + endpoints.get(node).nodeId();
    }

    @Override
    public synchronized BatchSender sender(int pipeline, int worker, int to) {
        checkOpen();
        int session = session(pipeline, self, worker, to);
        DataPlaneEndpoint consumer = endpoints.get(to);
        SharedDriverStreams.Outgoing out = onThisHost(to)
                ? streams.publish(SharedDriverStreams.EXCHANGE_STREAM_ID, session)
                : streams.publishOverUdp(consumer.udpEndpoint(), udpMtu, SharedDriverStreams.EXCHANGE_STREAM_ID,
                        session);
        opened.add(out.sender());
        return out.sender();
    }

    @Override
    public synchronized BatchReceiver receiver(int pipeline, int from, int worker) {
        checkOpen();
        int session = session(pipeline, from, worker, self);
        BatchReceiver receiver = onThisHost(from)
                ? streams.expect(SharedDriverStreams.EXCHANGE_STREAM_ID, session, connectTimeout)
                : streams.expectOverUdp(endpoints.get(self).udpEndpoint(), SharedDriverStreams.EXCHANGE_STREAM_ID,
                        session, connectTimeout);
        opened.add(receiver);
        return receiver;
    }

    /** Whether node {@code node} shares this node's driver, so that their streams are IPC. */
    private boolean onThisHost(int node) {
        return endpoints.get(self).sameHostAs(endpoints.get(node));
    }

    /**
     * The session id of the stream from worker {@code worker} of node {@code from} to node {@code to}'s
     * sink of pipeline {@code pipeline}.
     *
     * @throws IllegalStateException when the query has more streams than {@link #STREAMS_PER_QUERY}
     */
    int session(int pipeline, int from, int worker, int to) {
        long index = (((long) pipeline * nodes + from) * workers + worker) * nodes + to;
        if (worker >= workers || index >= STREAMS_PER_QUERY) {
            throw new IllegalStateException("stream of pipeline " + pipeline + ", node " + from + ", worker " + worker
                    + " to node " + to + ": a spread query over " + nodes + " nodes with " + workers
                    + " workers each has room for " + STREAMS_PER_QUERY + " streams");
        }
        return tag + (int) index;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the streams of this spread query are closed");
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (AutoCloseable end : opened) {
            try {
                end.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing " + end + ": " + e.getMessage(), e);
            }
        }
        opened.clear();
    }
}
