package io.troupe.actors.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import org.apache.pekko.actor.typed.ActorRefResolver;

import java.util.Arrays;

import static io.troupe.operators.Arguments.notNull;

/**
 * Turns a plan or a message into a payload for another node of the same cluster, and back: a
 * header (what the package documentation draws: magic, protocol version, cluster name, registry
 * fingerprint), then the object as Kryo writes it with {@link WireRegistry}'s registrations. A
 * payload from another cluster, protocol version or build is refused before its body is read, with
 * a {@link WireException} that names both sides; so is an object of an unregistered class, naming it.
 *
 * <p>Threadsafe: Kryo instances are not, so each call takes one from a pool and gives it back
 * ({@value #POOLED} kept: enough for Artery's lanes and the callers that serialize at once; more are
 * made and dropped). A Kryo whose call failed is dropped, not pooled, whatever state it was left in.
 */
public final class WireCodec {

    /** The payload's first four bytes, "TRPW": a Troupe payload, not some other serializer's. */
    private static final byte[] MAGIC = {'T', 'R', 'P', 'W'};
    private static final int POOLED = 16;
    /**
     * Bytes an output starts with: a worker's report takes 17, a generated test plan 174 on average
     * (RandomPlansWireTest); a larger plan grows the buffer.
     */
    private static final int INITIAL_BYTES = 256;

    private final String cluster;
    private final Pool<Kryo> kryos;

    /** A codec for plans and messages without actor refs (those are refused): tests and tools. */
    public WireCodec(String cluster) {
        this(cluster, null);
    }

    /**
     * @param cluster the cluster's name, written into every payload and required of every payload read
     * @param refs    resolves the actor refs in messages (the node's actor system's); null: refuse them
     */
    public WireCodec(String cluster, ActorRefResolver refs) {
        this.cluster = notNull(cluster, "WireCodec", "cluster");
        this.kryos = new Pool<>(true, false, POOLED) {
            @Override
            protected Kryo create() {
                return WireRegistry.newKryo(refs);
            }
        };
    }

    /** The cluster whose payloads this codec writes and accepts. */
    public String cluster() {
        return cluster;
    }

    /**
     * The payload of {@code message}: a plan, a registered {@link WireMessage}, or any registered value.
     *
     * @throws WireException naming the class that is not registered (the message's or one it holds)
     */
    public byte[] encode(Object message) {
        notNull(message, "WireCodec.encode", "message");
        Kryo kryo = kryos.obtain();
        try {
            Output out = new Output(INITIAL_BYTES, -1);
            out.writeBytes(MAGIC);
            out.writeVarInt(WireRegistry.PROTOCOL_VERSION, true);
            out.writeString(cluster);
            out.writeInt(WireRegistry.fingerprint());
            kryo.writeClassAndObject(out, message);
            byte[] payload = out.toBytes();
            kryos.free(kryo);
            return payload;
        } catch (RuntimeException e) {
            throw new WireException("cannot send " + message.getClass().getName() + ": " + reason(e), e);
        }
    }

    /**
     * The plan or message {@code payload} holds.
     *
     * @throws WireException when it is not a Troupe payload, comes from another cluster, protocol
     *         version or build (naming both sides), or its body is not what its classes say
     */
    public Object decode(byte[] payload) {
        notNull(payload, "WireCodec.decode", "payload");
        if (payload.length < MAGIC.length) {
            // Not only a clearer error: Kryo's Input spins forever reading from an empty array (5.6.2).
            throw new WireException("not a Troupe wire payload: " + payload.length + " bytes");
        }
        Input in = new Input(payload);
        Header header = readHeader(in, payload.length);
        Kryo kryo = kryos.obtain();
        try {
            Object message = kryo.readClassAndObject(in);
            if (in.position() != payload.length) {
                throw new KryoException((payload.length - in.position()) + " bytes left over after the "
                        + (message == null ? "null" : message.getClass().getName()));
            }
            kryos.free(kryo);
            return message;
        } catch (RuntimeException e) {
            // Whatever a serializer throws on bytes that are not what their classes say (a Kryo error,
            // a record's constructor refusing its values, an array of a size read from the payload).
            throw new WireException("cannot read a payload of " + payload.length + " bytes from cluster '"
                    + header.cluster() + "': " + reason(e), e);
        }
    }

    /** The header's fields after the magic. */
    private record Header(int version, String cluster, int fingerprint) {
    }

    /**
     * Reads and checks the header. Magic, version and cluster come first in every version of the
     * protocol, so that any version can say which version a payload is before refusing it.
     */
    private Header readHeader(Input in, int length) {
        Header header;
        try {
            byte[] magic = in.readBytes(MAGIC.length);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new WireException("not a Troupe wire payload: it starts with " + show(magic) + ", not "
                        + show(MAGIC) + " (" + length + " bytes)");
            }
            int version = in.readVarInt(true);
            String from = in.readString();
            if (version != WireRegistry.PROTOCOL_VERSION || !cluster.equals(from)) {
                throw new WireException("refused a payload from cluster '" + from + "' (wire protocol " + version
                        + "): this node is in cluster '" + cluster + "' (wire protocol " + WireRegistry.PROTOCOL_VERSION
                        + ")");
            }
            header = new Header(version, from, in.readInt());
        } catch (KryoException e) {
            throw new WireException("not a Troupe wire payload: its header is cut short (" + length + " bytes)", e);
        }
        if (header.fingerprint() != WireRegistry.fingerprint()) {
            throw new WireException("refused a payload from cluster '" + header.cluster() + "' (wire protocol "
                    + header.version() + ", registry 0x" + Integer.toHexString(header.fingerprint())
                    + "): this node has registry 0x" + Integer.toHexString(WireRegistry.fingerprint())
                    + "; the nodes run different builds of Troupe's wire classes (see WireRegistry)");
        }
        return header;
    }

    /** Bytes in hex and as ASCII, e.g. {@code 0x54525057 ('TRPW')}. */
    private static String show(byte[] bytes) {
        StringBuilder hex = new StringBuilder("0x");
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            hex.append(String.format("%02x", b));
            text.append(b >= 0x20 && b < 0x7f ? (char) b : '.');
        }
        return hex + " ('" + text + "')";
    }

    /** Kryo's innermost message, and the fields it was in (Kryo's serialization trace) where it says. */
    private static String reason(Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String[] message = String.valueOf(root.getMessage()).split("\nSerialization trace:", 2);
        String[] outer = String.valueOf(e.getMessage()).split("\nSerialization trace:", 2);
        String trace = outer.length == 2 ? outer[1].trim() : message.length == 2 ? message[1].trim() : "";
        return message[0] + (trace.isEmpty() ? "" : " (in field, innermost first: "
                + String.join(" < ", trace.split("\\s*\n\\s*")) + ")");
    }
}
