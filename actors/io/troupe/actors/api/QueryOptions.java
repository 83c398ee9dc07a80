package io.troupe.actors.api;

import java.time.Duration;
import java.time.ZoneId;

/**
 * How to run one query: with how many workers, for how long at most, with how much memory, and for SQL in
 * which time zone. Immutable.
 *
 * <pre>{@code
 * troupe.execute(plan, QueryOptions.defaults().withWorkers(4).withTimeout(Duration.ofSeconds(30)));
 * }</pre>
 *
 * @param workers workers per pipeline; 0 runs the query on the caller's thread (the leader alone);
 *                {@link #DEFAULT_WORKERS} takes {@code troupe.workers.default}
 * @param timeout the query is cancelled after this long (a {@code QueryCancelledException}), counted
 *                from its admission (its wait in the queue is bounded by troupe.admission.queue-timeout);
 *                null for none
 * @param memoryBytes bytes of the memory budget set aside for it on admission;
 *                {@link #DEFAULT_MEMORY} takes {@code troupe.admission.query-memory}
 * @param timeZone the zone a SQL statement's times with a zone show and read in (its session's TimeZone);
 *                null takes {@code troupe.sql.time-zone}. A plan carries the zones it needs itself.
 */
public record QueryOptions(int workers, Duration timeout, long memoryBytes, ZoneId timeZone) {

    /** Take the number of workers from {@code troupe.workers.default}. */
    public static final int DEFAULT_WORKERS = -1;
    /** Take the memory set aside on admission from {@code troupe.admission.query-memory}. */
    public static final long DEFAULT_MEMORY = -1;
    public static final int MAX_WORKERS = 256;

    public QueryOptions {
        if (workers < DEFAULT_WORKERS || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be in 0.." + MAX_WORKERS + " (or DEFAULT_WORKERS), got " + workers);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        if (memoryBytes < DEFAULT_MEMORY) {
            throw new IllegalArgumentException("memory must not be negative (or DEFAULT_MEMORY), got " + memoryBytes);
        }
    }

    /** Workers, timeout and memory as given, the settings' time zone. */
    public QueryOptions(int workers, Duration timeout, long memoryBytes) {
        this(workers, timeout, memoryBytes, null);
    }

    /** Workers and timeout as given, the settings' memory and time zone. */
    public QueryOptions(int workers, Duration timeout) {
        this(workers, timeout, DEFAULT_MEMORY);
    }

    /** The settings' number of workers, memory and time zone, no timeout. */
    public static QueryOptions defaults() {
        return new QueryOptions(DEFAULT_WORKERS, null, DEFAULT_MEMORY);
    }

    public QueryOptions withWorkers(int newWorkers) {
        return new QueryOptions(newWorkers, timeout, memoryBytes, timeZone);
    }

    public QueryOptions withTimeout(Duration newTimeout) {
        return new QueryOptions(workers, newTimeout, memoryBytes, timeZone);
    }

    /** The SQL session's time zone for the statements run with these options. */
    public QueryOptions withTimeZone(ZoneId zone) {
        return new QueryOptions(workers, timeout, memoryBytes, zone);
    }

    /**
     * Sets aside {@code bytes} of the memory budget for this query when it is admitted (instead of
     * {@code troupe.admission.query-memory}): it is admitted only once they are free, and is rejected
     * at once when they are more than a query may ever hold.
     */
    public QueryOptions withMemory(long bytes) {
        return new QueryOptions(workers, timeout, bytes, timeZone);
    }
}
