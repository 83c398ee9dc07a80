package io.troupe.actors.api;

import io.troupe.actors.coordinator.ExecutorRuntime;
import io.troupe.actors.exchange.BatchHandOver;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.LocalRun;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.types.Schema;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The result of a query as it comes, batch by batch, from {@link Troupe#stream}: the caller pulls
 * with {@link #next(Duration)} (or {@link #next()}), and a caller slower than the query holds it back.
 *
 * <pre>{@code
 * try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(2))) {
 *     for (Batch b; (b = stream.next(Duration.ofSeconds(5))) != null; ) {
 *         consume(b);
 *     }
 * }
 * }</pre>
 *
 * <h2>Back-pressure</h2>
 * With workers, the query's Gather hands batches over through a queue of {@link #HAND_OVER_BATCHES}
 * batches ({@link BatchHandOver}). When the caller does not take them, the queue fills and the
 * Gather stops reading its channels (without holding a thread), the channels fill, and the workers
 * wait on them: memory stays bounded whatever the size of the result. A waiting worker keeps its
 * dispatcher thread, so a stream left unread holds {@code workers} of the Troupe's worker threads:
 * read it or close it. With 0 workers the query runs lazily on the caller's thread, inside
 * {@code next}, one batch of its pipelines at a time until the last pipeline emits a batch: nothing
 * runs between calls, and pipelines before the last (a hash join's build, a sort) run within the
 * first calls that need them.
 *
 * <h2>Batches</h2>
 * Each batch handed out is the caller's: Troupe keeps no reference to it and never writes it again
 * (ownership passes, nothing is copied), so it stays valid after later calls and after
 * {@link #close()}. Order is that of {@link Troupe#execute}: a plan that sorts at its top streams
 * sorted.
 *
 * <h2>End, failure, timeout, close</h2>
 * {@code next} returns null once every batch was taken and the query finished; with workers, every
 * actor of the query has stopped and its channels are closed by then. A failure (an operator's
 * exception, or the query's own timeout from {@link QueryOptions#timeout()}, which counts from the
 * start, the time the stream waited on its caller included) is thrown by the next call, ahead of
 * batches not yet taken, and by every call after. {@link #close()} before the end cancels the query
 * and waits, bounded, until its actors have stopped, its channels are closed and its memory is back
 * in the arena.
 *
 * <p>Every wait of the caller is bounded ({@link #next(Duration)}, {@link #close()}) or
 * interruptible ({@link #next()}).
 *
 * <p>Not threadsafe: one thread reads a stream at a time; {@link #close()} only from that thread too.
 * {@link #cancel} alone may be called from any thread.
 */
public final class QueryStream implements AutoCloseable {

    /**
     * Batches the hand-over holds at most: enough for the caller to find one ready while the Gather
     * takes in the next, few enough that an unread stream holds little memory.
     */
    public static final int HAND_OVER_BATCHES = 4;

    /** Where the stream stands for its reader. */
    private enum State { OPEN, ENDED, FAILED, CLOSED }

    private final long queryId;
    private final Schema schema;
    private final Cursor cursor;
    private State state = State.OPEN;
    private RuntimeException failure;

    private QueryStream(long queryId, Schema schema, Cursor cursor) {
        this.queryId = queryId;
        this.schema = schema;
        this.cursor = cursor;
    }

    /**
     * A stream fed by the actor executor through {@code handOver}; {@code done} completes once every
     * actor of the query has stopped (exceptionally with its failure), {@code canceller} cancels it.
     */
    static QueryStream parallel(long queryId, Schema schema, BatchHandOver handOver, CompletableFuture<Void> done,
                                Consumer<String> canceller) {
        done.whenComplete((v, e) -> {
            if (e == null) {
                handOver.end();
            } else {
                handOver.fail(e);
            }
        });
        return new QueryStream(queryId, schema, new HandOverCursor(handOver, done, canceller));
    }

    /** A stream that steps {@code run} (made by {@link LocalRun#toOutput}) on the reader's thread (0 workers). */
    static QueryStream local(Schema schema, LocalRun run) {
        return new QueryStream(run.queryId(), schema, new LocalCursor(run));
    }

    public long queryId() {
        return queryId;
    }

    /** The columns of every batch. */
    public Schema schema() {
        return schema;
    }

    /**
     * The next batch, waiting at most {@code timeout}; null once the query has finished and every
     * batch was taken.
     *
     * @throws TimeoutException     when no batch came within {@code timeout}: the query goes on, and
     *                              the stream may be read again or closed
     * @throws InterruptedException when the thread was interrupted while waiting (the stream stays usable)
     * @throws QueryFailedException when the query failed (a {@link QueryCancelledException} for its
     *                              timeout or a cancel); with 0 workers, what the operator threw
     * @throws IllegalStateException after {@link #close()}
     */
    public Batch next(Duration timeout) throws InterruptedException, TimeoutException {
        return next(System.nanoTime() + Math.max(0, timeout.toNanos()));
    }

    /**
     * The next batch, waiting as long as it takes (a query with a timeout fails when it expires); null
     * at the end. Throws as {@link #next(Duration)} does.
     */
    public Batch next() throws InterruptedException {
        try {
            return next(Long.MAX_VALUE);
        } catch (TimeoutException e) {
            throw new IllegalStateException("query " + queryId + ": a wait without a deadline timed out", e);
        }
    }

    /**
     * Every batch not yet taken, as one result (for small results: it holds them all), waiting as long
     * as it takes. Throws as {@link #next(Duration)} does.
     */
    public QueryResult remaining() throws InterruptedException {
        List<Batch> batches = new ArrayList<>();
        for (Batch b = next(); b != null; b = next()) {
            batches.add(b);
        }
        return new QueryResult(schema, batches);
    }

    private Batch next(long deadlineNanos) throws InterruptedException, TimeoutException {
        if (state == State.CLOSED) {
            throw new IllegalStateException("query " + queryId + ": the stream is closed");
        }
        if (state == State.FAILED) {
            throw failure;
        }
        if (state == State.ENDED) {
            return null;
        }
        try {
            Batch batch = cursor.next(deadlineNanos);
            if (batch == null) {
                state = State.ENDED;
            }
            return batch;
        } catch (RuntimeException e) {
            state = State.FAILED;
            failure = e;
            throw e;
        }
    }

    /**
     * Asks the query to stop, from any thread (a JDBC {@code Statement.cancel} while another thread
     * reads): the reader's next call, or the one waiting now, throws a {@link QueryCancelledException}
     * with {@code reason}. Threadsafe; no effect once the query has ended. The reader still closes the
     * stream, which then waits for the query's actors as {@link #close()} says.
     */
    public void cancel(String reason) {
        cursor.cancel(reason);
    }

    /**
     * Cancels the query unless it has finished, and waits, at most
     * {@code ExecutorRuntime.SHUTDOWN_TIMEOUT}, until its actors have stopped and its channels and
     * memory are released. Idempotent. An interrupt ends the wait early (the interrupt stays set).
     */
    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        boolean finished = state != State.OPEN;
        state = State.CLOSED;
        cursor.close(finished);
    }

    // visible for testing: the hand-over of a parallel stream, null with 0 workers
    BatchHandOver handOver() {
        return cursor instanceof HandOverCursor h ? h.handOver : null;
    }

    /** How batches come: from the actor executor's hand-over, or from the leader's own steps. */
    private interface Cursor {
        /** The next batch or null at the end; waits until {@code deadlineNanos} at most. */
        Batch next(long deadlineNanos) throws InterruptedException, TimeoutException;

        /** Releases the query: cancels it first unless it {@code finished}. */
        void close(boolean finished);

        /** Asks the query to stop; threadsafe. */
        void cancel(String reason);
    }

    /** Takes from the Gather's hand-over. */
    private static final class HandOverCursor implements Cursor {
        private final BatchHandOver handOver;
        private final CompletableFuture<Void> done;
        private final Consumer<String> canceller;

        HandOverCursor(BatchHandOver handOver, CompletableFuture<Void> done, Consumer<String> canceller) {
            this.handOver = handOver;
            this.done = done;
            this.canceller = canceller;
        }

        @Override
        public Batch next(long deadlineNanos) throws InterruptedException, TimeoutException {
            // The failure the hand-over throws is the coordinator's: a QueryFailedException.
            return handOver.take(deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime());
        }

        @Override
        public void close(boolean finished) {
            handOver.discard();
            if (!finished) {
                canceller.accept("the stream was closed");
            }
            try {
                done.get(ExecutorRuntime.SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // Cancelled as asked (or failed before): the query has stopped either way, or is past the bound.
            }
        }

        @Override
        public void cancel(String reason) {
            canceller.accept(reason);
        }
    }

    /**
     * The leader alone, lazily: each call steps the query's {@link LocalRun} on the reader's thread
     * until its last pipeline has emitted a batch or the run has ended. The run checks the query's
     * cancel flag and its timeout once per step; this cursor the deadline of the call and the
     * thread's interrupt between steps.
     */
    private static final class LocalCursor implements Cursor {
        private final LocalRun run;

        LocalCursor(LocalRun run) {
            this.run = run;
        }

        @Override
        public Batch next(long deadlineNanos) throws InterruptedException, TimeoutException {
            // At least one step per call, so that even a zero timeout makes progress.
            for (boolean stepped = false; ; stepped = true) {
                Batch batch = run.takeOutput();
                if (batch != null || run.state() == LocalRun.State.ENDED) {
                    return batch;
                }
                if (stepped && deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos >= 0) {
                    throw new TimeoutException("query " + run.queryId() + ": no batch within the time asked");
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException("query " + run.queryId() + ": interrupted while streaming");
                }
                run.step();
            }
        }

        @Override
        public void close(boolean finished) {
            run.stop("the stream was closed");
        }

        @Override
        public void cancel(String reason) {
            run.cancel(reason);
        }
    }
}
