package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Consumer;

/**
 * One query run by the leader alone (0 workers), on whichever thread steps it: its pipelines in
 * dependency order, each opened, bound and driven one batch per {@link #step()}, then its sink's
 * finalize work one unit per step, then the next pipeline. It serves both ways of asking for a
 * result: {@code execute} steps it to the end on the caller's thread ({@link #runToEnd()}) and its
 * last sink publishes the result ({@link #toSink}); a stream steps it inside each {@code next} until
 * the last pipeline has emitted a batch, which the reader then takes ({@link #toOutput},
 * {@link #takeOutput()}), so nothing runs between the reader's calls. It is also the reference the
 * parallel executor is tested against.
 *
 * <h2>States</h2>
 * <pre>
 *   OPENING     open the next pipeline (PipelineRun.open) and bind the leader's task: one step
 *   DRIVING     read one batch of the task and push it through its chain: one step per batch;
 *               when the task is done, prepare the sink's finalize work
 *   FINALIZING  one unit of the finalize work per step; when none is left, finalize the sink
 *               and go to OPENING for the next pipeline (or back to a loop's first, see
 *               PipelineOrder), or to ENDED after the last
 *   ENDED       every pipeline finalized: the result is published in the context (or waits in
 *               the output until taken); the memory is back
 *   FAILED      a step threw (an operator, a cancel, the timeout) or the run was stopped: the
 *               memory is back, the output dropped, and every later step throws the same failure
 * </pre>
 * Before every step the run checks its own deadline (cancelling the context once it has passed)
 * and the context's cancel flag, so a timeout needs no timer that could outlive the query, and a
 * cancel or a timeout stops the query within one batch (or one finalize unit). A run that ends, in
 * either end state, releases the query's memory and spill files ({@link ExecContext#release()}) and
 * runs its {@code onEnd} exactly once, on the stepping thread: nothing runs any more, so the arena
 * may hand the chunks to the next query.
 *
 * <h2>Failure</h2>
 * A {@link RuntimeException} from an operator is rethrown as it is (a
 * {@link QueryFailedException} for an expression error, a {@link QueryCancelledException} for a
 * cancel or the timeout). An {@link Error} (an {@link OutOfMemoryError}, a {@link StackOverflowError})
 * fails the query, not its host: the run drops its references to the query's state and releases its
 * memory first, then throws a {@link QueryFailedException} that carries the Error as its cause.
 *
 * <h2>Concurrency</h2>
 * Not threadsafe: one thread steps a run at a time (a stream's readers in turn, each call
 * happening-after the last). {@link #cancel} alone may be called from any thread (the context's
 * cancel flag is volatile); the stepping thread sees it before its next step.
 */
public final class LocalRun {

    /** Where the run stands; see the table in the class comment. */
    public enum State { OPENING, DRIVING, FINALIZING, ENDED, FAILED }

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private final PipelineOrder order;
    private final ExecContext ctx;
    /** The last pipeline's batches not taken yet, when they go to a reader instead of its sink; else null. */
    private final ArrayDeque<Batch> output;
    private final Duration timeout;
    private final long deadlineNanos;
    private final Consumer<LocalRun> onEnd;
    private State state = State.OPENING;
    /** Position in {@link #order} of the pipeline being run; -1 before the first. */
    private int pipeline = -1;
    private PipelineRun run;
    private PipelineRun.WorkerTask task;
    private FinalizeWork finalizing;
    private RuntimeException failure;

    private LocalRun(List<Pipeline> pipelines, ExecContext ctx, boolean toOutput, Duration timeout,
                     Consumer<LocalRun> onEnd, long nowNanos) {
        if (pipelines.isEmpty()) {
            throw new IllegalArgumentException("query " + ctx.queryId() + ": no pipeline to run");
        }
        this.order = new PipelineOrder(pipelines, ctx);
        this.ctx = ctx;
        this.output = toOutput ? new ArrayDeque<>() : null;
        this.timeout = timeout;
        this.deadlineNanos = timeout == null ? NO_DEADLINE : nowNanos + timeout.toNanos();
        this.onEnd = onEnd;
    }

    /**
     * A run whose last pipeline ends in its own sink, which publishes the result in {@code ctx}.
     *
     * @param timeout how long the run may take from now; null for no limit
     * @param onEnd   takes the run once when it ends, succeeded or failed (after its memory was released)
     */
    public static LocalRun toSink(List<Pipeline> pipelines, ExecContext ctx, Duration timeout,
                                  Consumer<LocalRun> onEnd) {
        return new LocalRun(pipelines, ctx, false, timeout, onEnd, System.nanoTime());
    }

    /**
     * A run whose last pipeline's batches wait, in order, for {@link #takeOutput()} instead of
     * going to its sink (whose finalize then publishes nothing of use). Otherwise as {@link #toSink}.
     */
    public static LocalRun toOutput(List<Pipeline> pipelines, ExecContext ctx, Duration timeout,
                                    Consumer<LocalRun> onEnd) {
        return new LocalRun(pipelines, ctx, true, timeout, onEnd, System.nanoTime());
    }

