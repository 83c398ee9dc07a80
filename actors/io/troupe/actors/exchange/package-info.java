/**
 * Exchanges between workers: the {@link io.troupe.actors.exchange.Gather} that collects the workers'
 * output of a query's last pipeline, and the channels it reads ({@link io.troupe.actors.exchange.GatherChannel},
 * a seam in the shape of {@code io.troupe.transport.BatchChannel} until the transport lands). It knows
 * batches and consumers, not the coordinator or the workers.
 */
package io.troupe.actors.exchange;
