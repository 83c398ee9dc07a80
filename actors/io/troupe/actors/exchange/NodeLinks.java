package io.troupe.actors.exchange;

import io.troupe.transport.BatchReceiver;
import io.troupe.transport.BatchSender;

/**
 * The batch streams of one query spread over nodes, between this node and the others
 * ({@link io.troupe.operators.fragment.SpreadPlan}). Every stream carries the rows that one worker of
 * one node routes to one other node's sink of one pipeline, and is named by those four numbers:
 * both ends derive it from the query, so each opens its end when it gets there, in either order, and
 * nobody tells the other where a stream is. A receiver opened before its producer waits for it; one
 * whose producer never comes turns {@link BatchReceiver.State#PRODUCER_GONE} in the end, as one whose
 * producer left without an end of stream does.
 *
 * <p>Every node of a query runs the same number of workers per pipeline. Ends are owned as
 * {@link io.troupe.transport.BatchChannel} says (a sender by its worker, a receiver by the exchange
 * actor that polls it); {@link #close()} closes whatever is still open when the query ends.
 * Threadsafe: ends are opened from the query coordinator's thread, closed from any.
 */
public interface NodeLinks extends AutoCloseable {

    /** This node's index in the query, from 0 (the coordinator: {@link io.troupe.operators.fragment.SpreadPlan#COORDINATOR}). */
    int self();

    /** How many nodes the query runs on. */
    int nodes();

    /** Node {@code node} as errors name it: its address in a cluster ("node 127.0.0.1:25521"). */
    default String nodeName(int node) {
        return "node " + node;
    }

    /** Opens the sender of worker {@code worker}'s rows for node {@code to}'s sink of pipeline {@code pipeline}. */
    BatchSender sender(int pipeline, int worker, int to);

    /** Opens the receiver of the rows worker {@code worker} of node {@code from} routes here for pipeline {@code pipeline}. */
    BatchReceiver receiver(int pipeline, int from, int worker);

    /** Closes every end opened through these links that is still open. Idempotent. */
    @Override
    void close();
}
