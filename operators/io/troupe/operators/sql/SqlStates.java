package io.troupe.operators.sql;

import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryDataException;

/**
 * The SQLSTATE of a failure, as PostgreSQL's codes name it, for what a SQL user reads (the JDBC driver's
 * {@code SQLException.getSQLState()}, the line {@code bin/troupe sql} prints): a statement that does not plan has
 * its {@link SqlException#sqlState()}; a query that fails on a value, {@code 22012} division by zero, {@code 22003}
 * a number out of its type's range, {@code 22P02} a value that does not cast (invalid text representation),
 * {@code 22023} a function's argument outside its domain ({@code sqrt(-1)}), {@code 2201B} a regular expression
 * that does not compile or that Troupe refuses, {@code 22025} a LIKE pattern ending in its escape character,
 * {@code 21000} a second row from a scalar subquery; a cancelled query {@code 57014}; anything else {@code XX000}
 * (internal error). Stateless.
 */
public final class SqlStates {

    /** Any failure that has no code of its own. */
    public static final String INTERNAL = "XX000";

    private SqlStates() {
    }

    /** PostgreSQL's SQLSTATE for {@code failure}. */
    public static String of(Throwable failure) {
        if (failure instanceof SqlException sql) {
            return sql.sqlState();
        }
        if (failure instanceof QueryDataException data) {
            return switch (data.kind()) {
                case DIVISION_BY_ZERO -> "22012";
                case OVERFLOW -> "22003";
                case INVALID_CAST -> "22P02";
                case INVALID_ARGUMENT -> "22023";
                case INVALID_REGULAR_EXPRESSION -> "2201B";
                case INVALID_ESCAPE -> "22025";
                case TOO_MANY_ROWS -> "21000";
            };
        }
        if (failure instanceof QueryCancelledException) {
            return "57014";
        }
        return INTERNAL;
    }
}
