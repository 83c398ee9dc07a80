package io.troupe.actors.api;

import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.profile.PartProfile;

import java.util.concurrent.CompletableFuture;

/**
 * One node's part of a query spread over nodes, run under EXPLAIN ANALYZE ({@link Troupe#analyzePart}):
 * the running part, and its profile once it has ended. The coordinator of the query merges every node's
 * profile into a {@link io.troupe.operators.profile.SpreadProfile}.
 *
 * <p>Threadsafe.
 */
public final class AnalyzedPart {

    private final RunningQuery query;
    private final CompletableFuture<PartProfile> profile;

    AnalyzedPart(RunningQuery query, CompletableFuture<PartProfile> profile) {
        this.query = query;
        this.profile = profile;
    }

    /** The running part: cancel it, or wait for its rows (the coordinator's: the query's). */
    public RunningQuery query() {
        return query;
    }

    /**
     * Waits for the part to end, and returns its profile.
     *
     * @throws io.troupe.operators.exec.QueryFailedException when the part failed, as {@link RunningQuery#await}
     */
    public PartProfile awaitProfile() {
        QueryResult ignored = query.await();
        return profile.join();
    }
}
