package io.troupe.actors.api;

import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import static io.troupe.operators.Arguments.notNull;

/**
 * A query submitted with {@link Troupe#submit}: its result to come, and a way to cancel it.
 *
 * <p>The future completes only once every actor of the query has stopped and its channels are
 * closed, with the result, or exceptionally with a {@link QueryFailedException} (a
 * {@link QueryCancelledException} for a cancel or a timeout). Cancelling the future itself
 * ({@code result().cancel(true)}) also cancels the query, but returns before its actors have
 * stopped; {@link #cancel(String)} followed by {@link #await()} waits for them.
 *
 * <p>Threadsafe.
 */
public final class RunningQuery {

    private final long queryId;
    private final CompletableFuture<QueryResult> result;
    private final Consumer<String> canceller;

    RunningQuery(long queryId, CompletableFuture<QueryResult> result, Consumer<String> canceller) {
        this.queryId = queryId;
        this.result = result;
        this.canceller = canceller;
        result.whenComplete((r, e) -> {
            if (result.isCancelled()) {
                canceller.accept("the caller cancelled its future");
            }
        });
    }

    public long queryId() {
        return queryId;
    }

    public CompletableFuture<QueryResult> result() {
        return result;
    }

    /** Asks the query to stop (idempotent; no effect once it has finished). */
    public void cancel(String reason) {
        canceller.accept(notNull(reason, "RunningQuery.cancel", "reason"));
    }

    /**
     * Waits for the result.
     *
     * @throws QueryFailedException when the query failed (the first cause), was cancelled or timed out;
     *         the leader alone rethrows what its operators threw, as before
     */
    public QueryResult await() {
        try {
            return result.join();
        } catch (CancellationException e) {
            throw new QueryCancelledException("query " + queryId + " cancelled: the caller cancelled its future");
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException failed) {
                throw failed;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new QueryFailedException("query " + queryId + " failed: " + cause, cause);
        }
    }
}
