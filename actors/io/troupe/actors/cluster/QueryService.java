package io.troupe.actors.cluster;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.actors.wire.WireMessage;
import io.troupe.operators.plan.Plan;
import io.troupe.transport.aeron.SharedDriverStreams;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A node's query service: takes queries that clients ({@link TroupeCluster}) submit, runs each on the
 * node's own {@link Troupe} and streams its rows back. Registered with the Receptionist under
 * {@link #KEY}, one per node. Until plans are cut into fragments (issue 10, point 1) the node that takes
 * a query runs all of it; it is the query's coordinator.
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
 * Rows never ride in an actor message: they go through the host's standalone media driver
 * ({@link SharedDriverStreams}), with Aeron's back-pressure: a client that reads slowly holds the query
 * back. A node without a shared driver ({@code troupe.cluster.media-driver-dir} empty) answers every
 * submit with Failed, saying so.
 *
 * <p>Concurrency: the actor owns the table of served queries (keyed by the client's relay, unique in the
 * cluster); each {@link ServedQuery} runs on a thread of its own and tells the actor {@code Ended} when it
 * is done. On stop (the node closes) every served query is cancelled.
 */
public final class QueryService {

    /** The Receptionist's key: one query service per node. */
    public static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "troupe-queries");

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
     * @param replyTo       the client's relay for this query
     */
    public record Submit(long queryId, Plan plan, int workers, long timeoutMillis, long memoryBytes,
                         ActorRef<QueryRelay.Event> replyTo) implements Command, WireMessage {

        /** The options the node runs the query with. */
        QueryOptions options() {
            return new QueryOptions(workers, timeoutMillis == 0 ? null : Duration.ofMillis(timeoutMillis), memoryBytes);
        }
    }

    /** Stop the query whose relay is {@code replyTo}; nothing when it has ended. */
    public record Cancel(ActorRef<QueryRelay.Event> replyTo, String reason) implements Command, WireMessage {
    }

    /** The relay of a served query stopped (or its member left the cluster). */
    private record ClientGone(ActorRef<QueryRelay.Event> replyTo) implements Command {
    }

    /** A served query's thread has finished. */
    private record Ended(ActorRef<QueryRelay.Event> replyTo) implements Command {
    }

    private final ActorContext<Command> context;
    private final Troupe troupe;
    private final String nodeId;
    /** Null when the node has no shared media driver. */
    private final SharedDriverStreams streams;
    private final Map<ActorRef<QueryRelay.Event>, ServedQuery> served = new HashMap<>();

    private QueryService(ActorContext<Command> context, Troupe troupe, String nodeId, SharedDriverStreams streams) {
        this.context = context;
        this.troupe = troupe;
        this.nodeId = nodeId;
        this.streams = streams;
    }

    /** The service of node {@code nodeId}, registered with the Receptionist as it starts. */
    static Behavior<Command> create(Troupe troupe, String nodeId, SharedDriverStreams streams) {
        return Behaviors.setup(context -> {
            context.getSystem().receptionist().tell(Receptionist.register(KEY, context.getSelf()));
            return new QueryService(context, troupe, nodeId, streams).behavior();
        });
    }

    private Behavior<Command> behavior() {
        return Behaviors.receive(Command.class)
                .onMessage(Submit.class, this::onSubmit)
                .onMessage(Cancel.class, m -> cancel(m.replyTo(), m.reason()))
                .onMessage(ClientGone.class, m -> cancel(m.replyTo(), "the client went away"))
                .onMessage(Ended.class, this::onEnded)
                .onSignal(PostStop.class, signal -> onStop())
                .build();
    }

    private Behavior<Command> onSubmit(Submit submit) {
        ActorRef<QueryRelay.Event> relay = submit.replyTo();
        if (streams == null) {
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
        ServedQuery query = new ServedQuery(submit, troupe, streams, nodeId, () -> self.tell(new Ended(relay)));
        served.put(relay, query);
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
        context.unwatch(ended.replyTo());
        return Behaviors.same();
    }

    private Behavior<Command> onStop() {
        for (ServedQuery query : served.values()) {
            query.cancel("node " + nodeId + " is stopping");
        }
        return Behaviors.same();
    }
}
