/**
 * Batch channels over Aeron IPC log buffers, and the embedded media driver they run on. Knows the
 * channel interfaces of {@code io.troupe.transport}, the codec and the batch format; knows nothing
 * of the locked-queue baseline, of operators beyond batches, or of actors.
 */
package io.troupe.transport.aeron;
