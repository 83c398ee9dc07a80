/**
 * Exchanges between workers: the {@link io.troupe.actors.exchange.Gather} that collects the workers'
 * output of a query's last pipeline from the receivers of {@code io.troupe.transport} channels, the
 * {@link io.troupe.actors.exchange.GatherMerge} that merges the workers' sorted streams in its place
 * when the query ends in a sort, and the {@link io.troupe.actors.exchange.GatherOutlet} workers send
 * through. It knows batches, consumers and channel ends, not the coordinator or the workers.
 */
package io.troupe.actors.exchange;
