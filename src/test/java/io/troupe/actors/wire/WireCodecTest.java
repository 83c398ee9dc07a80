package io.troupe.actors.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.serializers.FieldSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.troupe.actors.worker.PipelineWorker;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Literal;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wire codec without an actor system: values and control messages round trip equal; an
 * unregistered class is refused with its name; a payload of another cluster, protocol version or
 * build, a foreign, cut or padded payload is refused with both sides named; no registration uses Java
 * serialization or Kryo's reflective field serializer.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a decoder that spins on a bad payload fails instead of hanging
class WireCodecTest {

    private static final WireCodec CODEC = new WireCodec("alpha");

    /** A message class that nobody registered. */
    record Unregistered(int value) implements WireMessage {
    }

    private static Object roundTrip(Object value) {
        return CODEC.decode(CODEC.encode(value));
    }

    @Test
    void shouldRoundTripEveryLiteralTypeAndNull() {
        List<Object> values = new ArrayList<>(List.of(7, -8L, 2.5, true, "x'y", LocalDate.of(2024, 2, 29),
                new BigDecimal("-123.4500")));
        for (Object v : values) {
            assertEquals(v, roundTrip(v));
            assertEquals(v.getClass(), roundTrip(v).getClass());
        }
        assertEquals(4, ((BigDecimal) roundTrip(new BigDecimal("-123.4500"))).scale());
        for (TypeId id : TypeId.values()) {
            DataType type = id == TypeId.DECIMAL ? DataType.decimal(18, 4) : new DataType(id, 0, 0);
            assertEquals(type, roundTrip(type));
            assertEquals(Expr.nullOf(type), roundTrip(Expr.nullOf(type)));
        }
        assertEquals(new Literal(null, null), roundTrip(new Literal(null, null)));
        assertEquals(List.of(), roundTrip(List.of()));
        assertEquals(List.of(lit(1), lit("a"), lit(2L)), roundTrip(List.of(lit(1), lit("a"), lit(2L))));
    }

    @Test
    void shouldRoundTripTheWorkersControlMessages() {
        List<Object> messages = List.of(PipelineWorker.Start.INSTANCE, PipelineWorker.Cancel.INSTANCE,
                new PipelineWorker.WorkerBound(3), new PipelineWorker.WorkerDone(2, 1L << 40),
                new PipelineWorker.FinalizeDone(0, 17));
        for (Object m : messages) {
            assertEquals(m, roundTrip(m));
        }
        assertTrue(Arrays.stream(PipelineWorker.Report.class.getPermittedSubclasses())
                .allMatch(WireMessage.class::isAssignableFrom), "every worker report is a WireMessage");
    }

    @Test
    void shouldCarryAFailureAsARemoteFailureWithItsClassMessageStackAndCauses() {
        ArithmeticException root = new ArithmeticException("/ by zero");
        QueryFailedException failure = new QueryFailedException("query 4 failed in probe worker 1: division by zero",
                root);
        PipelineWorker.WorkerFailed decoded =
                (PipelineWorker.WorkerFailed) roundTrip(new PipelineWorker.WorkerFailed(1, failure));
        assertEquals(1, decoded.worker());
        RemoteFailure remote = assertInstanceOf(RemoteFailure.class, decoded.cause());
        assertEquals(failure.getMessage(), remote.getMessage());
        assertEquals(QueryFailedException.class.getName(), remote.originClass());
        StackTraceElement sent = failure.getStackTrace()[0];
        StackTraceElement received = remote.getStackTrace()[0];
        assertEquals(List.of(sent.getClassName(), sent.getMethodName(), sent.getFileName(), sent.getLineNumber()),
                List.of(received.getClassName(), received.getMethodName(), received.getFileName(),
                        received.getLineNumber()));
        assertEquals(failure.getStackTrace().length, remote.getStackTrace().length);
        assertTrue(remote.toString().startsWith(QueryFailedException.class.getName() + ": query 4 failed"),
                remote.toString());
        RemoteFailure cause = assertInstanceOf(RemoteFailure.class, remote.getCause());
        assertEquals(ArithmeticException.class.getName(), cause.originClass());
        assertEquals("/ by zero", cause.getMessage());
        // Sent on from a second node, it still names the first node's class.
        RemoteFailure again = (RemoteFailure) roundTrip(remote);
        assertEquals(QueryFailedException.class.getName(), again.originClass());
        assertEquals(ArithmeticException.class.getName(), ((RemoteFailure) again.getCause()).originClass());
    }

    @Test
    void shouldCutAStackOverflowsFramesAndAnEndlessCauseChain() {
        StackOverflowError deep = deepError(300);
        assertTrue(deep.getStackTrace().length > FailureSerializer.MAX_FRAMES);
        RemoteFailure decoded = (RemoteFailure) roundTrip(deep);
        assertEquals(FailureSerializer.MAX_FRAMES, decoded.getStackTrace().length);
        RuntimeException chain = new RuntimeException("0");
        for (int i = 1; i < 20; i++) {
            chain = new RuntimeException(Integer.toString(i), chain);
        }
        int depth = 0;
        for (Throwable t = (Throwable) roundTrip(chain); t != null; t = t.getCause()) {
            depth++;
        }
        assertEquals(FailureSerializer.MAX_CAUSES, depth);
    }

    private static StackOverflowError deepError(int frames) {
        return frames == 0 ? new StackOverflowError("deep") : deepError(frames - 1);
    }

