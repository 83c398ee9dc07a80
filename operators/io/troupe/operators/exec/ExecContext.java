package io.troupe.operators.exec;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The state of one query execution that every operator may see: its id, its batch size, the
 * values pipelines publish for each other, and the cancel flag.
 *
 * <h2>Concurrency</h2>
 * Threadsafe. {@link #publish} happens before the dependent pipelines start (the executor starts
 * them after the publishing sink's finalize returned), so readers see a complete value.
 * {@link #cancel} may be called from any thread; workers poll {@link #checkCancelled()} once per
 * batch.
 */
public final class ExecContext {

    private final long queryId;
    private final int batchSize;
    private final ConcurrentMap<StateKey<?>, Object> published = new ConcurrentHashMap<>();
    private volatile String cancelReason;

    public ExecContext(long queryId, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
        this.queryId = queryId;
        this.batchSize = batchSize;
    }

    public long queryId() {
        return queryId;
    }

    /** Rows per batch that sources and operators aim for. */
    public int batchSize() {
        return batchSize;
    }

    public <T> void publish(StateKey<T> key, T value) {
        if (published.putIfAbsent(key, key.type().cast(value)) != null) {
            throw new IllegalStateException("published twice: " + key);
        }
    }

    public <T> T lookup(StateKey<T> key) {
        Object value = published.get(key);
        if (value == null) {
            throw new IllegalStateException("not published yet: " + key + " (a pipeline ran before its dependency)");
        }
        return key.type().cast(value);
    }

    /** Asks every worker of this query to stop; the first reason wins. */
    public void cancel(String reason) {
        if (cancelReason == null) {
            cancelReason = reason;
        }
    }

    public boolean isCancelled() {
        return cancelReason != null;
    }

    /** @throws QueryCancelledException when {@link #cancel} was called */
    public void checkCancelled() {
        String reason = cancelReason;
        if (reason != null) {
            throw new QueryCancelledException("query " + queryId + " cancelled: " + reason);
        }
    }
}
