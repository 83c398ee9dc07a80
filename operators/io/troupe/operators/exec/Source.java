package io.troupe.operators.exec;

/**
 * Where a pipeline's batches come from: a table scan, generate_series, the result of an earlier
 * pipeline's sink. Immutable and threadsafe; all per-execution state lives in the
 * {@link SourceState} returned by {@link #open}.
 */
public interface Source {

    /** Starts one execution. Called once per query, on any thread. */
    SourceState open(ExecContext ctx);

    /** The shared state of one execution of a source. Threadsafe. */
    interface SourceState {
        /**
         * A reader for one worker. The readers of one state split the input between them
         * (morsels taken from a shared counter): each row is read by exactly one reader.
         */
        SourceReader reader();
    }

    /** One worker's reader. Not threadsafe. */
    interface SourceReader {
        /** The next batch, or null when this reader's share is exhausted. */
        io.troupe.operators.batch.Batch next();
    }
}
