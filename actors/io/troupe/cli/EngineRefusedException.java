package io.troupe.cli;

/**
 * An engine that cannot run a workload within the limits the bench gave it (a share of the memory,
 * {@code bench --memory}): DuckDB out of its memory_limit, Troupe over a budget its operators cannot
 * spill below. The bench reports it and goes on without that engine and worker count.
 */
final class EngineRefusedException extends Exception {

    EngineRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
