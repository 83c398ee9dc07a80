package io.troupe.cli;

import io.troupe.operators.table.Table;

import java.util.List;

/**
 * One engine that {@code troupe bench} times: Troupe itself or a peer. An engine makes a
 * workload's tables and then runs its query with a number of workers (threads, for a peer),
 * returning the wall time and the result's rows and checksum.
 *
 * <p>Not threadsafe: the bench drives its engines from one thread, one query at a time.
 */
interface BenchEngine extends AutoCloseable {

    /** The name in results.csv and in the printed table (troupe, duckdb). */
    String id();

    /** The smallest worker count it runs with: 0 (the leader alone) for Troupe, 1 thread for a peer. */
    int minWorkers();

    /**
     * Makes the workload's tables, replacing older ones: {@code tables} as the bench generated them
     * (Troupe registers them; a peer loads the same values its own way).
     *
     * @param memoryNeed what the workload needs in memory (Troupe's peak, its nodes together), for an
     *                   engine that runs under a share of it ({@code bench --memory}); others ignore it
     */
    void load(BenchWorkload workload, BenchSize size, List<Table> tables, long memoryNeed) throws Exception;

    /** Runs the workload's query with {@code workers}, timing only the query. */
    BenchOutcome run(BenchWorkload workload, int workers) throws Exception;

    /** Frees the workload's tables. */
    void unload(BenchWorkload workload) throws Exception;

    @Override
    void close() throws Exception;
}
