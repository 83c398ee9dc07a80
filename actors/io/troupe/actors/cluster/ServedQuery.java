package io.troupe.actors.cluster;

import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.transport.BatchSender;
import io.troupe.transport.aeron.SharedDriverStreams;
import org.apache.pekko.actor.typed.ActorRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * One query a client submitted to this node, run on a thread of its own: it starts the query on the
 * node's Troupe as a {@link QueryStream}, publishes a stream on the host's media driver, tells the
 * client where (Started), waits, bounded by {@link #CONNECT_TIMEOUT}, for the client to subscribe, and
 * pumps every batch into the stream, then an end of stream, then tells the client Done with the row
 * count. Any exception (the plan refused, an operator's failure, the query's timeout, a cancel) goes to
 * the client as Failed with this node's id; the query, the stream and the publication are released in
 * every case before the service hears Ended.
 *
 * <p>Back-pressure: an offer the client's reading holds back is retried under the channel's idle
 * strategy; the query's own stream fills meanwhile, and its workers wait. Every wait checks the cancel
 * flag and the query's deadline (its {@code timeout}) between tries, and a client that went away
 * (its subscription closed: the offer says CLOSED) ends the query.
 *
 * <p>Concurrency: the thread owns the query, the stream and the sender; {@link #cancel} (the service's
 * actor) only sets a volatile reason, which the thread reads between batches and tries.
 */
final class ServedQuery implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ServedQuery.class);

    /** How long the client may take to subscribe after Started before the query gives up. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);
    /** How long the thread waits for the next batch before it looks at the cancel flag again. */
    private static final Duration POLL = Duration.ofMillis(100);

    private final QueryService.Submit submit;
    private final Troupe troupe;
    private final SharedDriverStreams streams;
    private final String nodeId;
    private final Runnable onEnded;
    private final ActorRef<QueryRelay.Event> client;
    /** Null until cancelled; then why. */
    private volatile String cancelled;
    /** System.nanoTime() past which the query has run out of time; Long.MAX_VALUE with no timeout. */
    private long deadline = Long.MAX_VALUE;

    ServedQuery(QueryService.Submit submit, Troupe troupe, SharedDriverStreams streams, String nodeId,
                Runnable onEnded) {
        this.submit = submit;
        this.troupe = troupe;
        this.streams = streams;
        this.nodeId = nodeId;
        this.onEnded = onEnded;
        this.client = submit.replyTo();
    }

    /** Starts the query's thread. */
    void start() {
        Thread thread = new Thread(this, "troupe-served-" + submit.queryId());
        thread.setDaemon(true);
        thread.start();
    }

    /** Asks the query to stop: within a batch, or a try of the stream. Any thread. */
    void cancel(String reason) {
        cancelled = reason;
    }

    @Override
    public void run() {
        long queryId = submit.queryId();
        if (submit.timeoutMillis() > 0) {
            deadline = System.nanoTime() + Duration.ofMillis(submit.timeoutMillis()).toNanos();
        }
        QueryStream stream = null;
        SharedDriverStreams.Outgoing out = null;
        try {
            stream = troupe.stream(submit.plan(), submit.options());
            out = streams.publish();
            client.tell(new QueryRelay.Started(queryId, nodeId, streams.directory().toString(), out.streamId(),
                    out.sessionId(), stream.schema().fields()));
            awaitSubscriber(out);
            BatchSender sender = out.sender();
            long rows = 0;
            for (Batch batch = next(stream); batch != null; batch = next(stream)) {
                if (!send(sender, batch, false)) {
                    return;
                }
                rows += batch.size();
            }
            if (!send(sender, null, true)) {
                return;
            }
            sender.close();
            client.tell(new QueryRelay.Done(queryId, rows));
            LOG.debug("[{}] query {}: {} rows sent", nodeId, queryId, rows);
        } catch (InterruptedException e) {
            fail(new QueryCancelledException("query " + queryId + " on node " + nodeId + " was interrupted"));
        } catch (RuntimeException | Error e) {
            fail(e);
        } finally {
            if (out != null) {
                out.sender().close();
            }
            if (stream != null) {
                stream.close();
            }
            onEnded.run();
        }
    }

    private void fail(Throwable cause) {
        LOG.info("[{}] query {} failed: {}", nodeId, submit.queryId(), cause.toString());
        client.tell(new QueryRelay.Failed(submit.queryId(), nodeId, cause));
    }

    /** Waits for the client's subscription; throws when it does not come within the bound. */
    private void awaitSubscriber(SharedDriverStreams.Outgoing out) throws InterruptedException {
        long limit = System.nanoTime() + CONNECT_TIMEOUT.toNanos();
        while (!out.isConnected()) {
            checkRunning();
            if (System.nanoTime() - limit >= 0) {
                throw new QueryFailedException("query " + submit.queryId() + ": the client did not subscribe to "
                        + out + " within " + CONNECT_TIMEOUT.toSeconds() + " s");
            }
            Thread.sleep(1);
        }
    }

    /** The query's next batch, or null at its end; looks at the cancel flag and deadline while it waits. */
    private Batch next(QueryStream stream) throws InterruptedException {
        while (true) {
            checkRunning();
            try {
                return stream.next(POLL);
            } catch (TimeoutException e) {
                // Nothing yet: look at the flags, then wait again.
            }
        }
    }

    /**
     * Sends {@code batch} (or the end of stream) however long the client holds it back; false when the
     * client has gone (the query then just ends).
     */
    private boolean send(BatchSender sender, Batch batch, boolean endOfStream) {
        while (true) {
            long result = endOfStream ? sender.offerEndOfStream() : sender.offer(batch);
            if (result > 0) {
                return true;
            }
            if (result == BatchSender.CLOSED) {
                LOG.info("[{}] query {}: the client closed its stream", nodeId, submit.queryId());
                return false;
            }
            checkRunning();
            sender.idle(0);
        }
    }

    private void checkRunning() {
        String reason = cancelled;
        if (reason != null) {
            throw new QueryCancelledException("query " + submit.queryId() + " on node " + nodeId + " was cancelled: "
                    + reason);
        }
        if (System.nanoTime() - deadline >= 0) {
            throw new QueryCancelledException("query " + submit.queryId() + " on node " + nodeId + " timed out after "
                    + submit.timeoutMillis() + " ms");
        }
    }
}
