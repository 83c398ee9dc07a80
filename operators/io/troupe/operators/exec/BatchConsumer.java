package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;

/**
 * The next step of a pipeline, as seen by one worker: batches are pushed into it one at a time.
 * Streaming operators are consumers that push on to their own downstream; sinks end the chain.
 *
 * <p>Not threadsafe: each worker binds its own chain of consumers.
 */
public interface BatchConsumer {

    /**
     * Takes one batch. The batch stays valid after the call (it is immutable), so a consumer may
     * keep it.
     *
     * @return false when no more input is wanted (a limit was reached); the producer then stops
     *         and calls {@link #finish()}
     */
    boolean accept(Batch batch);

    /** This worker's input is complete. Called exactly once, also after accept returned false. */
    void finish();
}
