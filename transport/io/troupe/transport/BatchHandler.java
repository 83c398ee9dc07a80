package io.troupe.transport;

import io.troupe.operators.batch.Batch;

/**
 * Receives what a {@link BatchReceiver#poll} delivers: batches in the order they were sent, then at
 * most one end of stream. Called on the thread that polls, one call at a time.
 */
public interface BatchHandler {

    /** A batch, dense and owned by the receiver from now on. */
    void onBatch(Batch batch);

    /** The producer sent everything: no batch follows. */
    void onEndOfStream();
}
