package io.troupe.actors.wire;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.actors.worker.PipelineWorker;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanShapes;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;
import scala.util.Try;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WireSerializer} through Pekko's SerializationExtension, in actor systems started with the
 * settings a node uses (reference.conf's: Java serialization off, WireMessage bound to troupe-wire):
 * the workers' messages round trip through it, an actor ref in a payload resolves to the actor, an
 * unregistered WireMessage is refused with its name, a Serializable that is no WireMessage finds no
 * serializer that will take it, and a payload of another cluster (another actor system's name) is
 * refused naming both clusters. Both systems are terminated after the tests, also when one fails.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class WireSerializerTest {

    private static ActorSystem<Void> alpha;
    private static ActorSystem<Void> beta;

    /** A WireMessage that nobody registered. */
    record Unregistered(String text) implements WireMessage {
    }

    /** A Serializable message that is no WireMessage. */
    record JavaOnly(String text) implements Serializable {
    }

    @BeforeAll
    static void startActorSystems() {
        // Initialise SLF4J before Pekko logs, or SLF4J prints a "replay" warning.
        LoggerFactory.getLogger(WireSerializerTest.class);
        Config node = ConfigFactory.parseString("pekko.loglevel = WARNING\npekko.jvm-shutdown-hooks = off")
                .withFallback(ConfigFactory.load());
        alpha = ActorSystem.create(Behaviors.empty(), "wire-alpha", node);
        beta = ActorSystem.create(Behaviors.empty(), "wire-beta", node);
    }

    @AfterAll
    static void terminateActorSystems() throws Exception {
        for (ActorSystem<Void> system : new ActorSystem[] {alpha, beta}) {
            if (system != null) {
                system.terminate();
                system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static Serialization serialization(ActorSystem<?> system) {
        return SerializationExtension.get(Adapter.toClassic(system));
    }

    /** Serializes with whatever serializer Pekko binds to the message, and back. */
    private static Object throughPekko(ActorSystem<?> from, ActorSystem<?> to, Object message) {
        Serializer serializer = serialization(from).findSerializerFor(message);
        byte[] bytes = serialization(from).serialize(message).get();
        String manifest = Serializers.manifestFor(serializer, message);
        return serialization(to).deserialize(bytes, serializer.identifier(), manifest).get();
    }

    @Test
    void shouldRunWithJavaSerializationOffAndWireMessagesBoundToTroupesSerializer() {
        Config config = alpha.settings().config();
        assertFalse(config.getBoolean("pekko.actor.allow-java-serialization"));
        assertEquals("troupe-wire", config.getString("pekko.actor.serialization-bindings.\""
                + WireMessage.class.getName() + "\""));
        for (Object m : List.of(PipelineWorker.Start.INSTANCE, new PipelineWorker.WorkerDone(1, 2))) {
            Serializer serializer = serialization(alpha).findSerializerFor(m);
            assertInstanceOf(WireSerializer.class, serializer, m.toString());
            assertEquals(WireSerializer.IDENTIFIER, serializer.identifier());
        }
    }

    @Test
    void shouldRoundTripTheWorkersMessagesThroughPekko() {
        List<Object> messages = List.of(PipelineWorker.Start.INSTANCE, PipelineWorker.Cancel.INSTANCE,
                new PipelineWorker.WorkerBound(4), new PipelineWorker.WorkerDone(2, 99),
                new PipelineWorker.FinalizeDone(1, 3));
        for (Object m : messages) {
            assertEquals(m, throughPekko(alpha, alpha, m));
        }
        PipelineWorker.WorkerFailed failed = (PipelineWorker.WorkerFailed) throughPekko(alpha, alpha,
                new PipelineWorker.WorkerFailed(0, new QueryFailedException("query 1 failed: overflow")));
        assertEquals("query 1 failed: overflow", failed.cause().getMessage());
        assertEquals(QueryFailedException.class.getName(), ((RemoteFailure) failed.cause()).originClass());
    }

    @Test
    void shouldCarryAPlanThroughTheSerializerPekkoMade() {
        Plan shared = Plan.series("x", 1, 9).share("s");
        Plan plan = shared.as("a").join(shared.as("b"), JoinType.LEFT, col("a.x").eq(col("b.x")))
                .filter(col("a.x").gt(lit(3L))).limit(5);
        Serializer serializer = serialization(alpha).findSerializerFor(PipelineWorker.Start.INSTANCE);
        Plan decoded = (Plan) serializer.fromBinary(serializer.toBinary(plan));
        PlanShapes.assertSamePlan(plan, decoded);
    }

    @Test
    void shouldResolveAnActorRefSentInAPayloadToTheActor() throws Exception {
        CompletableFuture<PipelineWorker.Report> received = new CompletableFuture<>();
        ActorRef<PipelineWorker.Report> coordinator = alpha.systemActorOf(Behaviors.receiveMessage(m -> {
            received.complete(m);
            return Behaviors.same();
        }), "coordinator", Props.empty());
        @SuppressWarnings("unchecked")
        ActorRef<PipelineWorker.Report> decoded = (ActorRef<PipelineWorker.Report>) serialization(alpha)
                .findSerializerFor(PipelineWorker.Start.INSTANCE).fromBinary(
                        serialization(alpha).findSerializerFor(PipelineWorker.Start.INSTANCE).toBinary(coordinator));
        assertEquals(coordinator, decoded);
        decoded.tell(new PipelineWorker.WorkerDone(7, 8));
        assertEquals(new PipelineWorker.WorkerDone(7, 8), received.get(30, TimeUnit.SECONDS));
        // A codec made without an actor system has nothing to resolve a ref with: it says so.
        WireException e = assertThrows(WireException.class, () -> new WireCodec("wire-alpha").encode(coordinator));
        assertTrue(e.getMessage().contains("only through a codec made with an actor system"), e.getMessage());
    }

    @Test
    void shouldRefuseAnUnregisteredWireMessageNamingIt() {
        Try<byte[]> result = serialization(alpha).serialize(new Unregistered("x"));
        assertTrue(result.isFailure());
        WireException e = assertInstanceOf(WireException.class, result.failed().get());
        assertTrue(e.getMessage().contains("class " + Unregistered.class.getName() + " is not registered"),
                e.getMessage());
    }

    @Test
    void shouldRefuseJavaSerializationOfAnyOtherMessage() {
        Try<byte[]> result = serialization(alpha).serialize(new JavaOnly("x"));
        assertTrue(result.isFailure(), "a Serializable message was serialized with Java serialization");
        Throwable e = result.failed().get();
        assertNotNull(e.getMessage());
        assertTrue(e.getMessage().contains("allow-java-serialization"), e.getMessage());
    }

    @Test
    void shouldRefuseAPayloadOfAnotherClusterNamingBoth() {
        WireMessage message = new PipelineWorker.WorkerBound(1);
        assertSame(PipelineWorker.WorkerBound.class, throughPekko(beta, beta, message).getClass());
        byte[] fromBeta = serialization(beta).serialize(message).get();
        Try<Object> result = serialization(alpha).deserialize(fromBeta, WireSerializer.IDENTIFIER, "");
        assertTrue(result.isFailure());
        WireException e = assertInstanceOf(WireException.class, result.failed().get());
        assertEquals("refused a payload from cluster 'wire-beta' (wire protocol " + WireRegistry.PROTOCOL_VERSION
                + "): this node is in cluster 'wire-alpha' (wire protocol " + WireRegistry.PROTOCOL_VERSION + ")",
                e.getMessage());
    }
}
