package io.troupe.transport.aeron;

/**
 * What an {@link AeronBatchReceiver} learns about, and tells, the other end of its stream: within one
 * JVM the {@link AeronIpcChannel} that holds both ends; across processes {@link SharedDriverStreams}'
 * subscription, which sees the producer only through its image.
 */
interface ReceiverLink {

    /**
     * Where the producer's stream ended when it left, or -1 while it may still send: a receiver that
     * has consumed up to it without an end of stream knows the producer failed or was cancelled.
     */
    long senderFinalPosition();

    /**
     * Called once by the receiver's close; {@code delivered}: the end of stream was delivered, so the
     * subscription may be kept for another stream.
     */
    void receiverClosed(boolean delivered);
}
