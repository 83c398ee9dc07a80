/**
 * Exchanges at run time: the protocol by which the producers of an exchange (worker actors) and its
 * consumer (an exchange actor) meet over batch channels, the one path that builds them from the
 * planned description ({@link io.troupe.actors.exchange.ExchangeFactory}, from an
 * {@link io.troupe.operators.fragment.ExchangeSpec}), and the exchange actors of one JVM: the
 * {@link io.troupe.actors.exchange.Gather} and the {@link io.troupe.actors.exchange.GatherMerge}. It
 * knows batches, consumers and channel ends, not the coordinator or the workers.
 *
 * <h2>How producers and consumers meet</h2>
 * <ol>
 *   <li>The compiler plans every exchange ({@code io.troupe.operators.fragment}); the coordinator
 *       builds those that move batches over channels, each with the pipeline the factory names for it
 *       ({@link io.troupe.actors.exchange.ExchangeFactory#stage}), before any worker of that pipeline
 *       is spawned. In one JVM that is the exchange at the top: a Gather, or a Gather Merge. A
 *       Repartition, a Broadcast or a Forward is elided here (its consumer reads shared state) and the
 *       factory refuses to build one over channels.</li>
 *   <li>The factory opens one channel per producer from the transport, which assigns its stream:
 *       no operator and no description holds a channel, an endpoint or a stream id. It gives the
 *       receiver ends to the exchange actor, and the sender end of channel {@code i} to producer
 *       {@code i}, wrapped in a {@link io.troupe.actors.exchange.GatherOutlet}.</li>
 *   <li>The coordinator spawns the exchange actor (on a dispatcher apart from the workers'), then the
 *       producers; once every producer bound its chains it sends {@link
 *       io.troupe.actors.exchange.Exchange.Start} to all, so that nobody drives before everybody is
 *       bound.</li>
 *   <li>Each producer sends its batches into its channel, then one end of stream. The exchange actor
 *       polls every channel, delivers into its consumer, and reports {@link
 *       io.troupe.actors.exchange.Exchange.Done} once every channel ended, then stops.</li>
 * </ol>
 *
 * <h2>Who owns what</h2>
 * <ul>
 *   <li>The coordinator owns the channels: it opens them through the factory and closes every one
 *       after every actor of the query stopped, however the query ended.</li>
 *   <li>A producer owns the sender end of its channel (an exclusive publication: one writer, no lock)
 *       and closes it when it stops; without an end of stream before, the consumer sees it leave.</li>
 *   <li>The exchange actor owns the receiver ends (closed when it stops, which also wakes a producer
 *       waiting on a full channel) and its consumer: the result sink's local, a stream's
 *       {@link io.troupe.actors.exchange.BatchHandOver}, or for a Gather Merge the operators above the
 *       sort ending in one of those. It finishes its consumer exactly once, after the last end of stream.</li>
 * </ul>
 *
 * <h2>States</h2>
 * <pre>
 *   exchange actor  WAITING   spawned; reads nothing until Start
 *                   RUNNING   a Poll in flight: one bounded round over the channels per message, so
 *                             that a stop is seen between rounds (a Gather's GATHERING, a Gather
 *                             Merge's MERGING)
 *                   PARKED    streaming, the hand-over full: no Poll in flight, producers wait on their
 *                             full channels; Resume from the caller's thread when it freed room
 *                   DRAINING  (Gather Merge) the consumer wants no more: reads and drops until every
 *                             channel ended, so that no producer stays back-pressured
 *                   DONE      reported Done or Failed; stopped
 *   producer        SENDING        offers batches into its channel
 *                   BACK_PRESSURED an offer refused: retries after the channel's idle, giving up when
 *                                  the query is cancelled or the channel closed
 *                   ENDED          its end of stream sent; it reports its task done to the coordinator
 * </pre>
 * A failure anywhere (a producer leaving its channel without an end of stream, a consumer that
 * throws) is reported as {@link io.troupe.actors.exchange.Exchange.Failed}; the coordinator then sets
 * the query's cancel flag and stops, its children first, so every end is closed before the query's
 * future completes.
 *
 * <h2>Deadlock rule and wake-ups</h2>
 * A producer waits only on a full channel, and the exchange actor drains on its own dispatcher and
 * never waits at a barrier, so a full channel always empties while the query lives. A round that
 * found nothing first flushes every receiver (a producer parked on the locked queue hears of all
 * consumption it was owed), then idles with a backoff of its own. Progress is signalled in batches
 * inside the channels (lesson 3): see {@link io.troupe.transport.BatchChannel}.
 *
 * <h2>Across JVMs</h2>
 * A query spread over nodes ({@link io.troupe.operators.fragment.SpreadPlan}) runs on each node under a
 * coordinator of that node's own; nothing is shipped but the plan, which every node compiles alike. The
 * roles carry over: the factory builds, in front of each pipeline's sink
 * ({@link io.troupe.actors.exchange.ExchangeFactory#acrossNodes}), a {@link
 * io.troupe.actors.exchange.NodeOutlet} per worker (which routes each row: this node's into the sink
 * here, each other node's into a stream of its own, an exclusive publication) and a Gather over every
 * stream that other nodes send here, feeding a local of the sink. A stream is named by its pipeline,
 * producer node, worker and consumer node ({@link io.troupe.actors.exchange.NodeLinks}), so both ends
 * open it without telling each other. The barriers stay per node: a node's sink finalizes once its
 * workers and its Gather are done, that is once every producer anywhere sent its end of stream. On the
 * coordinator, the pipeline that makes the result sends its own workers' rows through channels too, to
 * the Gather that takes every node's: the spread query's top Gather, streaming or collecting as above.
 */
package io.troupe.actors.exchange;
