package io.troupe.actors.coordinator;

import com.typesafe.config.ConfigFactory;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TroupeDispatchers} in a host's actor system: an actor on one runs on Troupe's own named
 * threads; an Error that escapes it ends its thread there and never reaches the host's fatal-error
 * handler, where the same Error on a thread pool the host configured terminates the host (that handler exits
 * the JVM under {@code pekko.jvm-exit-on-fatal-error = on}: off here, so that the test sees it); a
 * dispatcher id cannot be taken twice.
 */
class TroupeDispatchersTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Replies with its thread, then throws {@code toThrow} unless it is null. */
    record Run(Error toThrow, ActorRef<Thread> replyTo) {
    }

    private ActorSystem<Void> host;

    @BeforeEach
    void startHost() {
        host = ActorSystem.create(Behaviors.empty(), "host", ConfigFactory.parseString("""
                pekko.loglevel = OFF
                pekko.jvm-exit-on-fatal-error = off
                pekko.jvm-shutdown-hooks = off
                pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
                host-pool { type = Dispatcher, executor = thread-pool-executor, thread-pool-executor.fixed-pool-size = 2 }
                """).withFallback(ConfigFactory.load()));
    }

    @AfterEach
    void terminateHost() throws Exception {
        host.terminate();
        host.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static Behavior<Run> runner() {
        return Behaviors.receive(Run.class)
                .onMessage(Run.class, m -> {
                    m.replyTo().tell(Thread.currentThread());
                    if (m.toThrow() != null) {
                        throw m.toThrow();
                    }
                    return Behaviors.same();
                })
                .build();
    }

    /** The thread {@code actor} ran {@code toThrow} on (null: nothing thrown). */
    private Thread run(ActorRef<Run> actor, Error toThrow) throws Exception {
        return AskPattern.<Run, Thread>ask(actor, replyTo -> new Run(toThrow, replyTo), WAIT, host.scheduler())
                .toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    @Timeout(60)
    void anErrorOnTroupesThreadsNeverReachesTheHostsFatalErrorHandler() throws Exception {
        TroupeDispatchers dispatchers = TroupeDispatchers.register(host, "troupe-test-a", 2);
        ActorRef<Run> worker = host.systemActorOf(runner(), "worker", dispatchers.workers());
        assertTrue(run(worker, null).getName().startsWith("troupe-test-a-worker-dispatcher-"));
        Thread ran = run(worker, new OutOfMemoryError("test: a worker's OOM"));
        ran.join(WAIT.toMillis());
        // The Error escaped the actor and ended its thread, whose handler is Troupe's: had it been the
        // host's, the host would have begun to terminate, on that thread, before it ended.
        assertFalse(ran.isAlive(), "the Error ended its thread");
        assertTrue(CoordinatedShutdown.get(Adapter.toClassic(host)).getShutdownReason().isEmpty(),
                "the host began to terminate");
        assertFalse(host.getWhenTerminated().toCompletableFuture().isDone());
        ActorRef<Run> next = host.systemActorOf(runner(), "next", dispatchers.workers());
        assertTrue(run(next, null).getName().startsWith("troupe-test-a-worker-dispatcher-"), "Troupe's dispatcher runs on");
    }

    @Test
    @Timeout(60)
    void theSameErrorOnAPoolOfTheHostsTerminatesTheHost() throws Exception {
        // A thread pool as Troupe's were before: configured in the host, Pekko's threads. (Not the host's
        // fork-join default dispatcher: there a fatal Error also wedges the actor, so the host could
        // not finish terminating.)
        ActorRef<Run> onHost = host.systemActorOf(runner(), "on-host", DispatcherSelector.fromConfig("host-pool"));
        assertTrue(run(onHost, null).getName().startsWith("host-host-pool-"));
        run(onHost, new OutOfMemoryError("test: an OOM on the host's thread"));
        host.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertTrue(CoordinatedShutdown.get(Adapter.toClassic(host)).getShutdownReason().isPresent());
    }

    @Test
    @Timeout(60)
    void anIdCannotBeTakenTwice() {
        TroupeDispatchers.register(host, "troupe-test-b", 1);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TroupeDispatchers.register(host, "troupe-test-b", 1));
        assertEquals("actor system already has a dispatcher with id [troupe-test-b-worker-dispatcher]", e.getMessage());
    }
}
