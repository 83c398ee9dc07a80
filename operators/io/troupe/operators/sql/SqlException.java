package io.troupe.operators.sql;

import io.troupe.operators.TroupeException;

/**
 * A SQL statement that cannot be planned: a syntax error, an unknown table or column, a type error, or
 * a construct Troupe does not run yet. The message reads as PostgreSQL's, names the line and column (1-based)
 * and, when the position is known, repeats the statement's line with a caret under it, e.g.
 *
 * <pre>
 * relation "ordrs" does not exist (did you mean "orders"?) at line 1, column 15
 *   SELECT * FROM ordrs
 *                 ^
 * </pre>
 *
 * Its {@link #sqlState()} is PostgreSQL's code for what was wrong ({@code 42P01} here).
 */
public final class SqlException extends TroupeException {

    /** What was wrong, for callers that act on it rather than read it; each with PostgreSQL's SQLSTATE. */
    public enum Kind {
        /** The statement does not parse. */
        SYNTAX("42601"),
        /** It names a table the catalog does not hold. */
        UNKNOWN_TABLE("42P01"),
        /** It names a column none of its tables has. */
        UNKNOWN_COLUMN("42703"),
        /** It names a type that SQL, PostgreSQL and DuckDB do not have ({@code CAST(x AS texts)}). */
        UNKNOWN_TYPE("42704"),
        /** It names a column that more than one of its tables has, unqualified. */
        AMBIGUOUS_COLUMN("42702"),
        /** It calls a function or operator that does not exist for its arguments' types, or for their number. */
        UNKNOWN_FUNCTION("42883"),
        /** An expression's type is not the one its place needs (WHERE of an integer, a CASE of text and a number). */
        DATATYPE_MISMATCH("42804"),
        /** A column neither grouped nor aggregated, or an aggregate where none may stand (WHERE). */
        GROUPING("42803"),
        /** It parses, but does not validate otherwise. */
        INVALID("42000"),
        /** Troupe does not run what it asks for yet. */
        UNSUPPORTED("0A000"),
        /** It creates a table whose name is taken. */
        DUPLICATE_TABLE("42P07"),
        /** A value it stores does not fit its column's type (INSERT: a string into an INTEGER). */
        VALUE("22P02"),
        /** A number it writes does not fit any type (a literal of too many digits). */
        OUT_OF_RANGE("22003"),
        /** It stores NULL in a NOT NULL column. */
        NOT_NULL("23502"),
        /** Its parameters' values ({@code ?}) are too few, too many, or do not fit their types. */
        PARAMETER("22023");

        private final String sqlState;

        Kind(String sqlState) {
            this.sqlState = sqlState;
        }

        /** PostgreSQL's SQLSTATE for it. */
        public String sqlState() {
            return sqlState;
        }
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

    /** PostgreSQL's SQLSTATE for what was wrong ({@link Kind#sqlState()}). */
    public String sqlState() {
        return kind.sqlState();
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
