package io.troupe.actors.cluster;

import java.time.Instant;
import java.util.List;

/**
 * What one node knows of its cluster at one moment: its own state, every member it has seen (the
 * removed ones too, so that a departure stays visible), the data-plane endpoints it has discovered,
 * and the last membership events. Written to the node's status file every second
 * ({@link NodeStatusFile}) and read back by {@code bin/troupe cluster status}. Immutable.
 *
 * @param nodeId    the node's cluster address, {@code host:port}
 * @param pid       its process id
 * @param state     where it is in its life cycle
 * @param writtenAt when this view was taken
 * @param members   the members it has seen, in address order
 * @param endpoints the endpoints it discovered through the Receptionist, in node-id order
 * @param events    its last membership events, oldest first (at most {@link #MAX_EVENTS})
 * @param queries   the queries its Troupe runs now: its clients' and its parts of spread queries
 */
public record NodeView(String nodeId, long pid, NodeState state, Instant writtenAt, List<Member> members,
                       List<DataPlaneEndpoint> endpoints, List<MembershipEvent> events, int queries) {

    /** Events kept: enough for a small cluster's history since its start, few enough for a small file. */
    public static final int MAX_EVENTS = 100;

    /** A node's life cycle; see the package documentation. */
    public enum NodeState {
        /** Started, not yet Up: joining through its seed nodes (or not yet accepted by the leader). */
        JOINING,
        /** A member the leader has moved to Up: it counts in the cluster. */
        UP,
        /** Leaving: told to (closed, SIGTERM), on its way out of the cluster. */
        LEAVING,
        /** Removed from the cluster by the others (downed by the split-brain resolver): it stops. */
        REMOVED,
        /** Its actor system has terminated and its Troupe closed: the last view it writes. */
        STOPPED
    }

    /**
     * A member's status as Pekko's cluster names it ({@link #SHUTTING_DOWN}: either step of a whole
     * cluster's shutdown), and {@link #REMOVED} for one that is gone.
     */
    public enum MemberStatus {
        JOINING, WEAKLY_UP, UP, LEAVING, EXITING, DOWN, SHUTTING_DOWN, REMOVED
    }

    /** What happened to a member, as its cluster event names it. */
    public enum EventKind {
        JOINED, WEAKLY_UP, UP, LEFT, EXITED, DOWNED, REMOVED, UNREACHABLE, REACHABLE
    }

    /**
     * A member as this node sees it.
     *
     * @param address   {@code host:port}
     * @param status    its membership status
     * @param reachable whether this node's failure detector hears it (false for a removed member)
     */
    public record Member(String address, MemberStatus status, boolean reachable) {
    }

    /**
     * One membership event, when this node saw it.
     *
     * @param at     when
     * @param member the member's address, {@code host:port}
     * @param kind   what happened
     */
    public record MembershipEvent(Instant at, String member, EventKind kind) {
    }

    public NodeView {
        members = List.copyOf(members);
        endpoints = List.copyOf(endpoints);
        events = List.copyOf(events);
    }

    /** This view in state {@code newState}, taken now. */
    public NodeView withState(NodeState newState) {
        return new NodeView(nodeId, pid, newState, Instant.now(), members, endpoints, events, queries);
    }

    /** The members in {@code status} that this node hears. */
    public long reachableIn(MemberStatus status) {
        return members.stream().filter(m -> m.status() == status && m.reachable()).count();
    }
}
