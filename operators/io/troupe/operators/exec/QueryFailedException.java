package io.troupe.operators.exec;

import io.troupe.operators.TroupeException;

/**
 * A query failed while running: an expression error (division by zero, overflow, a bad cast),
 * a memory budget exceeded, a cancel or a timeout. The message names what failed and where.
 */
public class QueryFailedException extends TroupeException {

    public QueryFailedException(String message) {
        super(Category.QUERY, message);
    }

    public QueryFailedException(String message, Throwable cause) {
        super(Category.QUERY, message, cause);
    }
}
