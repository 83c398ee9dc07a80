/**
 * How batches move between workers: {@link io.troupe.transport.BatchChannel} (one producer, one
 * consumer) with its two ends, and {@link io.troupe.transport.TransportRuntime}, which opens
 * channels of the configured kind and owns the embedded Aeron driver. Subpackages: {@code codec}
 * (the wire format), {@code aeron} (IPC log buffers: lesson 3 on) and {@code baseline} (the locked
 * queue: lesson 3 off).
 *
 * <p>Knows the batch and type classes of {@code io.troupe.operators} and the settings of
 * {@code io.troupe.config}, nothing else: no operators, no plans, no actors (ArchitectureTest).
 * Actor messages carry control; only batches travel here.
 */
package io.troupe.transport;
