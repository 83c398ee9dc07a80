package io.troupe.jdbc;

import io.troupe.actors.api.QueryRejectedException;
import io.troupe.operators.TroupeException;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.sql.SqlStates;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientException;

/**
 * Troupe's exceptions as JDBC's, each with its message (a SQL error's line, column and caret included) and
 * PostgreSQL's SQLSTATE ({@link SqlStates}: what a SQL statement or query got wrong), with the Troupe exception as
 * cause; the driver's own misuse has the codes of SQL:2016 and ODBC that JDBC drivers use:
 *
 * <pre>
 *   42601  syntax error                                           SQLSyntaxErrorException (class 42)
 *   42P01  unknown table (relation)                               SQLSyntaxErrorException
 *   42703  unknown column (in SQL, or a result set's label)       SQLSyntaxErrorException
 *   42702  ambiguous column, 42803 grouping, 42804 datatype mismatch, 42883 undefined function or operator,
 *   42P07  CREATE TABLE of a name that is taken, 42000 any other statement that does not validate
 *   0A000  what Troupe or this driver does not support            SQLFeatureNotSupportedException
 *   22012  division by zero                                       SQLDataException (class 22)
 *   22003  a number out of its type's range
 *   22P02  a value that does not cast (or fit INSERT's column's type)
 *   22023  a parameter's value that does not fit its type, or a function's argument outside its domain (sqrt(-1))
 *   2201B  a regular expression that does not compile, or that Troupe refuses (a backreference)
 *   22025  a LIKE pattern that ends in its escape character
 *   23502  NULL into a NOT NULL column                            SQLIntegrityConstraintViolationException
 *   21000  a scalar subquery returned more than one row           SQLException
 *   57014  the query was cancelled (SQLTimeoutException when its query timeout passed)
 *   53000  admission turned the query away (memory, queue)        SQLTransientException
 *   XX000  any other failure of the query                          SQLException
 *   07001  a parameter without a value, or too many values        SQLException
 *   07006  a value that does not convert (a getter, a setter)     SQLDataException
 *   07009  a column or parameter index out of range               SQLException
 *   08001  a bad URL or setting, no Troupe of that name           SQLException
 *   08003  the connection, statement or result set is closed      SQLNonTransientConnectionException
 *   24000  a getter before next(), or after it returned false     SQLException
 *   HY009  a null SQL text, HY024 a negative limit or timeout     SQLException
 *   HY000  SQL text given to a PreparedStatement's execute        SQLException
 * </pre>
 */
final class JdbcErrors {

    static final String INVALID_INDEX = "07009";
    static final String NO_VALUE = "07001";
    static final String NOT_CONVERTIBLE = "07006";
    static final String OUT_OF_RANGE = "22003";
    static final String INVALID_PARAMETER = "22023";

    private JdbcErrors() {
    }

    /** {@code e}, thrown by the facade or by a query, as a SQLException. */
    static SQLException of(RuntimeException e) {
        String message = e.getMessage();
        if (e instanceof QueryRejectedException) {
            return new SQLTransientException(message, "53000", e);
        }
        if (e instanceof QueryCancelledException && message != null && message.contains("timed out")) {
            // Both executors say "timed out after N ms" for the query's own timeout, "cancelled: why" otherwise.
            return new SQLTimeoutException(message, "57014", e);
        }
        if (!(e instanceof TroupeException)) {
            return new SQLException(e.toString(), SqlStates.INTERNAL, e);
        }
        String state = SqlStates.of(e);
        return switch (state.substring(0, 2)) {
            case "42" -> new SQLSyntaxErrorException(message, state, e);
            case "0A" -> new SQLFeatureNotSupportedException(message, state, e);
            case "22" -> new SQLDataException(message, state, e);
            case "23" -> new SQLIntegrityConstraintViolationException(message, state, e);
            default -> new SQLException(message, state, e);
        };
    }

    /** A JDBC method this driver does not implement, by name. */
    static SQLFeatureNotSupportedException unsupported(String method) {
        return new SQLFeatureNotSupportedException(method + " is not supported by Troupe's JDBC driver", "0A000");
    }

    /** Any call but close on a closed {@code what} (a connection, a statement, a result set). */
    static SQLException closed(String what) {
        return new SQLNonTransientConnectionException("the " + what + " is closed", "08003");
    }

    /**
     * Throws 07009 unless {@code index} is in 1..{@code count}; {@code what} names the index and {@code whole}
     * what holds it ("column", "the result has"; "parameter", "the statement has").
     */
    static void checkIndex(String what, int index, String whole, int count) throws SQLException {
        if (index < 1 || index > count) {
            throw new SQLException(what + " index " + index + " is out of range: " + whole + " " + count + " "
                    + what + (count == 1 ? "" : "s"), INVALID_INDEX);
        }
    }

    /** {@code self} as {@code type}, as every {@code unwrap} of the driver answers; 0A000 when it is none. */
    static <T> T unwrap(Object self, Class<T> type) throws SQLException {
        if (type.isInstance(self)) {
            return type.cast(self);
        }
        throw new SQLFeatureNotSupportedException("a " + self.getClass().getSimpleName() + " is no " + type.getName(),
                "0A000");
    }

    static SQLDataException data(String message, String state) {
        return new SQLDataException(message, state);
    }
}
