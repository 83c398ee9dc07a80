package io.troupe.actors.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

import java.util.List;

/**
 * The lists of plans and messages: the JDK's immutable lists ({@code List.of}, {@code List.copyOf}),
 * which every plan node and record keeps. Writes the size, then each element with its class; reads
 * back a {@code List.of}. Other lists (ArrayList ...) are not registered, so a message that holds
 * one is refused, naming it: copy it with {@code List.copyOf}. Stateless.
 */
final class ImmutableListSerializer extends Serializer<List<?>> {

    ImmutableListSerializer() {
        setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output out, List<?> list) {
        out.writeVarInt(list.size(), true);
        for (Object element : list) {
            kryo.writeClassAndObject(out, element);
        }
    }

    @Override
    public List<?> read(Kryo kryo, Input in, Class<? extends List<?>> type) {
        int size = in.readVarInt(true);
        // Every element takes a byte at least: a size past the bytes left is a bad payload, not an allocation.
        int left = in.limit() - in.position();
        if (size < 0 || size > left) {
            throw new KryoException("a list of " + size + " elements with " + left + " bytes left in the payload");
        }
        Object[] elements = new Object[size];
        for (int i = 0; i < size; i++) {
            elements[i] = kryo.readClassAndObject(in);
            if (elements[i] == null) {
                throw new KryoException("element " + i + " of a list is null");
            }
        }
        return List.of(elements);
    }
}
