package io.troupe.cli.loadtest;

import io.troupe.cli.BenchOutcome;

import java.util.concurrent.atomic.AtomicReference;

/**
 * What a load test runs its queries on: Troupe, or a peer that runs the queries' SQL.
 *
 * <p>Threadsafe: every client thread calls {@link #run} at once, each with its own client number.
 */
interface LoadTarget {

    /** The name in reports (troupe, duckdb). */
    String id();

    /**
     * Runs {@code query} for client {@code client} (0..clients-1) and reads its whole result. While it
     * runs, {@code inFlight} holds a way to cancel it (cleared before this returns), which a stopped
     * run calls from another thread.
     *
     * @return the result's rows and checksum; its seconds are not used (the load test times the call)
     * @throws Exception how the query failed: a timeout, a cancel, an error of the engine
     */
    BenchOutcome run(LoadQuery query, int client, AtomicReference<Runnable> inFlight) throws Exception;
}
