package io.troupe.actors.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ByteArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.BigDecimalSerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.EnumSerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.UUIDSerializer;
import com.esotericsoftware.kryo.serializers.RecordSerializer;
import com.esotericsoftware.kryo.serializers.TimeSerializers.InstantSerializer;
import com.esotericsoftware.kryo.serializers.TimeSerializers.LocalDateSerializer;
import com.esotericsoftware.kryo.serializers.TimeSerializers.LocalDateTimeSerializer;
import com.esotericsoftware.kryo.serializers.TimeSerializers.LocalTimeSerializer;
import io.troupe.actors.cluster.DataPlaneEndpoint;
import io.troupe.actors.cluster.QueryRelay;
import io.troupe.actors.cluster.QueryService;
import io.troupe.actors.worker.PipelineWorker;
import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.expr.Function;
import io.troupe.operators.plan.AggregateCall;
import io.troupe.operators.plan.Alias;
import io.troupe.operators.plan.Call;
import io.troupe.operators.plan.ColumnRef;
import io.troupe.operators.plan.FunctionCall;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Literal;
import io.troupe.operators.plan.Parameter;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanSerializer;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.plan.UserCall;
import io.troupe.operators.plan.WindowCall;
import io.troupe.operators.profile.Counts;
import io.troupe.operators.profile.NodeProfile;
import io.troupe.operators.profile.PartProfile;
import io.troupe.operators.profile.SpreadProfile;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.TypeId;
import io.troupe.operators.window.FrameBound;
import io.troupe.operators.window.WindowFrame;
import io.troupe.operators.window.WindowFunction;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

/**
 * Every class that may cross the wire, each with its explicit, stable Kryo id and its serializer:
 * the one list that every node must agree on. Nothing else registers classes, and Kryo refuses any
 * class not listed here, naming it. No registration uses Java serialization or Kryo's reflective
 * field serializer: records go through their canonical constructor ({@link RecordSerializer}),
 * enums by ordinal, and the rest through serializers written for them.
 *
 * <p>Ids 0-8 are Kryo's own (int, String, float, boolean, byte, char, short, long, double, and the
 * wrappers of the primitives); Troupe's start at 16, in ranges by kind. An id is never reused or
 * moved. A <i>family</i> registration serves its class and every subclass: {@link Plan} (its nodes
 * are private to their package, which tags them itself: {@link PlanSerializer}), typed
 * {@link ActorRef} and {@link Throwable}.
 *
 * <p>{@link #fingerprint()} is a CRC32 of the list (ids, class names, record components, enum
 * constants, the plan tags), sent in every payload's header beside {@link #PROTOCOL_VERSION}: two
 * builds that would read each other's bytes differently refuse each other's payloads, even where
 * someone forgot to raise the version. Immutable; threadsafe.
 */
public final class WireRegistry {

    /**
     * The wire protocol's version: raise it when a serializer writes differently (a field added to a
     * plan node's layout, a new header field). A new registration changes the fingerprint by itself.
     */
    public static final int PROTOCOL_VERSION = 1;

    /** Troupe's first id: Kryo registers 0-8 itself, and its later versions may take a few more. */
    private static final int FIRST_ID = 16;

    /** How a registration's serializer is made, given the codec's actor-ref resolver (null: no actor system). */
    private interface SerializerFactory {
        Serializer<?> make(ActorRefResolver refs);
    }

    /** One registration; {@code family}: it also serves every subclass of {@code type}. */
    private record Entry(int id, Class<?> type, boolean family, SerializerFactory serializer) {
    }

