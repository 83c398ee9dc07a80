package io.troupe.actors.exchange;

/**
 * Opens the {@link GatherChannel}s of one Troupe and counts those still open, so that a test can
 * see that a query (finished, failed or cancelled) left none behind.
 *
 * <p>Threadsafe.
 */
public interface GatherChannels extends AutoCloseable {

    GatherChannel open();

    /** Channels opened and not yet closed. */
    int openChannels();

    /** Closes every channel still open. */
    @Override
    void close();
}
