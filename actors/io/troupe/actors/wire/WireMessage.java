package io.troupe.actors.wire;

/**
 * Marks a message that may cross JVMs: Pekko serializes every message of this type with
 * {@link WireSerializer} (reference.conf binds it). A class that implements it must also have a
 * registration in {@link WireRegistry}; one without is refused when sent, with its name.
 */
public interface WireMessage {
}
