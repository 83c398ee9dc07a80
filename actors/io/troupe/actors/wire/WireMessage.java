package io.troupe.actors.wire;

/**
 * Marks a message that may cross JVMs. A class that implements it must also have a registration in
 * {@link WireRegistry}; one without is refused when sent, with its name.
 */
public interface WireMessage {
}
