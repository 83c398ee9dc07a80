package io.troupe.operators.expr;

import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.exec.QueryFailedException;

/**
 * Thrown by a function's per-value code for a value outside what the function takes (the square
 * root of a negative number, a power too large for a DOUBLE); the kernel running it turns it into
 * the query's failure with {@link #failure}, which adds the call's text. It carries no stack trace:
 * it is a value's outcome, caught a few frames up.
 *
 * <p>Immutable and threadsafe.
 */
final class DomainException extends RuntimeException {

    private final QueryDataException.Kind kind;

    /**
     * @param kind    {@link QueryDataException.Kind#INVALID_ARGUMENT}, or OVERFLOW for a result out of range
     * @param message what was wrong, as PostgreSQL says it, then the values in parentheses
     */
    DomainException(QueryDataException.Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    /** A value the function does not take. */
    DomainException(String message) {
        this(QueryDataException.Kind.INVALID_ARGUMENT, message);
    }

    /** The query's failure: this message in the call {@code text}. */
    QueryFailedException failure(String text) {
        return new QueryDataException(kind, getMessage() + " in " + text);
    }
}
