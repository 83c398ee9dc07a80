package io.troupe.cli;

/**
 * Two runs of one workload disagreed on the result's rows or checksum: an engine or a worker count
 * computed a wrong answer, so no timing of that bench means anything. The message names both runs.
 */
public final class BenchMismatchException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    BenchMismatchException(String message) {
        super(message);
    }
}
