package io.troupe.operators.exec;

/**
 * A query failed on a value: a division by zero, a result or sum too large for its type, a value that
 * does not cast, a second row where a scalar subquery may have one. Its {@link Kind} lets a caller act on it
 * without reading the message (a JDBC driver's SQLState: class 22, data exception, or 21, cardinality violation).
 */
public final class QueryDataException extends QueryFailedException {

    /** What the value did. */
    public enum Kind {
        DIVISION_BY_ZERO,
        /** A result, or a sum, does not fit its type. */
        OVERFLOW,
        /** A value does not cast to the type asked for. */
        INVALID_CAST,
        /** A value outside what a function takes: the square root of a negative number, the logarithm of 0. */
        INVALID_ARGUMENT,
        /** A regular expression that does not compile, or uses what Troupe does not read as PostgreSQL does. */
        INVALID_REGULAR_EXPRESSION,
        /** A LIKE pattern that ends in its escape character, or an escape of more than one character. */
        INVALID_ESCAPE,
        /** A scalar subquery returned more than one row (SQL's cardinality violation). */
        TOO_MANY_ROWS
    }

    private final Kind kind;

    public QueryDataException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
