package io.troupe.transport.aeron;

/**
 * What an {@link AeronBatchSender} learns about, and tells, the other end of its stream: within one
 * JVM the {@link AeronIpcChannel} that holds both ends; across processes {@link SharedDriverStreams}'
 * publication, which sees the consumer only through the driver.
 */
interface SenderLink {

    /** Whether the consumer has gone: every offer returns CLOSED from then on. Read by every offer. */
    boolean receiverClosed();

    /**
     * Called once by the sender's close with the publication's position; {@code ended}: the end of
     * stream was sent, so the publication may be kept for another stream.
     */
    void senderClosed(long finalPosition, boolean ended);
}
