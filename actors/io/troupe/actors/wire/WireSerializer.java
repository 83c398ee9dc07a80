package io.troupe.actors.wire;

import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * Troupe's Pekko serializer: every {@link WireMessage} that Pekko sends to another node goes through
 * a {@link WireCodec} for the cluster named as the actor system (a Pekko cluster's nodes all share
 * their actor system's name). reference.conf binds it and keeps Java serialization off:
 *
 * <pre>
 * pekko.actor.allow-java-serialization = off
 * pekko.actor.serializers.troupe-wire = "io.troupe.actors.wire.WireSerializer"
 * pekko.actor.serialization-bindings."io.troupe.actors.wire.WireMessage" = troupe-wire
 * </pre>
 *
 * <p>The payload names its own class, so the manifest is empty. Pekko makes one instance per actor
 * system and calls it from any thread; the codec is threadsafe. It is made on first use, not here:
 * Pekko makes serializers while it sets up serialization, when the actor-ref resolver (another
 * extension of the same system) must not be asked for yet.
 */
public final class WireSerializer extends SerializerWithStringManifest {

    /** Pekko's id of this serializer ("TRP" in ASCII decimals): stable, as payloads carry it. */
    public static final int IDENTIFIER = 848_280;

    private final ExtendedActorSystem system;
    private volatile WireCodec codec;

    public WireSerializer(ExtendedActorSystem system) {
        this.system = system;
    }

    @Override
    public int identifier() {
        return IDENTIFIER;
    }

    @Override
    public String manifest(Object message) {
        return "";
    }

    @Override
    public byte[] toBinary(Object message) {
        return codec().encode(message);
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
        return codec().decode(bytes);
    }

    private WireCodec codec() {
        WireCodec c = codec;
        if (c == null) {
            synchronized (this) {
                c = codec;
                if (c == null) {
                    c = new WireCodec(system.name(), ActorRefResolver.get(Adapter.toTyped(system)));
                    codec = c;
                }
            }
        }
        return c;
    }
}
