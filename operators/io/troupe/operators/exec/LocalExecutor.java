package io.troupe.operators.exec;

import java.util.List;

/**
 * Runs pipelines on the calling thread, one after another in dependency order: the executor of
 * a query with no workers (the leader alone), and the reference the parallel executor is tested
 * against. Checks for cancellation once per batch. When the query ends (its last pipeline done,
 * or a failure or cancel thrown out of any), it releases the query's memory ({@link ExecContext#memory()}):
 * nothing runs any more, so the arena may hand the chunks to the next query.
 *
 * <p>Not threadsafe: one instance runs one query at a time.
 */
public final class LocalExecutor {

    /** Runs {@code pipelines} (each listed after its dependencies, or in any order: it sorts them). */
    public void run(List<Pipeline> pipelines, ExecContext ctx) {
        try {
            for (Pipeline p : PipelineRun.inDependencyOrder(pipelines)) {
                runOne(p, ctx);
            }
        } finally {
            ctx.release();
        }
    }

    /**
     * Binds before driving (see {@link PipelineRun}): the leader is the only worker, so it drives its
     * one task to the end and does all of the sink's finalize work, checking for cancellation
     * once per batch and once per unit.
     */
    private void runOne(Pipeline pipeline, ExecContext ctx) {
        PipelineRun run = PipelineRun.open(pipeline, ctx);
        PipelineRun.WorkerTask task = run.bind();
        do {
            ctx.checkCancelled();
        } while (task.step() != PipelineRun.Step.DONE);
        FinalizeWork work = run.prepareFinalize();
        while (work.step()) {
            ctx.checkCancelled();
        }
        run.finalizeSink();
    }
}
