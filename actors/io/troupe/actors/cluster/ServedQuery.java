package io.troupe.actors.cluster;

import io.troupe.actors.api.AnalyzedPart;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.Troupe;
import io.troupe.actors.exchange.ProducerGoneException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.fragment.SpreadPlan;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.PartProfile;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.profile.SpreadProfile;
import io.troupe.operators.types.Schema;
import io.troupe.transport.BatchSender;
import io.troupe.transport.aeron.SharedDriverStreams;
import org.apache.pekko.actor.typed.ActorRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One query a client submitted to this node, run on a thread of its own: it starts the query on the
 * node's Troupe as a {@link QueryStream} (or, spread over the nodes, its own part of it, see below),
 * publishes a stream on the host's media driver, tells the
 * client where (Started), waits, bounded by {@link #CONNECT_TIMEOUT}, for the client to subscribe, and
 * pumps every batch into the stream, then an end of stream, then tells the client Done with the row
 * count. Any exception (the plan refused, an operator's failure, the query's timeout, a cancel) goes to
 * the client as Failed with this node's id; the query, the stream and the publication are released in
 * every case before the service hears Ended.
 *
 * <p>Back-pressure: an offer the client's reading holds back is retried under the channel's idle
 * strategy; the query's own stream fills meanwhile, and its workers wait. Every wait checks the cancel
 * flag and the query's deadline (its {@code timeout}) between tries, and a client that went away
 * (its subscription closed: the offer says CLOSED) ends the query, as a failure: the same CLOSED is all
 * a dead media driver says, and then the client still listens.
 *
 * <p>The plan runs optimized ({@code troupe.sql.optimize-plans}, {@link Troupe#optimize}) as in one JVM: here,
 * once, over this node's statistics (its parts of a partitioned table), and every other node of a spread query
 * runs the plan this one sends it, optimized and pinned, so that all run one plan.
 *
 * <p><b>Spread</b> ({@link Spread}): the thread tells every other node of the host to run its part
 * ({@link QueryService.RunPart}), streams the coordinator's part here ({@link Troupe#streamPart}: every
 * node's rows), and ends the client's stream only once every node's part reported success
 * ({@link #partEnded}): a node's failure, or its leaving the cluster ({@link #peerGone}), fails the query
 * with that node's name and cause, and the other parts are cancelled ({@link QueryService.CancelPart}).
 *
 * <p><b>EXPLAIN ANALYZE</b> ({@link QueryService.Submit#analyze}): the query runs to its end first, with
 * counters ({@link Troupe#explainAnalyze} alone, {@link Troupe#analyzePart} spread, every other node told
 * to profile its part too), and its rows are sent after; Done carries the {@link SpreadProfile} that
 * merges this node's part and those that came with the other parts' ends.
 *
 * <p>Concurrency: the thread owns the query, the stream and the sender; {@link #cancel}, {@link #partEnded}
 * and {@link #peerGone} (the service's actor) only set volatile fields, which the thread reads between
 * batches and tries.
 */
final class ServedQuery implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ServedQuery.class);

    /** How long the client may take to subscribe after Started before the query gives up. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);
    /** How long a spread query that failed here waits for another node's own failure, which says more. */
    private static final Duration PEER_FAILURE_GRACE = Duration.ofSeconds(2);
    /** How long the thread waits for the next batch before it looks at the cancel flag again. */
    private static final Duration POLL = Duration.ofMillis(100);

    /** Another node that runs a part of a spread query: its service, and its data plane. */
    record Peer(ActorRef<QueryService.Command> service, DataPlaneEndpoint endpoint) {
        String nodeId() {
            return endpoint.nodeId();
        }
    }

    /**
     * How a query is spread: its tag, the other nodes in order (node i + 1 is peers[i]; this node is 0),
     * and this node's service, to which the peers report.
     */
    record Spread(int tag, List<Peer> peers, ActorRef<QueryService.Command> service) {
        Spread {
            peers = List.copyOf(peers);
        }
    }

    private final QueryService.Submit submit;
    /** The plan that runs: the submitted one, optimized when the settings say so; set first by the thread. */
    private Plan plan;
    private final Troupe troupe;
    private final PartAlignment alignment;
    private final DataPlane dataPlane;
    private final String nodeId;
    private final Runnable onEnded;
    private final ActorRef<QueryRelay.Event> client;
    /** Null for a query this node runs alone. */
    private final Spread spread;
    /** Null until cancelled; then why. */
    private volatile String cancelled;
    /** A spread query's first failure on another node; null while there is none. */
    private volatile QueryFailedException peerFailure;
    /** The other nodes whose part of a spread query succeeded. */
    private final AtomicInteger partsSucceeded = new AtomicInteger();
    /** Whether the other nodes were told to run their parts; the query's thread's alone. */
    private boolean partsStarted;
    /** By node id, the parts of partitioned tables each node of a spread query read ({@link PartCoverage}). */
    private final Map<String, List<String>> held = new ConcurrentHashMap<>();

    /** By node index, the profiles of the other nodes' parts of an analyzed spread query that succeeded. */
    private final Map<Integer, PartProfile> peerProfiles = new ConcurrentHashMap<>();
    /** Workers per node of a spread query (or the query's, alone); the query's thread's. */
    private int workers;
    /** Under EXPLAIN ANALYZE, this node's part (spread), while it runs; the query's thread's. */
    private AnalyzedPart analyzing;
    /** Under EXPLAIN ANALYZE, this node's profile once its part ended; the query's thread's. */
    private PartProfile ownProfile;

    /** System.nanoTime() past which the query has run out of time; Long.MAX_VALUE with no timeout. */
    private long deadline = Long.MAX_VALUE;

    /** @param spread how the query is spread over the nodes; null to run it here alone */
    ServedQuery(QueryService.Submit submit, Troupe troupe, PartAlignment alignment, DataPlane dataPlane,
                String nodeId, Spread spread, Runnable onEnded) {
        this.submit = submit;
        this.troupe = troupe;
        this.alignment = alignment;
        this.dataPlane = dataPlane;
        this.nodeId = nodeId;
        this.spread = spread;
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

    /**
     * Node {@code node} ({@code peerId})'s part of this spread query ended, with {@code failure} or none,
     * and under EXPLAIN ANALYZE its {@code profile}. Any thread.
     */
    void partEnded(int node, String peerId, Throwable failure, List<String> parts, PartProfile profile) {
        if (failure == null) {
            held.put(peerId, parts);
            if (profile != null) {
                peerProfiles.put(node, profile);
            }
            partsSucceeded.incrementAndGet();
            return;
        }
        failPart(new QueryFailedException("query " + submit.queryId() + " failed on node " + peerId + ": "
                + failure.getMessage(), failure));
    }

    /** Node {@code peerId}'s service stopped or its node left the cluster: fails the query if it took part. */
    void peerGone(ActorRef<QueryService.Command> service, String peerId) {
        if (spread.peers().stream().anyMatch(p -> p.service().equals(service))) {
            failPart(new QueryFailedException("query " + submit.queryId() + " failed: node " + peerId
                    + " left the cluster while it ran its part"));
        }
    }

    private void failPart(QueryFailedException failure) {
        if (peerFailure == null) {
            peerFailure = failure;
        }
        cancel(failure.getMessage());
    }

    @Override
    public void run() {
        long queryId = submit.queryId();
        if (submit.timeoutMillis() > 0) {
            deadline = System.nanoTime() + Duration.ofMillis(submit.timeoutMillis()).toNanos();
        }
        QueryStream stream = null;
        SharedDriverStreams.Outgoing out = null;
        boolean succeeded = false;
        try {
            plan = troupe.settings().sql().optimizePlans() ? troupe.optimize(submit.plan())
                    : troupe.functions().resolve(submit.plan());
            if (spread == null) {
                // Alone, a node answers a query over a partitioned table once it holds all of it.
                alignment.align(plan, List.of(nodeId));
                PartCoverage.checkCount(queryId, PartCoverage.held(troupe.catalog(), plan), 1);
            }
            Iterator<Batch> analyzed = null;
            Schema schema;
            if (submit.analyze()) {
                QueryResult result = analyze();
                analyzed = result.batches().iterator();
                schema = result.schema();
            } else {
                stream = spread == null ? troupe.stream(plan, submit.options())
                        : troupe.streamPart(plan, startSpread(), links());
                schema = stream.schema();
            }
            out = dataPlane.streams().publish();
            client.tell(new QueryRelay.Started(queryId, nodeId, dataPlane.streams().directory().toString(),
                    out.streamId(),
                    out.sessionId(), schema.fields(), spread == null ? 1 : spread.peers().size() + 1));
            awaitSubscriber(out);
            BatchSender sender = out.sender();
            long rows = 0;
            for (Batch batch = next(stream, analyzed); batch != null; batch = next(stream, analyzed)) {
                send(sender, batch, false);
                rows += batch.size();
            }
            if (spread != null) {
                awaitParts();
            }
            send(sender, null, true);
            sender.close();
            client.tell(new QueryRelay.Done(queryId, rows, profile()));
            succeeded = true;
            LOG.debug("[{}] query {}: {} rows sent", nodeId, queryId, rows);
        } catch (InterruptedException e) {
            fail(new QueryCancelledException("query " + queryId + " on node " + nodeId + " was interrupted"));
        } catch (RuntimeException | Error e) {
            fail(spread == null ? e : peerFailureOr(e));
        } finally {
            if (out != null) {
                out.sender().close();
            }
            if (stream != null) {
                stream.close();
            }
            if (analyzing != null) {
                analyzing.query().cancel("query " + queryId + " ended on node " + nodeId);
            }
            if (spread != null) {
                endSpread(succeeded);
            }
            onEnded.run();
        }
    }

    /**
     * EXPLAIN ANALYZE: runs the query to its end (alone, or this node's part of it spread, which gathers
     * every node's rows), bounded by the cancel flag and the deadline, keeping this node's profile; the
     * rows are sent afterwards.
     */
    private QueryResult analyze() throws InterruptedException {
        if (spread == null) {
            QueryProfile profile = troupe.explainAnalyze(plan, submit.options());
            workers = Math.max(0, profile.workersPlanned());
            ownProfile = PartProfile.of(SpreadPlan.COORDINATOR, nodeId, profile, List.of());
            return profile.result();
        }
        QueryOptions options = startSpread();
        analyzing = troupe.analyzePart(plan, options, links());
        CompletableFuture<QueryResult> result = analyzing.query().result();
        while (true) {
            checkRunning();
            try {
                result.get(POLL.toMillis(), TimeUnit.MILLISECONDS);
                break;
            } catch (TimeoutException e) {
                // Not yet: look at the flags, then wait again.
            } catch (ExecutionException e) {
                break; // awaitProfile throws the part's failure as RunningQuery.await does
            }
        }
        ownProfile = analyzing.awaitProfile();
        return analyzing.query().await();
    }

    /** The merged EXPLAIN ANALYZE of every node's part; null when it was not asked for. */
    private SpreadProfile profile() {
        if (ownProfile == null) {
            return null;
        }
        List<PartProfile> parts = new ArrayList<>();
        parts.add(ownProfile);
        for (int node = 1; spread != null && node <= spread.peers().size(); node++) {
            parts.add(peerProfiles.get(node));
        }
        return new SpreadProfile(parts, workers, ownProfile.executionNanos());
    }

    /** This node's streams to the other nodes of the spread query. */
    private SharedDriverNodeLinks links() {
        return dataPlane.links(spread.tag(), SpreadPlan.COORDINATOR, nodes(), workers);
    }

    /** The data planes of the spread query's nodes, by index: this one first. */
    private List<DataPlaneEndpoint> nodes() {
        List<DataPlaneEndpoint> nodes = new ArrayList<>();
        nodes.add(dataPlane.self());
        spread.peers().forEach(peer -> nodes.add(peer.endpoint()));
        return nodes;
    }

    /** Tells every other node to run its part of the spread query; returns the options every part runs with. */
    private QueryOptions startSpread() {
        List<DataPlaneEndpoint> nodes = nodes();
        List<String> nodeIds = nodes.stream().map(DataPlaneEndpoint::nodeId).toList();
        workers = Math.max(1, submit.workers() == QueryOptions.DEFAULT_WORKERS
                ? troupe.settings().workers().defaultWorkers() : submit.workers());
        QueryOptions options = new QueryOptions(workers, submit.options().timeout(), submit.memoryBytes());
        alignment.align(plan, nodeIds);
        List<String> parts = PartCoverage.held(troupe.catalog(), plan);
        PartCoverage.checkCount(submit.queryId(), parts, nodeIds.size());
        held.put(nodeId, parts);
        int planHash = troupe.explainSpread(plan, options, nodeIds.size()).hashCode();
        for (int i = 0; i < spread.peers().size(); i++) {
            spread.peers().get(i).service().tell(new QueryService.RunPart(spread.tag(), i + 1, nodes, plan,
                    workers, submit.timeoutMillis(), submit.memoryBytes(), planHash, submit.analyze(),
                    spread.service()));
        }
        partsStarted = true;
        return options;
    }

    /**
     * Waits, bounded by the cancel flag and the deadline, until every other node's part succeeded, and
     * checks that they held every part of each partitioned table once: only then does the client hear
     * that its rows are complete.
     */
    private void awaitParts() throws InterruptedException {
        while (partsSucceeded.get() < spread.peers().size()) {
            checkRunning();
            Thread.sleep(1);
        }
        PartCoverage.check(submit.queryId(), held);
        LOG.debug("[{}] query {}: every part succeeded", nodeId, submit.queryId());
    }

    /** After a spread query that did not succeed here, the other parts are cancelled (this one closed with its stream). */
    private void endSpread(boolean succeeded) {
        if (!succeeded) {
            String reason = "query " + submit.queryId() + " ended on its coordinator, node " + nodeId;
            for (Peer peer : spread.peers()) {
                peer.service().tell(new QueryService.CancelPart(spread.tag(), reason));
            }
        }
    }

    /**
     * The failure to report for a spread query that failed here with {@code here}: another node's, when it
     * comes within {@link #PEER_FAILURE_GRACE}. A node that fails breaks its streams (over the driver)
     * before its own word (over Artery) reaches this node, and the broken stream says less than its cause.
     * No wait when the query failed before the others were told to run their parts (a plan this node
     * refused), was cancelled here (the client, its timeout), or failed here of its own (an error in an
     * expression: not a stream a peer broke or closed).
     */
    private Throwable peerFailureOr(Throwable here) {
        if (peerFailure != null) {
            return peerFailure;
        }
        if (!partsStarted || cancelled != null || !brokenByAPeer(here)) {
            return here;
        }
        long deadline = System.nanoTime() + PEER_FAILURE_GRACE.toNanos();
        while (peerFailure == null && partsSucceeded.get() < spread.peers().size()
                && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return peerFailure != null ? peerFailure : here;
    }

    /** Whether {@code failure} is a stream that another node broke (its producer gone) or closed (its consumer). */
    private static boolean brokenByAPeer(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ProducerGoneException || t instanceof QueryCancelledException) {
                return true;
            }
        }
        return false;
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

    /**
     * The query's next batch, or null at its end: of the {@code analyzed} rows when there are any, else
     * of the stream, looking at the cancel flag and deadline while it waits.
     */
    private Batch next(QueryStream stream, Iterator<Batch> analyzed) throws InterruptedException {
        if (analyzed != null) {
            checkRunning();
            return analyzed.hasNext() ? analyzed.next() : null;
        }
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
     * Sends {@code batch} (or the end of stream) however long the client holds it back.
     *
     * @throws QueryFailedException when the stream closed under it: the client went away (then nobody
     *         hears the failure), or the host's media driver is gone (then the client must hear it, or it
     *         would wait for rows that never come)
     */
    private void send(BatchSender sender, Batch batch, boolean endOfStream) {
        while (true) {
            long result = endOfStream ? sender.offerEndOfStream() : sender.offer(batch);
            if (result > 0) {
                return;
            }
            if (result == BatchSender.CLOSED) {
                throw new QueryFailedException("query " + submit.queryId() + " on node " + nodeId + ": its stream to"
                        + " the client closed (the client went away, or the host's media driver is gone)");
            }
            checkRunning();
            sender.idle(0);
        }
    }

    private void checkRunning() {
        QueryFailedException failed = peerFailure;
        if (failed != null) {
            throw failed;
        }
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
