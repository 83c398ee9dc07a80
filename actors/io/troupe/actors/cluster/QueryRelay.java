package io.troupe.actors.cluster;

import io.troupe.actors.wire.WireMessage;
import io.troupe.operators.profile.SpreadProfile;
import io.troupe.operators.types.Field;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.util.List;
import java.util.function.Consumer;

/**
 * A client's actor for one query it submitted: what the node's {@link QueryService} answers goes here,
 * and on to the {@link ClusterQueryStream} that reads the query (a queue its reader's thread takes
 * from). It watches the node's service, so that a node that stops or is removed from the cluster while
 * the query runs ends it with {@link NodeLost} instead of a wait for a message that will never come.
 *
 * <p>Protocol: at most one Started, then Done or Failed, from the node; NodeLost from Pekko's death
 * watch; Stop from the stream when its reader closes it. It stops after any of the last four, which the
 * node sees (it watches this actor) and so stops a query still running.
 */
public final class QueryRelay {

    /** What the relay receives. */
    public sealed interface Event {
    }

    /**
     * The query runs on the node; its rows come on the given stream of the host's media driver.
     *
     * @param queryId         the client's id
     * @param nodeId          the node that runs it
     * @param driverDirectory the media driver's directory, shared by the node and the client (one host)
     * @param streamId        the stream
     * @param sessionId       the session: unique to this query on that driver
     * @param fields          the columns of every batch
     * @param nodes           how many nodes ran it: 1 for the node alone, more for a query spread over its host
     */
    public record Started(long queryId, String nodeId, String driverDirectory, int streamId, int sessionId,
                   List<Field> fields, int nodes) implements Event, WireMessage {
        public Started {
            fields = List.copyOf(fields);
        }
    }

    /**
     * The query ended with every batch sent: {@code rows} rows in all; {@code profile}, for EXPLAIN
     * ANALYZE, every node's part merged (null otherwise).
     */
    public record Done(long queryId, long rows, SpreadProfile profile) implements Event, WireMessage {
    }

    /** The query failed on node {@code nodeId}; {@code cause} is its exception (a RemoteFailure once here). */
    public record Failed(long queryId, String nodeId, Throwable cause) implements Event, WireMessage {
    }

    /** The node's query service stopped, or its node left the cluster. */
    record NodeLost() implements Event {
    }

    /** The reader closed the stream: stop. */
    enum Stop implements Event { INSTANCE }

    private QueryRelay() {
    }

    /** A relay handing every event to {@code events}, watching {@code service}. */
    static Behavior<Event> create(ActorRef<QueryService.Command> service, Consumer<Event> events) {
        return Behaviors.setup(context -> {
            context.watchWith(service, new NodeLost());
            return Behaviors.receive(Event.class)
                    .onMessage(Started.class, m -> {
                        events.accept(m);
                        return Behaviors.same();
                    })
                    .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
                    .onMessage(Event.class, m -> {
                        events.accept(m);
                        return Behaviors.stopped();
                    })
                    .build();
        });
    }
}
