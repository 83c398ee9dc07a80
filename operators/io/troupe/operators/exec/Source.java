package io.troupe.operators.exec;

/**
 * Where a pipeline's batches come from: a table scan, generate_series, the result of an earlier
 * pipeline's sink. Immutable and threadsafe; all per-execution state lives in the
 * {@link SourceState} returned by {@link #open}.
 */
public interface Source {

    /**
     * Whether this source's rows are already split between the nodes of a cluster (a table partitioned
     * across them): in a query spread over the nodes each reads all of its own, not a share.
     */
    default boolean partitioned() {
        return false;
    }

    /**
     * Starts one execution: once per query, or once per round of a loop's body that the pipeline belongs to
     * ({@link PipelineOrder}). On any thread.
     */
    SourceState open(ExecContext ctx);

    /** The shared state of one execution of a source. Threadsafe. */
    interface SourceState {
        /**
         * A reader for one worker. The readers of one state split the input between them
         * (morsels taken from a shared counter): each row is read by exactly one reader.
         */
        SourceReader reader();

        /**
         * True when the state knew, as it opened, that no reader of it will ever produce a row: the
         * executor then binds no reader and no chain for its branch (a hash join's spilled partitions
         * when the join spilled nothing, so that a join that fits costs its pipeline nothing more).
         */
        default boolean empty() {
            return false;
        }
    }

    /** One worker's reader. Not threadsafe. */
    interface SourceReader {
        /** The next batch, or null when this reader's share is exhausted. */
        io.troupe.operators.batch.Batch next();
    }

    /**
     * A reader that pushes into its branch's chain itself, one unit of work per {@link #push} (the
     * executor never calls {@code next()}), for a source whose rows come in bursts it cannot bound
     * and that may not be ready yet: a hash join's spilled partitions, joined after every prober of
     * the join finished, where one row read can fan out into many batches. Not threadsafe.
     */
    interface PushingReader extends SourceReader {
        /**
         * Does one unit of work, pushing what it makes into {@code chain} (without finishing it).
         *
         * @return {@link PipelineRun.Step#RAN} when it did some, {@link PipelineRun.Step#BLOCKED} when
         *         its input is not ready yet (call again later; another participant's work will make it
         *         ready), {@link PipelineRun.Step#DONE} when it has no more or {@code chain} wants no more
         */
        PipelineRun.Step push(BatchConsumer chain);

        /** Never called: the executor drives a pushing reader with {@link #push}. */
        @Override
        default io.troupe.operators.batch.Batch next() {
            throw new UnsupportedOperationException("a pushing reader is driven by push(chain), not next()");
        }
    }
}
