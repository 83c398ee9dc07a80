package io.troupe.operators.sort;

import java.util.ArrayList;
import java.util.List;

/**
 * What one worker of a sort produced: the runs it spilled, in the order it wrote them, and the run
 * it sorted at the end and kept in memory (none when its last rows went to a spill file too, or it
 * had none left). A worker that never spilled has exactly one run, in memory.
 *
 * <p>Made by the worker's {@link RunBuilder} at its finish; the sink's finalize work may then merge
 * its spilled runs into fewer ({@link ExternalMerge#reduce}, one worker per {@code WorkerRuns}, which
 * replaces {@link #spilled()}'s contents); read-only once the sink published its result.
 */
final class WorkerRuns {

    private final SortedRun inMemory;
    private final List<SpilledRun> spilled;

    /**
     * @param inMemory the run kept in memory, or null
     * @param spilled  the runs written to spill files (copied)
     */
    WorkerRuns(SortedRun inMemory, List<SpilledRun> spilled) {
        this.inMemory = inMemory;
        this.spilled = new ArrayList<>(spilled);
    }

    /** One run kept in memory, nothing spilled. */
    static WorkerRuns inMemory(SortedRun run) {
        return new WorkerRuns(run, List.of());
    }

    /** The run kept in memory, or null. */
    SortedRun inMemoryRun() {
        return inMemory;
    }

    /** The spilled runs; the finalize work merges them in place, nobody else changes them. */
    List<SpilledRun> spilled() {
        return spilled;
    }

    boolean hasSpilled() {
        return !spilled.isEmpty();
    }

    /** Rows in its runs. */
    long rows() {
        long rows = inMemory == null ? 0 : inMemory.size();
        for (SpilledRun run : spilled) {
            rows += run.rows();
        }
        return rows;
    }
}
