/**
 * The locked-queue baseline of lesson 3: a ring of batches under a monitor. Knows the channel
 * interfaces of {@code io.troupe.transport} and the batch format; knows nothing of Aeron, of the
 * codec (batches pass by reference), of operators beyond batches, or of actors.
 */
package io.troupe.transport.baseline;
