/**
 * How batches move between workers: the columnar batch codec, Aeron IPC and UDP channels, and the
 * locked-queue baseline. Knows the batch format of {@code io.troupe.operators.batch} and nothing
 * else of the operators; knows nothing of actors. Filled in with the parallel executor.
 */
package io.troupe.transport;
