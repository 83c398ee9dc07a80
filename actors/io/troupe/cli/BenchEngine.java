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

    /** The name in results.csv and in the printed table (troupe, duckdb, troupe 2x1). */
    String id();

    /**
     * The worker counts it runs with, of those the bench was given ({@code --workers}): all of them for
     * Troupe (0: the leader alone), those of 1 thread or more for a peer, its own for a cluster.
     */
    List<Integer> workerCounts(List<Integer> asked);

    /** How many node JVMs run its queries: 1 but for a cluster (results.csv's {@code nodes}). */
    default int nodes() {
        return 1;
    }

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
