/**
 * Batch channels over Aeron IPC log buffers, and the embedded media driver they run on; streams of
 * batches between processes of a host through its standalone driver ({@code SharedDriverStreams}), written
 * and read by the same sender and receiver. Knows the
 * channel interfaces of {@code io.troupe.transport}, the codec and the batch format; knows nothing
 * of the locked-queue baseline, of operators beyond batches, or of actors.
 */
package io.troupe.transport.aeron;
