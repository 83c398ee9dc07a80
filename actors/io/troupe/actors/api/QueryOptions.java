package io.troupe.actors.api;

import java.time.Duration;

/**
 * How to run one query: with how many workers, and for how long at most. Immutable.
 *
 * <pre>{@code
 * troupe.execute(plan, QueryOptions.defaults().withWorkers(4).withTimeout(Duration.ofSeconds(30)));
 * }</pre>
 *
 * @param workers workers per pipeline; 0 runs the query on the caller's thread (the leader alone);
 *                {@link #DEFAULT_WORKERS} takes {@code troupe.workers.default}
 * @param timeout the query is cancelled after this long (a {@code QueryCancelledException}); null for none
 */
public record QueryOptions(int workers, Duration timeout) {

    /** Take the number of workers from {@code troupe.workers.default}. */
    public static final int DEFAULT_WORKERS = -1;
    public static final int MAX_WORKERS = 256;

    public QueryOptions {
        if (workers < DEFAULT_WORKERS || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be in 0.." + MAX_WORKERS + " (or DEFAULT_WORKERS), got " + workers);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
    }

    /** The settings' number of workers, no timeout. */
    public static QueryOptions defaults() {
        return new QueryOptions(DEFAULT_WORKERS, null);
    }

    public QueryOptions withWorkers(int newWorkers) {
        return new QueryOptions(newWorkers, timeout);
    }

    public QueryOptions withTimeout(Duration newTimeout) {
        return new QueryOptions(workers, newTimeout);
    }
}
