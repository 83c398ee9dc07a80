package io.troupe.actors.cluster;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.actors.wire.WireMessage;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.PartProfile;
import io.troupe.transport.aeron.SharedDriverStreams;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A node's query service: takes queries that clients ({@link TroupeCluster}) submit, runs each as their
 * coordinator and streams its rows back. Registered with the Receptionist under {@link #KEY}, one per
 * node. A node that knows other nodes with a data plane (their {@link DataPlaneEndpoint}s: a media driver,
 * on this host or another) spreads every query over all of them
 * ({@link io.troupe.operators.fragment.SpreadPlan}): it tells each {@link RunPart}, runs its own part
 * (node 0), and answers the client once every part succeeded. A node that knows none runs the whole
 * query itself.
 *
 * <h2>Protocol</h2>
 * <pre>
 *   client relay                      query service (this)              ServedQuery (a thread)
 *   ── Submit(id, plan, options) ──>  watch the relay, start ──────────> troupe.stream(plan)
 *                                                                        publish on the host's driver
 *   <── Started(node, driver dir, stream, session, columns) ─────────────────────┘
 *   subscribe to that session ═══════════ batches, then an end of stream over aeron:ipc ═══════════
 *   <── Done(id, rows) ──────────────────────────────────────────────────────────┘
 *   (or, instead of Started or Done: Failed(id, node, the node's exception))
 *   ── Cancel(relay, reason) ──>      served.cancel ──────────────────> stops within a batch
 *   (the relay stops, or its member is removed: Terminated)  ──>  the same cancel
 * </pre>
 * A spread query, between the coordinator's service and every other node's:
 * <pre>
 *   coordinator (ServedQuery)                         other node's service (SpreadPart, a thread)
 *   ── RunPart(tag, node, nodes, plan, workers) ──>   troupe.submitPart over the host's driver
 *   its own part: troupe.submitPart   ═══════ rows between the parts' sinks, aeron:ipc ═══════
 *   <── PartEnded(tag, node, failure or none) ───────────┘
 *   ── CancelPart(tag, reason) ──>   (when the query failed or was cancelled anywhere)
 * </pre>
 * Every service watches every other: a node that leaves the cluster fails the spread queries it takes
 * part in, naming it, and the parts whose coordinator it was end.
 *
 * <p>Rows never ride in an actor message: they go through the host's standalone media driver
 * ({@link SharedDriverStreams}), with Aeron's back-pressure: a client that reads slowly holds the query
 * back. A node without a shared driver ({@code troupe.cluster.media-driver-dir} empty) answers every
 * submit with Failed, saying so.
 *
 * <p>Concurrency: the actor owns the tables of served queries (keyed by the client's relay, unique in the
 * cluster, and for spread ones by tag) and of parts it runs for others; each {@link ServedQuery} and
 * {@link SpreadPart} runs on a thread of its own and tells the actor when it is done. On stop (the node
 * closes) every served query and part is cancelled.
 */
public final class QueryService {

    /** The Receptionist's key: one query service per node. */
    public static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "troupe-queries");

    /**
     * How long a spread query's receiver waits for its producer on another node to publish: a bound for
     * a node that never gets there; a node that died is noticed sooner, by the failure detector.
     */
    static final Duration STREAM_CONNECT_TIMEOUT = Duration.ofMinutes(10);

    /** What the service receives. */
    public sealed interface Command {
    }

    /**
     * A query to run here.
     *
     * @param queryId       the client's id, for logs and errors
     * @param plan          the plan, as the client built it
     * @param workers       {@link QueryOptions#workers()}
     * @param timeoutMillis {@link QueryOptions#timeout()} in ms; 0 for none
     * @param memoryBytes   {@link QueryOptions#memoryBytes()}
     * @param analyze       EXPLAIN ANALYZE: Done carries the query's profile, every node's part merged
     * @param replyTo       the client's relay for this query
     */
    public record Submit(long queryId, Plan plan, int workers, long timeoutMillis, long memoryBytes, boolean analyze,
                         ActorRef<QueryRelay.Event> replyTo) implements Command, WireMessage {

        /** The options the node runs the query with. */
        QueryOptions options() {
            return new QueryOptions(workers, timeoutMillis == 0 ? null : Duration.ofMillis(timeoutMillis), memoryBytes);
        }
    }

    /** Stop the query whose relay is {@code replyTo}; nothing when it has ended. */
    public record Cancel(ActorRef<QueryRelay.Event> replyTo, String reason) implements Command, WireMessage {
    }

    /**
     * Run node {@code node}'s part of a query spread over the nodes whose data planes are {@code nodes} (by
     * index, the coordinator first), which {@code coordinator}'s node coordinates; the tag names its streams
     * ({@link SharedDriverNodeLinks}).
     *
     * @param workers  workers per node, at least 1: the coordinator's choice, the same on every node
     * @param planHash the hash of the coordinator's EXPLAIN of the spread query: a node that plans it
     *                 otherwise (other settings, other tables) refuses its part rather than wait on streams
     *                 that never come
     * @param analyze  EXPLAIN ANALYZE: the part profiles itself, and its PartEnded carries the profile
     */
    public record RunPart(int tag, int node, List<DataPlaneEndpoint> nodes, Plan plan, int workers, long timeoutMillis,
                          long memoryBytes, int planHash, boolean analyze, ActorRef<Command> coordinator)
            implements Command, WireMessage {

        public RunPart {
            nodes = List.copyOf(nodes);
        }

        /** The query's nodes' ids, {@code host:port}, by index. */
        List<String> nodeIds() {
            return nodes.stream().map(DataPlaneEndpoint::nodeId).toList();
        }

        /** The options the part runs with. */
        QueryOptions options() {
            return new QueryOptions(workers, timeoutMillis == 0 ? null : Duration.ofMillis(timeoutMillis), memoryBytes);
        }
    }

    /** Stop this node's part of spread query {@code tag}; nothing when it has ended. */
    public record CancelPart(int tag, String reason) implements Command, WireMessage {
    }

    /**
     * Node {@code node} ({@code nodeId}) finished its part of spread query {@code tag}; {@code failure}
     * null when it succeeded; {@code held}: the parts of partitioned tables it read ({@link PartCoverage});
     * {@code profile}: the part's EXPLAIN ANALYZE when it was asked for and succeeded, else null.
     */
    public record PartEnded(int tag, int node, String nodeId, Throwable failure, List<String> held,
                            PartProfile profile) implements Command, WireMessage {
        public PartEnded {
            held = List.copyOf(held);
        }
    }

    /** The relay of a served query stopped (or its member left the cluster). */
    private record ClientGone(ActorRef<QueryRelay.Event> replyTo) implements Command {
    }

    /** A served query's thread has finished. */
    private record Ended(ActorRef<QueryRelay.Event> replyTo, int tag) implements Command {
    }

    /** A part's thread has finished. */
    private record PartOver(int tag) implements Command {
    }

    /** The query services the Receptionist lists now. */
    private record Services(Receptionist.Listing listing) implements Command {
    }

    /** Another node's service stopped, or its node left the cluster. */
    private record PeerGone(ActorRef<Command> service) implements Command {
    }

    private final ActorContext<Command> context;
    private final Troupe troupe;
    /** Cuts this node's parts of partitioned tables again for the nodes of a query. */
    private final PartAlignment alignment;
    private final String nodeId;
    /** Null when the node has no shared media driver. */
    private final DataPlane dataPlane;
    /** What this node knows of the others: their endpoints (which host's driver each uses). */
    private final Supplier<NodeView> view;
    private final Map<ActorRef<QueryRelay.Event>, ServedQuery> served = new HashMap<>();
    /** The spread queries this node coordinates, by tag. */
    private final Map<Integer, ServedQuery> spread = new HashMap<>();
    /** The parts this node runs of queries other nodes coordinate, by tag. */
    private final Map<Integer, SpreadPart> parts = new HashMap<>();
    /** Every other node's service, as the Receptionist lists them; each watched. */
    private final Set<ActorRef<Command>> peers = new HashSet<>();

    private QueryService(ActorContext<Command> context, Troupe troupe, TableParts tableParts, String nodeId,
                         DataPlane dataPlane, Supplier<NodeView> view) {
        this.context = context;
        this.troupe = troupe;
        this.alignment = new PartAlignment(troupe, tableParts, nodeId);
        this.nodeId = nodeId;
        this.dataPlane = dataPlane;
        this.view = view;
    }

    /**
     * The service of node {@code nodeId}, registered with the Receptionist as it starts.
     *
     * @param tableParts where the node re-reads its partitioned tables from to cut them again
     * @param view       what the node knows of the cluster now (null before its first view)
     */
    static Behavior<Command> create(Troupe troupe, TableParts tableParts, String nodeId, DataPlane dataPlane,
                                    Supplier<NodeView> view) {
        return Behaviors.setup(context -> {
            context.getSystem().receptionist().tell(Receptionist.register(KEY, context.getSelf()));
            context.getSystem().receptionist().tell(Receptionist.subscribe(KEY,
                    context.messageAdapter(Receptionist.Listing.class, Services::new)));
            return new QueryService(context, troupe, tableParts, nodeId, dataPlane, view).behavior();
        });
    }

    private Behavior<Command> behavior() {
        return Behaviors.receive(Command.class)
                .onMessage(Submit.class, this::onSubmit)
                .onMessage(Cancel.class, m -> cancel(m.replyTo(), m.reason()))
                .onMessage(ClientGone.class, m -> cancel(m.replyTo(), "the client went away"))
                .onMessage(Ended.class, this::onEnded)
                .onMessage(RunPart.class, this::onRunPart)
                .onMessage(CancelPart.class, this::onCancelPart)
                .onMessage(PartEnded.class, this::onPartEnded)
                .onMessage(PartOver.class, m -> {
                    parts.remove(m.tag());
                    return Behaviors.same();
                })
                .onMessage(Services.class, this::onServices)
                .onMessage(PeerGone.class, this::onPeerGone)
                .onSignal(PostStop.class, signal -> onStop())
                .build();
    }

    private Behavior<Command> onSubmit(Submit submit) {
        ActorRef<QueryRelay.Event> relay = submit.replyTo();
        if (dataPlane == null) {
            relay.tell(new QueryRelay.Failed(submit.queryId(), nodeId, new IllegalStateException("node " + nodeId
                    + " has no shared media driver (troupe.cluster.media-driver-dir), so it cannot stream rows to a"
                    + " client")));
            return Behaviors.same();
        }
        if (served.containsKey(relay)) {
            context.getLog().warn("[{}] query {} submitted twice by {}: ignored", nodeId, submit.queryId(), relay);
            return Behaviors.same();
        }
        ActorRef<Command> self = context.getSelf();
        List<ServedQuery.Peer> others = peersWithADataPlane();
        ServedQuery.Spread spreadOver = others.isEmpty() ? null
                : new ServedQuery.Spread(SharedDriverNodeLinks.newTag(), others, self);
        int tag = spreadOver == null ? 0 : spreadOver.tag();
        ServedQuery query = new ServedQuery(submit, troupe, alignment, dataPlane, nodeId, spreadOver,
                () -> self.tell(new Ended(relay, tag)));
        served.put(relay, query);
        if (spreadOver != null) {
            spread.put(tag, query);
        }
        context.watchWith(relay, new ClientGone(relay));
        context.getLog().debug("[{}] query {} from {}", nodeId, submit.queryId(), relay.path().address());
        query.start();
        return Behaviors.same();
    }

    private Behavior<Command> cancel(ActorRef<QueryRelay.Event> relay, String reason) {
        ServedQuery query = served.get(relay);
        if (query != null) {
            query.cancel(reason);
        }
        return Behaviors.same();
    }

    private Behavior<Command> onEnded(Ended ended) {
        served.remove(ended.replyTo());
        if (ended.tag() != 0) {
            spread.remove(ended.tag());
        }
        context.unwatch(ended.replyTo());
        return Behaviors.same();
    }

    /**
     * The other nodes with a data plane (a shared media driver), in node-id order: a spread query runs on
     * all of them, its streams IPC through the driver of a host and UDP between hosts.
     */
    private List<ServedQuery.Peer> peersWithADataPlane() {
        NodeView now = view.get();
        if (now == null) {
            return List.of();
        }
        Map<String, DataPlaneEndpoint> endpoints = new HashMap<>();
        for (DataPlaneEndpoint endpoint : now.endpoints()) {
            endpoints.put(endpoint.nodeId(), endpoint);
        }
        List<ServedQuery.Peer> found = new ArrayList<>();
        for (ActorRef<Command> peer : peers) {
            DataPlaneEndpoint endpoint = endpoints.get(MembershipTracker.address(peer.path().address()));
            if (endpoint != null && !endpoint.aeronDirectory().isEmpty()) {
                found.add(new ServedQuery.Peer(peer, endpoint));
            }
        }
        found.sort(Comparator.comparing(ServedQuery.Peer::nodeId));
        return found;
    }

    private Behavior<Command> onRunPart(RunPart run) {
        if (dataPlane == null) {
            run.coordinator().tell(new PartEnded(run.tag(), run.node(), nodeId, new IllegalStateException("node "
                    + nodeId + " has no shared media driver (troupe.cluster.media-driver-dir)"), List.of(), null));
            return Behaviors.same();
        }
        ActorRef<Command> self = context.getSelf();
        SpreadPart part = new SpreadPart(run, troupe, alignment, dataPlane, nodeId, () -> self.tell(new PartOver(run.tag())));
        parts.put(run.tag(), part);
        part.start();
        return Behaviors.same();
    }

    private Behavior<Command> onCancelPart(CancelPart cancel) {
        SpreadPart part = parts.get(cancel.tag());
        if (part != null) {
            part.cancel(cancel.reason());
        }
        return Behaviors.same();
    }

    private Behavior<Command> onPartEnded(PartEnded ended) {
        ServedQuery query = spread.get(ended.tag());
        if (query != null) {
            query.partEnded(ended.node(), ended.nodeId(), ended.failure(), ended.held(), ended.profile());
        }
        return Behaviors.same();
    }

    private Behavior<Command> onServices(Services services) {
        for (ActorRef<Command> service : services.listing().getServiceInstances(KEY)) {
            if (!service.equals(context.getSelf()) && peers.add(service)) {
                context.watchWith(service, new PeerGone(service));
            }
        }
        return Behaviors.same();
    }

    private Behavior<Command> onPeerGone(PeerGone gone) {
        peers.remove(gone.service());
        String id = MembershipTracker.address(gone.service().path().address());
        for (ServedQuery query : spread.values()) {
            query.peerGone(gone.service(), id);
        }
        for (SpreadPart part : parts.values()) {
            if (part.coordinatedBy(gone.service())) {
                part.cancel("its coordinator, node " + id + ", left the cluster");
            }
        }
        return Behaviors.same();
    }

    private Behavior<Command> onStop() {
        for (ServedQuery query : served.values()) {
            query.cancel("node " + nodeId + " is stopping");
        }
        for (SpreadPart part : parts.values()) {
            part.cancel("node " + nodeId + " is stopping");
        }
        return Behaviors.same();
    }
}
