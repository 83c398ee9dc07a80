package io.troupe.actors.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;

/**
 * A typed actor ref as Pekko's serialization format of it (its full path with address and uid),
 * resolved on the receiving node by its actor system: how a reply-to address crosses the wire.
 * Without an actor system (a codec for plans alone) an actor ref is refused, saying so.
 */
final class ActorRefSerializer extends Serializer<ActorRef<?>> {

    /** Null in a codec made without an actor system. */
    private final ActorRefResolver resolver;

    ActorRefSerializer(ActorRefResolver resolver) {
        this.resolver = resolver;
        setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output out, ActorRef<?> ref) {
        out.writeString(resolver().toSerializationFormat(ref));
    }

    @Override
    public ActorRef<?> read(Kryo kryo, Input in, Class<? extends ActorRef<?>> type) {
        return resolver().resolveActorRef(in.readString());
    }

    private ActorRefResolver resolver() {
        if (resolver == null) {
            throw new KryoException("an actor ref crosses the wire only through a codec made with an actor system "
                    + "(WireCodec(cluster, resolver), as WireSerializer makes it)");
        }
        return resolver;
    }
}
