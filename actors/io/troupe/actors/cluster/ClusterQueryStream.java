package io.troupe.actors.cluster;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.profile.SpreadProfile;
import io.troupe.operators.types.Schema;
import io.troupe.transport.BatchHandler;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.aeron.SharedDriverStreams;
import org.apache.pekko.actor.typed.ActorRef;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The result of a query a node runs for a {@link TroupeCluster} client, pulled batch by batch as
 * {@link io.troupe.actors.api.QueryStream} is: control comes from the node through this query's
 * {@link QueryRelay} (Started, Done, Failed, or the node lost), rows through the host's media driver
 * ({@link SharedDriverStreams}), read here with back-pressure: a reader slower than the node holds the
 * node's query back.
 *
 * <h2>States</h2>
 * <pre>
 *   SUBMITTED ──Started: subscribe──> STREAMING ──end of stream, then Done (rows checked)──> ENDED
 *       │                                  │
 *       └──Failed, node lost, no stream────┴──> FAILED (thrown by this and every later call)
 *   any ──close()──> CLOSED (before the end: Cancel to the node, the subscription closed, the relay stopped)
 * </pre>
 * A failure on the node is thrown as a {@link QueryFailedException} whose message names the query and the
 * node and carries the node's message, its cause the node's exception as a
 * {@link io.troupe.actors.wire.RemoteFailure}.
 *
 * <p>Every wait is bounded: {@link #next(Duration)} by its argument, {@link #next()} by the node's own
 * bounds (its admission queue's timeout, the query's timeout) and the failure detector, which ends the
 * query when its node is lost; the end of stream's Done by {@link #DONE_WAIT}.
 *
 * <p>Not threadsafe: one thread reads a stream; the relay's actor only adds to a queue. The one exception
 * is {@link TroupeCluster#close()}, which closes the streams still open from its own thread: a reader
 * waiting for the node's answer then wakes with a {@link QueryCancelledException}; one polling the
 * stream sees it closed.
 */
public final class ClusterQueryStream implements AutoCloseable {

    /** How long the reader waits, after the end of stream or a stream gone, for the node's Done or Failed. */
    static final Duration DONE_WAIT = Duration.ofSeconds(30);
    /** How long the node's stream may take to show in the driver after Started. */
    static final Duration SUBSCRIBE_WAIT = Duration.ofSeconds(10);

    private enum State { SUBMITTED, STREAMING, ENDED, FAILED, CLOSED }

    private final long queryId;
    private final String nodeId;
    private final ActorRef<QueryService.Command> service;
    private final ActorRef<QueryRelay.Event> relay;
    private final BlockingQueue<QueryRelay.Event> events;
    /** The client's connection to the media driver of a directory (one host: the same for every node). */
    private final Function<Path, SharedDriverStreams> drivers;
    /** Told once, when the stream has released its query (ended, failed or closed). */
    private final Consumer<ClusterQueryStream> onReleased;
    private final Frames frames = new Frames();
    private State state = State.SUBMITTED;
    private RuntimeException failure;
    private Schema schema;
    /** How many nodes run the query; 0 until it started. */
    private volatile int nodes;
    private BatchReceiver receiver;
    private long rows;
    /** The node's Done when it came before the end of stream was read (it is sent right after it). */
    private QueryRelay.Done done;

    ClusterQueryStream(long queryId, String nodeId, ActorRef<QueryService.Command> service,
                       ActorRef<QueryRelay.Event> relay, BlockingQueue<QueryRelay.Event> events,
                       Function<Path, SharedDriverStreams> drivers, Consumer<ClusterQueryStream> onReleased) {
        this.queryId = queryId;
        this.nodeId = nodeId;
        this.service = service;
        this.relay = relay;
        this.events = events;
        this.drivers = drivers;
        this.onReleased = onReleased;
    }

    /** A queue for a relay to fill: what {@link QueryRelay#create} hands events to. */
    static BlockingQueue<QueryRelay.Event> newEventQueue() {
        return new LinkedBlockingQueue<>();
    }

    public long queryId() {
        return queryId;
    }

    /** The node that runs the query, {@code host:port}. */
    public String nodeId() {
        return nodeId;
    }

    /**
     * How many nodes run the query: 1 for its coordinator alone, more when it spread the query over the
     * nodes of its host; 0 until the query started (see {@link #schema(Duration)}).
     */
    public int nodes() {
        return nodes;
    }

    /**
     * The columns of every batch: known once the node started the query (waits for it, at most
     * {@code timeout}).
     */
    public Schema schema(Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        check();
        try {
            while (schema == null) {
                awaitStarted(deadline);
            }
        } catch (RuntimeException e) {
            failed(e);
            throw e;
        }
        return schema;
    }

    /**
     * The next batch, waiting at most {@code timeout}; null once the query has finished and every batch
     * was taken.
     *
     * @throws TimeoutException     when none came in time: the stream may be read again or closed
     * @throws QueryFailedException naming the node, when the query failed there or the node was lost
     */
    public Batch next(Duration timeout) throws InterruptedException, TimeoutException {
        return next(System.nanoTime() + Math.max(0, timeout.toNanos()));
    }

    /** The next batch however long it takes (bounded by the node, see the class comment); null at the end. */
    public Batch next() throws InterruptedException {
        try {
            return next(Long.MAX_VALUE);
        } catch (TimeoutException e) {
            throw new IllegalStateException("query " + queryId + ": a wait without a deadline timed out", e);
        }
    }

    /**
     * Under EXPLAIN ANALYZE ({@link TroupeCluster#explainAnalyze}), the query's profile, every node's part
     * merged; null until the node's Done came (after the last batch), or for a query that was not analyzed.
     */
    public SpreadProfile profile() {
        return done == null ? null : done.profile();
    }

    /** Every batch not yet taken, as one result (for small results: it holds them all). */
    public QueryResult remaining() throws InterruptedException {
        List<Batch> batches = new ArrayList<>();
        for (Batch b = next(); b != null; b = next()) {
            batches.add(b);
        }
        return new QueryResult(schema, batches);
    }

    private Batch next(long deadline) throws InterruptedException, TimeoutException {
        check();
        if (state == State.ENDED) {
            return null;
        }
        try {
            while (state == State.SUBMITTED) {
                awaitStarted(deadline);
            }
            return read(deadline);
        } catch (RuntimeException e) {
            failed(e);
            throw e;
        }
    }

    private void check() {
        if (state == State.CLOSED) {
            throw new IllegalStateException("query " + queryId + ": the stream is closed");
        }
        if (state == State.FAILED) {
            throw failure;
        }
    }

    /** Takes the node's first answer: Started subscribes to the stream; anything else fails. */
    private void awaitStarted(long deadline) throws InterruptedException, TimeoutException {
        QueryRelay.Event event = take(deadline);
        if (!(event instanceof QueryRelay.Started started)) {
            throw failureOf(event, "before it started");
        }
        schema = new Schema(started.fields());
        nodes = started.nodes();
        SharedDriverStreams driver;
        try {
            driver = drivers.apply(Path.of(started.driverDirectory()));
        } catch (IllegalStateException e) {
            throw new QueryFailedException("query " + queryId + ": node " + nodeId + " streams its rows through the"
                    + " media driver in " + started.driverDirectory() + ", which this client cannot reach (a client"
                    + " reads the rows through the driver of the node it queries: name a node on its own host,"
                    + " TroupeCluster.stream(plan, options, nodeId)): " + e.getMessage(), e);
        }
        // The node closes a stream it failed on at once, perhaps before this client saw it: Failed then follows.
        // Done may come first in a good run (all sent while this client's conductor still links the image).
        receiver = driver.subscribe(started.streamId(), started.sessionId(), SUBSCRIBE_WAIT, () -> {
            QueryRelay.Event first = events.peek();
            return first != null && !(first instanceof QueryRelay.Done);
        });
        if (receiver == null) {
            throw failureOf(events.poll(), "before its stream was read");
        }
        state = State.STREAMING;
    }

    /** Polls the stream for a batch, looking at the node's messages between polls. */
    private Batch read(long deadline) throws InterruptedException, TimeoutException {
        while (true) {
            int work = receiver.poll(frames, 1);
            Batch batch = frames.take();
            if (batch != null) {
                rows += batch.size();
                return batch;
            }
            switch (receiver.state()) {
                case END_OF_STREAM -> {
                    awaitDone();
                    return null;
                }
                case PRODUCER_GONE -> throw failureOf(take(System.nanoTime() + DONE_WAIT.toNanos()),
                        "whose stream ended without its end");
                default -> {
                    // OPEN: more may come.
                }
            }
            QueryRelay.Event event = events.poll();
            if (event instanceof QueryRelay.Done early) {
                done = early;
            } else if (event != null) {
                throw failureOf(event, "while streaming");
            }
            if (work == 0) {
                if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
                    throw new TimeoutException("query " + queryId + " on node " + nodeId + ": no batch within the time"
                            + " asked");
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException("query " + queryId + ": interrupted while streaming");
                }
                receiver.idle(0);
            }
        }
    }

    /** After the end of stream: the node's Done, whose count must be the rows that came. */
    private void awaitDone() throws InterruptedException, TimeoutException {
        if (done == null) {
            QueryRelay.Event event = take(System.nanoTime() + DONE_WAIT.toNanos());
            if (!(event instanceof QueryRelay.Done answer)) {
                throw failureOf(event, "after its last batch");
            }
            done = answer;
        }
        if (done.rows() != rows) {
            throw new QueryFailedException("query " + queryId + " on node " + nodeId + ": the node sent " + done.rows()
                    + " rows, " + rows + " arrived");
        }
        state = State.ENDED;
        release();
    }

    private QueryRelay.Event take(long deadline) throws InterruptedException, TimeoutException {
        QueryRelay.Event event = deadline == Long.MAX_VALUE ? events.take()
                : events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (event == null) {
            throw new TimeoutException("query " + queryId + " on node " + nodeId + ": no answer within the time asked");
        }
        return event;
    }

    /** The exception for an answer that ends the query ({@code when}: where the stream stood). */
    private QueryFailedException failureOf(QueryRelay.Event event, String when) {
        if (event instanceof QueryRelay.Failed failed) {
            return new QueryFailedException("query " + queryId + " failed on node " + failed.nodeId() + ": "
                    + failed.cause().getMessage(), failed.cause());
        }
        if (event == QueryRelay.Stop.INSTANCE) {
            return new QueryCancelledException("query " + queryId + " on node " + nodeId + ": the stream was closed");
        }
        if (event instanceof QueryRelay.NodeLost) {
            return new QueryFailedException("query " + queryId + ": node " + nodeId + " was lost " + when
                    + " (it stopped, or left the cluster)");
        }
        return new QueryFailedException("query " + queryId + " on node " + nodeId + ": unexpected " + event + " "
                + when);
    }

    private void failed(RuntimeException e) {
        state = State.FAILED;
        failure = e;
        release();
    }

    /**
     * Cancels the query on the node unless it has ended, closes the subscription and stops the relay.
     * Returns at once: the node stops the query within a batch (it also sees the subscription go).
     * Idempotent.
     */
    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        if (state == State.SUBMITTED || state == State.STREAMING) {
            service.tell(new QueryService.Cancel(relay, "the client closed the stream"));
        }
        state = State.CLOSED;
        release();
    }

    /**
     * Closes the subscription and stops the relay; idempotent (each step is). Stop also goes into the
     * queue: a reader that waits there (when the client closes the stream from another thread) wakes.
     */
    private void release() {
        if (receiver != null) {
            receiver.close();
        }
        relay.tell(QueryRelay.Stop.INSTANCE);
        events.add(QueryRelay.Stop.INSTANCE);
        onReleased.accept(this);
    }

    /** Takes at most one frame per poll (the poll's limit is 1). */
    private static final class Frames implements BatchHandler {
        private Batch batch;

        @Override
        public void onBatch(Batch b) {
            batch = b;
        }

        @Override
        public void onEndOfStream() {
            // The receiver's state says it.
        }

        Batch take() {
            Batch b = batch;
            batch = null;
            return b;
        }
    }
}
