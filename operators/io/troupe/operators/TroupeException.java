package io.troupe.operators;

/**
 * The one exception family of Troupe. Each carries a {@link Category} that tells the caller
 * what to do about it (after Aeron's {@code AeronException.Category}).
 */
public class TroupeException extends RuntimeException {

    /** How bad a failure is. */
    public enum Category {
        /** The engine's state is suspect: close the Troupe. */
        FATAL,
        /** This query (or this call) failed; the engine is fine and the next query may run. */
        QUERY,
        /** Worth reporting; nothing failed. */
        WARN
    }

    private final Category category;

    public TroupeException(Category category, String message) {
        super(message);
        this.category = category;
    }

    public TroupeException(Category category, String message, Throwable cause) {
        super(message, cause);
        this.category = category;
    }

    public Category category() {
        return category;
    }
}
