package io.troupe.actors.cluster;

import io.troupe.actors.cluster.NodeView.EventKind;
import io.troupe.actors.cluster.NodeView.Member;
import io.troupe.actors.cluster.NodeView.MemberStatus;
import io.troupe.actors.cluster.NodeView.MembershipEvent;
import io.troupe.actors.cluster.NodeView.NodeState;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * A node's view of its cluster, kept by one actor: it registers the node's {@link DataPlaneEndpoint}
 * with the Receptionist, subscribes to the cluster's membership and reachability events and to the
 * Receptionist's listing of endpoints, and every {@code interval} takes a {@link NodeView} (members from
 * the cluster's current state, the removed ones from the events), hands it to the node and writes it to
 * the status file.
 *
 * <p>Protocol: {@link Command}s, from Pekko's cluster and Receptionist through message adapters, and
 * its own timer. Nothing else writes its state; the node reads the published views only.
 */
final class MembershipTracker {

    /** What the tracker receives. */
    sealed interface Command {
    }

    /** A membership event of the cluster (joined, up, left, exited, downed, removed). */
    private record MemberChanged(ClusterEvent.MemberEvent event) implements Command {
    }

    /** A member became unreachable or reachable again. */
    private record ReachabilityChanged(ClusterEvent.ReachabilityEvent event) implements Command {
    }

    /** The Receptionist's endpoints changed. */
    private record EndpointsListed(Receptionist.Listing listing) implements Command {
    }

    /** Time to take and publish a view. */
    private enum Tick implements Command { INSTANCE }

    private final ActorContext<Command> context;
    private final Cluster cluster;
    private final String nodeId;
    private final Path statusFile;
    private final Consumer<NodeView> publish;
    private final IntSupplier queries;
    /** Addresses removed from the cluster: the current state no longer lists them. */
    private final Set<String> removed = new TreeSet<>();
    private final Deque<MembershipEvent> events = new ArrayDeque<>();
    private List<DataPlaneEndpoint> endpoints = List.of();
    /** Whether the cluster has listed this node as a member yet (before, its status reads as Removed). */
    private boolean joined;

    private MembershipTracker(ActorContext<Command> context, String nodeId, Path statusFile,
                              Consumer<NodeView> publish, IntSupplier queries) {
        this.context = context;
        this.queries = queries;
        this.cluster = Cluster.get(context.getSystem());
        this.nodeId = nodeId;
        this.statusFile = statusFile;
        this.publish = publish;
    }

