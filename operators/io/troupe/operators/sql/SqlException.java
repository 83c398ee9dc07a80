package io.troupe.operators.sql;

import io.troupe.operators.TroupeException;

/**
 * A SQL statement that cannot be planned: a syntax error, an unknown table or column, a type error, or
 * a construct Troupe does not run yet. The message names the line and column (1-based) and, when the
 * position is known, repeats the statement's line with a caret under it, e.g.
 *
 * <pre>
 * unknown table 'ordrs' (did you mean 'orders'?) at line 1, column 15
 *   SELECT * FROM ordrs
 *                 ^
 * </pre>
 */
public final class SqlException extends TroupeException {

    /** What was wrong, for callers that act on it (a JDBC driver's SQLState) rather than read it. */
    public enum Kind {
        /** The statement does not parse. */
        SYNTAX,
        /** It names a table the catalog does not hold. */
        UNKNOWN_TABLE,
        /** It names a column none of its tables has. */
        UNKNOWN_COLUMN,
        /** It parses, but does not validate: a type error, a wrong argument, an ambiguous name. */
        INVALID,
        /** Troupe does not run what it asks for yet. */
        UNSUPPORTED,
        /** It creates a table whose name is taken. */
        DUPLICATE_TABLE,
        /** A value it stores does not fit its column (INSERT: a string into an INTEGER, a NULL into NOT NULL). */
        VALUE,
        /** Its parameters' values ({@code ?}) are too few, too many, or do not fit their types. */
        PARAMETER
    }

    private final Kind kind;
    private final int line;
    private final int column;

    SqlException(Kind kind, String message, int line, int column, Throwable cause) {
        super(Category.QUERY, message, cause);
        this.kind = kind;
        this.line = line;
        this.column = column;
    }

    public Kind kind() {
        return kind;
    }

    /** The 1-based line of the error in the statement; 0 when the error has no position. */
    public int line() {
        return line;
    }

    /** The 1-based column of the error in its line; 0 when the error has no position. */
    public int column() {
        return column;
    }
}
