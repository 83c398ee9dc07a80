package io.troupe.actors.exchange;

import io.troupe.operators.exec.BatchConsumer;

/**
 * A worker's end of the exchange its chains feed: the tail of each of its branches, then one end of
 * stream after its last. Either instead of the pipeline's sink (a Gather's producer,
 * {@link GatherOutlet}) or in front of it (a worker of a query spread over nodes, {@link NodeOutlet},
 * which keeps the rows routed to its own node for the sink here).
 *
 * <p>Not threadsafe: owned by one worker; {@link #close()} may come from its PostStop.
 */
public interface WorkerOutlet extends AutoCloseable {

    /** The tail a branch's chain ends in. Finishing it does not end the stream: {@link #endOfStream()} does. */
    BatchConsumer tail();

    /** Ends the stream, after every branch of the worker's task has finished. */
    void endOfStream();

    /** Whether the worker's rows also reach the pipeline's sink here, so that it shares the sink's finalize work. */
    boolean feedsSink();

    /** Leaves the exchange; without a prior end of stream its consumers see this producer gone. */
    @Override
    void close();
}