    /**
     * The tracker of a node with {@code endpoint}, writing {@code statusFile} and handing each view to
     * {@code publish} every {@code interval}; {@code queries} counts the queries the node runs now.
     */
    static Behavior<Command> create(DataPlaneEndpoint endpoint, Path statusFile, Duration interval,
                                    Consumer<NodeView> publish, IntSupplier queries) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> {
            MembershipTracker tracker = new MembershipTracker(context, endpoint.nodeId(), statusFile, publish,
                    queries);
            tracker.start(endpoint, timers, interval);
            return tracker.behavior();
        }));
    }

    private void start(DataPlaneEndpoint endpoint, TimerScheduler<Command> timers, Duration interval) {
        ActorRef<Receptionist.Command> receptionist = context.getSystem().receptionist();
        ActorRef<Void> published = context.spawn(Behaviors.ignore(), endpoint.actorName());
        receptionist.tell(Receptionist.register(DataPlaneEndpoint.KEY, published));
        receptionist.tell(Receptionist.subscribe(DataPlaneEndpoint.KEY,
                context.messageAdapter(Receptionist.Listing.class, EndpointsListed::new)));
        cluster.subscriptions().tell(Subscribe.create(
                context.messageAdapter(ClusterEvent.MemberEvent.class, MemberChanged::new),
                ClusterEvent.MemberEvent.class));
        cluster.subscriptions().tell(Subscribe.create(
                context.messageAdapter(ClusterEvent.ReachabilityEvent.class, ReachabilityChanged::new),
                ClusterEvent.ReachabilityEvent.class));
        timers.startTimerAtFixedRate(Tick.INSTANCE, interval);
    }

    private Behavior<Command> behavior() {
        return Behaviors.receive(Command.class)
                .onMessage(MemberChanged.class, m -> onMember(m.event()))
                .onMessage(ReachabilityChanged.class, m -> onReachability(m.event()))
                .onMessage(EndpointsListed.class, m -> onEndpoints(m.listing()))
                .onMessageEquals(Tick.INSTANCE, this::onTick)
                .build();
    }

    private Behavior<Command> onMember(ClusterEvent.MemberEvent event) {
        String address = address(event.member().address());
        kindOf(event).ifPresent(kind -> {
            if (kind == EventKind.REMOVED) {
                removed.add(address);
            } else {
                removed.remove(address);
            }
            record(address, kind);
        });
        return Behaviors.same();
    }

    private Behavior<Command> onReachability(ClusterEvent.ReachabilityEvent event) {
        EventKind kind = event instanceof ClusterEvent.UnreachableMember ? EventKind.UNREACHABLE : EventKind.REACHABLE;
        record(address(event.member().address()), kind);
        return Behaviors.same();
    }

    private Behavior<Command> onEndpoints(Receptionist.Listing listing) {
        List<DataPlaneEndpoint> found = new ArrayList<>();
        for (ActorRef<Void> ref : listing.getServiceInstances(DataPlaneEndpoint.KEY)) {
            DataPlaneEndpoint.of(ref).ifPresentOrElse(found::add,
                    () -> context.getLog().warn("[{}] a data-plane registration without an endpoint: {}", nodeId, ref));
        }
        found.sort(Comparator.comparing(DataPlaneEndpoint::nodeId));
        endpoints = List.copyOf(found);
        return Behaviors.same();
    }

    private Behavior<Command> onTick() {
        NodeView view = view();
        publish.accept(view);
        try {
            NodeStatusFile.write(statusFile, view);
        } catch (RuntimeException e) {
            // The next tick tries again; the node runs on without its file meanwhile.
            context.getLog().warn("[{}] {}", nodeId, e.getMessage());
        }
        return Behaviors.same();
    }

    private NodeView view() {
        ClusterEvent.CurrentClusterState state = cluster.state();
        Set<org.apache.pekko.cluster.Member> unreachable = state.getUnreachable();
        TreeMap<String, Member> members = new TreeMap<>();
        for (org.apache.pekko.cluster.Member member : state.getMembers()) {
            String address = address(member.address());
            members.put(address, new Member(address, statusOf(member.status()), !unreachable.contains(member)));
            joined |= address.equals(nodeId);
        }
        for (String address : removed) {
            members.putIfAbsent(address, new Member(address, MemberStatus.REMOVED, false));
        }
        return new NodeView(nodeId, ProcessHandle.current().pid(), selfState(), Instant.now(),
                List.copyOf(members.values()), endpoints, List.copyOf(events), queries.getAsInt());
    }

    private NodeState selfState() {
        MemberStatus self = statusOf(cluster.selfMember().status());
        return switch (self) {
            case JOINING, WEAKLY_UP -> NodeState.JOINING;
            case UP -> NodeState.UP;
            case LEAVING, EXITING, SHUTTING_DOWN -> NodeState.LEAVING;
            // Before the cluster lists it, a node's own status reads as Removed: it is still joining.
            case DOWN, REMOVED -> joined ? NodeState.REMOVED : NodeState.JOINING;
        };
    }

    private void record(String address, EventKind kind) {
        context.getLog().info("[{}] member {} {}", nodeId, address, kind);
        events.addLast(new MembershipEvent(Instant.now(), address, kind));
        while (events.size() > NodeView.MAX_EVENTS) {
            events.removeFirst();
        }
    }

    /** {@code host:port} of a cluster address. */
    static String address(Address address) {
        return address.getHost().orElse("?") + ":" + address.getPort().map(String::valueOf).orElse("?");
    }

    /** The event's kind; empty for the steps of a whole cluster's shutdown, which Troupe does not use. */
    private static Optional<EventKind> kindOf(ClusterEvent.MemberEvent event) {
        if (event instanceof ClusterEvent.MemberJoined) {
            return Optional.of(EventKind.JOINED);
        } else if (event instanceof ClusterEvent.MemberWeaklyUp) {
            return Optional.of(EventKind.WEAKLY_UP);
        } else if (event instanceof ClusterEvent.MemberUp) {
            return Optional.of(EventKind.UP);
        } else if (event instanceof ClusterEvent.MemberLeft) {
            return Optional.of(EventKind.LEFT);
        } else if (event instanceof ClusterEvent.MemberExited) {
            return Optional.of(EventKind.EXITED);
        } else if (event instanceof ClusterEvent.MemberDowned) {
            return Optional.of(EventKind.DOWNED);
        } else if (event instanceof ClusterEvent.MemberRemoved) {
            return Optional.of(EventKind.REMOVED);
        }
        return Optional.empty();
    }

    private static MemberStatus statusOf(org.apache.pekko.cluster.MemberStatus status) {
        if (status.equals(org.apache.pekko.cluster.MemberStatus.joining())) {
            return MemberStatus.JOINING;
        } else if (status.equals(org.apache.pekko.cluster.MemberStatus.weaklyUp())) {
            return MemberStatus.WEAKLY_UP;
        } else if (status.equals(org.apache.pekko.cluster.MemberStatus.up())) {
            return MemberStatus.UP;
        } else if (status.equals(org.apache.pekko.cluster.MemberStatus.leaving())) {
            return MemberStatus.LEAVING;
        } else if (status.equals(org.apache.pekko.cluster.MemberStatus.exiting())) {
            return MemberStatus.EXITING;
        } else if (status.equals(org.apache.pekko.cluster.MemberStatus.down())) {
            return MemberStatus.DOWN;
        } else if (status.equals(org.apache.pekko.cluster.MemberStatus.removed())) {
            return MemberStatus.REMOVED;
        }
        return MemberStatus.SHUTTING_DOWN;
    }
}
