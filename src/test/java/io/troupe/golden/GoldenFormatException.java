package io.troupe.golden;

/**
 * A golden file that cannot be read: bad structure, a bad table value, or plan text that does not
 * parse. The message starts with {@code file:line:} so that an editor jumps to the spot.
 * This is a mistake in the test file, never a Troupe failure.
 */
final class GoldenFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    GoldenFormatException(String file, int line, String message) {
        super(file + ":" + line + ": " + message);
    }
}
