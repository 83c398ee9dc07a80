package io.troupe.cli;

/**
 * An engine could not take part in the bench at all (a cluster of {@code bench --nodes} that did not start,
 * or whose query did not reach every node): the bench stops with exit status 1, and the message names the
 * engine and where to look.
 */
final class BenchFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    BenchFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