    // visible for testing: a run whose deadline counts from nowNanos
    static LocalRun toSink(List<Pipeline> pipelines, ExecContext ctx, Duration timeout, Consumer<LocalRun> onEnd,
                           long nowNanos) {
        return new LocalRun(pipelines, ctx, false, timeout, onEnd, nowNanos);
    }

    public long queryId() {
        return ctx.queryId();
    }

    public State state() {
        return state;
    }

    /**
     * The oldest batch of the last pipeline not taken yet, or null when none is waiting (step on,
     * unless the run has ended). Only for a run made by {@link #toOutput}.
     */
    public Batch takeOutput() {
        if (output == null) {
            throw new IllegalStateException("query " + ctx.queryId() + ": the result goes to the sink, not an output");
        }
        return output.pollFirst();
    }

    /** Steps the run to its end. Throws as {@link #step()} does. */
    public void runToEnd() {
        while (step()) {
            // one batch or one finalize unit per step
        }
    }

    /**
     * Does one unit of work: opens a pipeline, drives one batch, or steps one unit of a finalize.
     *
     * @return true while work is left, false once the run has {@link State#ENDED}
     * @throws QueryCancelledException when the query was cancelled or ran past its timeout
     * @throws QueryFailedException    when an operator failed (an Error as its cause)
     * @throws RuntimeException        what an operator threw; every later call throws it again
     */
    public boolean step() {
        return step(System.nanoTime());
    }

    // visible for testing: a step at the instant nowNanos
    boolean step(long nowNanos) {
        if (state == State.ENDED) {
            return false;
        }
        if (state == State.FAILED) {
            throw failure;
        }
        try {
            if (deadlineNanos != NO_DEADLINE && nowNanos - deadlineNanos >= 0) {
                ctx.cancel("timed out after " + timeout.toMillis() + " ms");
            }
            ctx.checkCancelled();
            switch (state) {
                case OPENING -> open();
                case DRIVING -> drive();
                case FINALIZING -> finalizeUnit();
                default -> throw new IllegalStateException("query " + ctx.queryId() + ": step in state " + state);
            }
        } catch (RuntimeException | Error e) {
            throw fail(e);
        }
        return state != State.ENDED;
    }

    /**
     * Asks the run to stop: its next step throws a {@link QueryCancelledException} with
     * {@code reason} (the first reason wins). Threadsafe; no effect once the run has ended.
     */
    public void cancel(String reason) {
        ctx.cancel(reason);
    }

    /**
     * Stops a run that nobody will step or take from again (a stream closed): drops its output,
     * and unless it has ended, cancels it with {@code reason} and releases it now, on the calling
     * thread, which must be the stepping one.
     */
    public void stop(String reason) {
        if (output != null) {
            output.clear();
        }
        if (state == State.ENDED || state == State.FAILED) {
            return;
        }
        ctx.cancel(reason);
        fail(new QueryCancelledException("query " + ctx.queryId() + " cancelled: " + reason));
    }

    private void open() {
        pipeline++;
        order.opening(pipeline);
        run = PipelineRun.open(order.get(pipeline), ctx);
        task = output != null && pipeline == order.size() - 1 ? run.bind(this::outputTail) : run.bind();
        state = State.DRIVING;
    }

    /** One chain's end in {@link #output}: its finish() says nothing, the stream ends with the run. */
    private BatchConsumer outputTail() {
        return new BatchConsumer() {
            @Override
            public boolean accept(Batch batch) {
                if (batch.size() > 0) {
                    output.addLast(batch);
                }
                return true;
            }

            @Override
            public void finish() {
                // The output ends when the last pipeline has finalized, not when one of its branches has.
            }
        };
    }

    /** One step of the task; a lone participant is never BLOCKED (see {@link PipelineRun.Step}). */
    private void drive() {
        if (task.step() == PipelineRun.Step.DONE) {
            task = null;
            finalizing = run.prepareFinalize();
            state = State.FINALIZING;
        }
    }

    private void finalizeUnit() {
        if (finalizing.step()) {
            return;
        }
        finalizing = null;
        run.finalizeSink();
        int next = order.next(pipeline, run);
        run = null;
        if (next == order.size()) {
            end(State.ENDED);
        } else {
            pipeline = next - 1;
            state = State.OPENING;
        }
    }

    /**
     * Ends the run as FAILED with {@code cause}: drops the query's state and releases its memory
     * before it makes anything new (after an OutOfMemoryError the heap needs that room back first).
     */
    private RuntimeException fail(Throwable cause) {
        end(State.FAILED);
        failure = cause instanceof RuntimeException r ? r
                : new QueryFailedException("query " + ctx.queryId() + " failed: " + cause, cause);
        return failure;
    }

    /** Moves to {@code last}; the first end releases the memory and runs onEnd (a failing end ends again). */
    private void end(State last) {
        boolean first = state != State.ENDED && state != State.FAILED;
        state = last;
        run = null;
        task = null;
        finalizing = null;
        if (last == State.FAILED && output != null) {
            output.clear();
        }
        if (first) {
            ctx.release();
            onEnd.accept(this);
        }
    }
}
