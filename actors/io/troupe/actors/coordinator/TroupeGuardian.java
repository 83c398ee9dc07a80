package io.troupe.actors.coordinator;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.pattern.StatusReply;

import java.util.concurrent.CompletableFuture;

/**
 * The one actor a Troupe spawns in its actor system (Troupe's own or a host's, as a system actor:
 * {@code /system/troupe-N}); every other actor of the Troupe is below it: a {@link QueryCoordinator}
 * per query, and the coordinators' workers and Gathers. Stopping it stops them all, children first
 * (Pekko's order), and then completes the future it was made with, with the reason it stopped:
 * {@link Stop}'s, or its actor system terminating (a host that terminates before closing Troupe). So
 * the runtime learns when no actor of the Troupe runs any more, whoever stopped them.
 *
 * <p>It never fails: a coordinator it cannot spawn is answered with the error. Its one field, the
 * reason, is written and read on its own turns.
 */
final class TroupeGuardian extends AbstractBehavior<TroupeGuardian.Command> {

    /** The guardian's messages. */
    sealed interface Command permits SpawnCoordinator, Stop {
    }

    /** Spawn a query's coordinator, named {@code name}, on the coordinators' dispatcher; reply with it. */
    record SpawnCoordinator(Behavior<QueryCoordinator.Command> coordinator, String name,
                            ActorRef<StatusReply<ActorRef<QueryCoordinator.Command>>> replyTo) implements Command {
    }

    /** Stop every actor of the Troupe, then the guardian, for {@code reason}. */
    record Stop(String reason) implements Command {
    }

    private final DispatcherSelector coordinators;
    private final CompletableFuture<String> stopped;
    /** Why the guardian stops: unless a {@link Stop} says otherwise, its actor system is terminating. */
    private String stopReason;

    private TroupeGuardian(ActorContext<Command> context, DispatcherSelector coordinators,
                           CompletableFuture<String> stopped) {
        super(context);
        this.coordinators = coordinators;
        this.stopped = stopped;
        this.stopReason = "actor system [" + context.getSystem().name() + "] terminated";
    }

    /**
     * @param coordinators the dispatcher of the coordinators it spawns
     * @param stopped      completed with the reason once the guardian has stopped, after all its children
     */
    static Behavior<Command> create(DispatcherSelector coordinators, CompletableFuture<String> stopped) {
        return Behaviors.setup(context -> new TroupeGuardian(context, coordinators, stopped));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(SpawnCoordinator.class, this::onSpawnCoordinator)
                .onMessage(Stop.class, this::onStop)
                .onSignal(PostStop.class, s -> onPostStop())
                .build();
    }

    private Behavior<Command> onSpawnCoordinator(SpawnCoordinator m) {
        try {
            m.replyTo().tell(StatusReply.success(getContext().spawn(m.coordinator(), m.name(), coordinators)));
        } catch (RuntimeException e) {
            m.replyTo().tell(StatusReply.error(e));
        }
        return this;
    }

    private Behavior<Command> onStop(Stop m) {
        stopReason = m.reason();
        return Behaviors.stopped();
    }

    private Behavior<Command> onPostStop() {
        stopped.complete(stopReason);
        return this;
    }
}
