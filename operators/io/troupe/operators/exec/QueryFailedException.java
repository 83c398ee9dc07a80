package io.troupe.operators.exec;

import io.troupe.operators.TroupeException;

/**
 * A query failed while running: an expression error (division by zero, overflow, a bad cast),
 * a memory budget exceeded, an Error an operator threw (see {@link #caught}), a cancel or a
 * timeout. The message names what failed and where.
 */
public class QueryFailedException extends TroupeException {

    public QueryFailedException(String message) {
        super(Category.QUERY, message);
    }

    public QueryFailedException(String message, Throwable cause) {
        super(Category.QUERY, message, cause);
    }

    /**
     * What an executor reports when {@code where} (a worker's role, the Gather) threw {@code thrown}
     * while running query {@code queryId}: a RuntimeException as it is (it names its own cause);
     * anything else, an Error above all (OutOfMemoryError, StackOverflowError), as a failure of this
     * query that names where and what, with {@code thrown} as its cause. An executor catches every
     * Throwable of the kernel code it runs and fails the query with this, so that an Error ends
     * neither the executor nor the JVM that embeds it. On a heap too full to make that failure,
     * {@code thrown} itself (the executor names it once the query's memory is back).
     */
    public static Throwable caught(long queryId, String where, Throwable thrown) {
        if (thrown instanceof RuntimeException) {
            return thrown;
        }
        try {
            return new QueryFailedException("query " + queryId + " failed in " + where + ": " + thrown, thrown);
        } catch (OutOfMemoryError again) {
            return thrown;
        }
    }
}