    @Test
    void shouldRefuseAnUnregisteredClassNamingIt() {
        WireException message = assertThrows(WireException.class, () -> CODEC.encode(new Unregistered(1)));
        assertTrue(message.getMessage().contains("class " + Unregistered.class.getName() + " is not registered"),
                message.getMessage());
        assertTrue(message.getMessage().contains(WireRegistry.class.getName()), message.getMessage());
        // Inside a registered record, deep in a plan: still named, with where it was found.
        Plan plan = Plan.series("x", 1, 2).filter(col("x").eq(new Literal(new StringBuilder("1"), DataType.VARCHAR)));
        WireException held = assertThrows(WireException.class, () -> CODEC.encode(plan));
        assertTrue(held.getMessage().contains("class java.lang.StringBuilder is not registered"), held.getMessage());
        assertTrue(held.getMessage().contains("value (java.lang.Object)"), held.getMessage());
        WireException list = assertThrows(WireException.class, () -> CODEC.encode(new ArrayList<>(List.of(1))));
        assertTrue(list.getMessage().contains("class java.util.ArrayList is not registered"), list.getMessage());
    }

    @Test
    void shouldRefuseAPayloadOfAnotherClusterNamingBoth() {
        byte[] fromBeta = new WireCodec("beta").encode(new PipelineWorker.WorkerBound(1));
        WireException e = assertThrows(WireException.class, () -> CODEC.decode(fromBeta));
        assertEquals("refused a payload from cluster 'beta' (wire protocol " + WireRegistry.PROTOCOL_VERSION
                + "): this node is in cluster 'alpha' (wire protocol " + WireRegistry.PROTOCOL_VERSION + ")",
                e.getMessage());
    }

    @Test
    void shouldRefuseAPayloadOfAnotherProtocolVersionNamingBoth() {
        byte[] payload = CODEC.encode(new PipelineWorker.WorkerBound(1));
        // The version is the var-int after the four bytes of magic: one byte while it is below 128.
        assertEquals(WireRegistry.PROTOCOL_VERSION, payload[4]);
        payload[4] = (byte) (WireRegistry.PROTOCOL_VERSION + 1);
        WireException e = assertThrows(WireException.class, () -> CODEC.decode(payload));
        assertEquals("refused a payload from cluster 'alpha' (wire protocol " + (WireRegistry.PROTOCOL_VERSION + 1)
                + "): this node is in cluster 'alpha' (wire protocol " + WireRegistry.PROTOCOL_VERSION + ")",
                e.getMessage());
    }

    @Test
    void shouldRefuseAPayloadOfAnotherBuildsRegistryNamingBothFingerprints() {
        byte[] payload = CODEC.encode(new PipelineWorker.WorkerBound(1));
        // magic (4), version (1), cluster "alpha" (Kryo's ASCII string: 5 bytes), then the fingerprint.
        ByteBuffer header = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN); // as Kryo writes ints
        assertEquals(WireRegistry.fingerprint(), header.getInt(10));
        header.putInt(10, WireRegistry.fingerprint() ^ 0x5a5a);
        WireException e = assertThrows(WireException.class, () -> CODEC.decode(payload));
        assertTrue(e.getMessage().contains("registry 0x" + Integer.toHexString(WireRegistry.fingerprint() ^ 0x5a5a)
                + "): this node has registry 0x" + Integer.toHexString(WireRegistry.fingerprint())), e.getMessage());
        assertTrue(e.getMessage().contains("different builds"), e.getMessage());
    }

    @Test
    void shouldRefuseForeignCutAndPaddedPayloads() {
        WireException foreign = assertThrows(WireException.class,
                () -> CODEC.decode("{\"json\": true}".getBytes(StandardCharsets.UTF_8)));
        assertTrue(foreign.getMessage().equals("not a Troupe wire payload: it starts with 0x7b226a73 ('{\"js'), "
                        + "not 0x54525057 ('TRPW') (14 bytes)"),
                foreign.getMessage());
        byte[] payload = CODEC.encode(new PipelineWorker.WorkerDone(1, 123_456_789L));
        for (int cut = 0; cut < payload.length; cut++) {
            byte[] part = Arrays.copyOf(payload, cut);
            WireException e = assertThrows(WireException.class, () -> CODEC.decode(part), "cut at " + cut);
            assertNotNull(e.getMessage());
        }
        byte[] padded = Arrays.copyOf(payload, payload.length + 1);
        WireException extra = assertThrows(WireException.class, () -> CODEC.decode(padded));
        assertTrue(extra.getMessage().contains("1 bytes left over after the "
                        + PipelineWorker.WorkerDone.class.getName()),
                extra.getMessage());
    }

    @Test
    void shouldUseNeitherJavaSerializationNorReflectiveFieldsInAnyRegistration() {
        Kryo kryo = WireRegistry.newKryo(null);
        int registered = 0;
        for (int id = 0; id < 1000; id++) {
            Registration r = kryo.getRegistration(id);
            if (r == null) {
                continue;
            }
            registered++;
            assertFalse(r.getSerializer() instanceof JavaSerializer, r.toString());
            assertFalse(r.getSerializer() instanceof FieldSerializer, r.toString());
        }
        assertTrue(registered > 30, "registrations: " + registered);
    }

    @Test
    void shouldEncodeAndDecodeFromManyThreadsAtOnce() throws Exception {
        Plan plan = Plan.series("x", 1, 100).filter(col("x").gt(lit(50L))).aggregate(List.of(), Expr.sum(col("x")));
        byte[] expected = CODEC.encode(plan);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        if (!Arrays.equals(expected, CODEC.encode(CODEC.decode(expected)))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> r : results) {
                assertTrue(r.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
        assertArrayEquals(expected, CODEC.encode(CODEC.decode(expected)));
    }
}