    private static final List<Entry> ENTRIES = unique(List.of(
            // 16-31: values of literals and messages.
            entry(16, BigDecimal.class, refs -> new BigDecimalSerializer()),
            entry(17, LocalDate.class, refs -> new LocalDateSerializer()),
            entry(18, List.of().getClass(), refs -> new ImmutableListSerializer()), // none, or 3 and more
            entry(19, List.of(1).getClass(), refs -> new ImmutableListSerializer()), // 1 or 2 elements
            entry(20, LocalDateTime.class, refs -> new LocalDateTimeSerializer()),
            entry(21, Instant.class, refs -> new InstantSerializer()),
            entry(22, LocalTime.class, refs -> new LocalTimeSerializer()),
            record(23, Interval.class),
            entry(26, UUID.class, refs -> new UUIDSerializer()),
            entry(27, byte[].class, refs -> new ByteArraySerializer()),
            // 32-63: types, expressions, plans.
            record(32, DataType.class),
            enumeration(33, TypeId.class),
            record(34, ColumnRef.class),
            record(35, Literal.class),
            record(36, Call.class),
            record(37, AggregateCall.class),
            record(38, Alias.class),
            record(39, SortKey.class),
            enumeration(40, Function.class),
            enumeration(41, AggregateFunction.class),
            enumeration(42, JoinType.class),
            family(43, Plan.class, refs -> new PlanSerializer()),
            record(44, Field.class),
            record(45, Parameter.class),
            record(46, WindowCall.class),
            record(47, WindowFrame.class),
            enumeration(48, WindowFunction.class),
            record(49, FunctionCall.class),
            // 64-79: what messages hold besides plans.
            family(64, ActorRef.class, ActorRefSerializer::new),
            family(65, Throwable.class, refs -> new FailureSerializer()),
            // EXPLAIN ANALYZE of a spread query: each part's profile, and the merged report.
            record(66, Counts.class),
            record(67, NodeProfile.Memory.class),
            enumeration(68, NodeProfile.Kind.class),
            record(69, PartProfile.class),
            record(70, PartProfile.Line.class),
            record(71, PartProfile.Worker.class),
            record(72, PartProfile.Traffic.class),
            record(73, SpreadProfile.class),
            record(74, DataPlaneEndpoint.class),
            // 80-: control messages (WireMessage).
            enumeration(80, PipelineWorker.Start.class),
            enumeration(81, PipelineWorker.Cancel.class),
            record(82, PipelineWorker.WorkerBound.class),
            record(83, PipelineWorker.WorkerDone.class),
            record(84, PipelineWorker.FinalizeDone.class),
            record(85, PipelineWorker.WorkerFailed.class),
            record(86, QueryService.Submit.class),
            record(87, QueryService.Cancel.class),
            record(88, QueryRelay.Started.class),
            record(89, QueryRelay.Done.class),
            record(90, QueryRelay.Failed.class),
            record(91, QueryService.RunPart.class),
            record(92, QueryService.CancelPart.class),
            record(93, QueryService.PartEnded.class),
            // 104-106: window frames' parts.
            enumeration(104, WindowFrame.Unit.class),
            enumeration(105, WindowFrame.Exclusion.class),
            record(106, FrameBound.class),
            // 112-119: functions of one's own.
            entry(112, UserCall.class, refs -> new UserCallSerializer())));

    private static final List<Class<?>> FAMILIES = ENTRIES.stream().filter(Entry::family)
            .<Class<?>>map(Entry::type).toList();
    private static final int FINGERPRINT = computeFingerprint();

    private WireRegistry() {
    }

    /** The entries, once each: Kryo would let a second registration of an id or a class replace the first. */
    private static List<Entry> unique(List<Entry> entries) {
        Set<Integer> ids = new HashSet<>();
        Set<Class<?>> types = new HashSet<>();
        for (Entry e : entries) {
            if (e.id() < FIRST_ID || !ids.add(e.id()) || !types.add(e.type())) {
                throw new IllegalStateException("WireRegistry: id " + e.id() + " (" + e.type().getName()
                        + ") is below " + FIRST_ID + ", or its id or class is registered twice");
            }
        }
        return entries;
    }

    private static Entry entry(int id, Class<?> type, SerializerFactory serializer) {
        return new Entry(id, type, false, serializer);
    }

    private static Entry family(int id, Class<?> type, SerializerFactory serializer) {
        return new Entry(id, type, true, serializer);
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // Kryo's serializers are typed by the class they get
    private static Entry record(int id, Class<? extends Record> type) {
        return new Entry(id, type, false, refs -> new RecordSerializer(type));
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // Kryo's EnumSerializer takes a raw Enum class
    private static Entry enumeration(int id, Class<? extends Enum<?>> type) {
        return new Entry(id, type, false, refs -> new EnumSerializer((Class<? extends Enum>) (Class<?>) type));
    }

    /**
     * A Kryo with every registration, for one thread at a time.
     *
     * @param refs resolves actor refs; null for a codec without an actor system (actor refs are then refused)
     */
    static Kryo newKryo(ActorRefResolver refs) {
        WireKryo kryo = new WireKryo(FAMILIES);
        for (Entry e : ENTRIES) {
            kryo.register(e.type(), e.serializer().make(refs), e.id());
        }
        return kryo;
    }

    /** The CRC32 of the registrations, as every payload's header carries it. */
    public static int fingerprint() {
        return FINGERPRINT;
    }

    private static int computeFingerprint() {
        List<String> lines = new ArrayList<>();
        Kryo kryo = newKryo(null);
        int last = ENTRIES.stream().mapToInt(Entry::id).max().orElse(0);
        for (int id = 0; id <= last; id++) {
            Registration r = kryo.getRegistration(id);
            if (r != null) {
                lines.add(id + "=" + r.getType().getName() + shape(r.getType()));
            }
        }
        lines.add("plan tags: " + PlanSerializer.tags());
        CRC32 crc = new CRC32();
        crc.update(String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
        return (int) crc.getValue();
    }

    /** What the bytes of a class depend on besides its id: its record components, or its enum constants. */
    private static String shape(Class<?> type) {
        if (type.isRecord()) {
            return Arrays.stream(type.getRecordComponents()).map(c -> c.getName() + ":" + c.getType().getName())
                    .collect(Collectors.joining(",", "(", ")"));
        }
        if (type.isEnum()) {
            return Arrays.stream(type.getEnumConstants()).map(c -> ((Enum<?>) c).name())
                    .collect(Collectors.joining(",", "{", "}"));
        }
        return "";
    }
}
