package io.troupe.actors.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;

import java.util.List;

/**
 * A Kryo that requires registration, as {@link WireRegistry} fills it, with two changes: a class
 * that belongs to a registered family (a plan node, an actor ref, a Throwable) uses its family's one
 * registration, and an unregistered class is refused with a message that says where to register it.
 * References stay off: plans and messages are trees (a plan's shared subplans are numbered by
 * {@code PlanSerializer} itself). Used by one thread at a time (WireCodec pools them).
 */
final class WireKryo extends Kryo {

    /** Classes whose subclasses share their registration, tried in order. */
    private final List<Class<?>> families;

    WireKryo(List<Class<?>> families) {
        this.families = List.copyOf(families);
        setRegistrationRequired(true);
        setReferences(false);
    }

    @Override
    @SuppressWarnings("rawtypes") // Kryo's signature
    public Registration getRegistration(Class type) {
        if (getClassResolver().getRegistration(type) == null) {
            for (Class<?> family : families) {
                if (family.isAssignableFrom(type)) {
                    return super.getRegistration(family);
                }
            }
        }
        return super.getRegistration(type);
    }

    @Override
    @SuppressWarnings("rawtypes") // Kryo's signature
    protected String unregisteredClassMessage(Class type) {
        return "class " + type.getName() + " is not registered for the wire: give it an id in "
                + WireRegistry.class.getName() + " (see the package documentation of io.troupe.actors.wire)";
    }
}
