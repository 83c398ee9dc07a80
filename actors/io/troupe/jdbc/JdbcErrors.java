package io.troupe.jdbc;

import io.troupe.actors.api.QueryRejectedException;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.sql.SqlException;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientException;

/**
 * Troupe's exceptions as JDBC's, each with its message (a SQL error's line, column and caret included) and a
 * SQLState from SQL:2016 and ODBC, as DuckDB and PostgreSQL use them, with the Troupe exception as cause:
 *
 * <pre>
 *   42000  syntax error, or a statement that does not validate   SQLSyntaxErrorException
 *   42S02  unknown table                                          SQLSyntaxErrorException
 *   42S01  CREATE TABLE of a name that is taken                   SQLSyntaxErrorException
 *   42S22  unknown column (in SQL, or a result set's label)       SQLSyntaxErrorException
 *   0A000  what Troupe or this driver does not support            SQLFeatureNotSupportedException
 *   07001  a parameter without a value, or too many values        SQLException
 *   07006  a value that does not convert (a getter, a setter)     SQLDataException
 *   07009  a column or parameter index out of range               SQLException
 *   22003  a number out of its type's range                       SQLDataException
 *   22012  division by zero                                       SQLDataException
 *   22018  a value that does not cast (or fit INSERT's column)    SQLDataException
 *   22023  a parameter's value that does not fit its type, or a   SQLDataException
 *          function's argument outside its domain (sqrt(-1))
 *   21000  a scalar subquery returned more than one row           SQLException
 *   57014  the query was cancelled                                SQLException
 *   HYT00  the statement's query timeout passed                   SQLTimeoutException
 *   53000  admission turned the query away (memory, queue)        SQLTransientException
 *   08001  a bad URL or setting, no Troupe of that name           SQLException
 *   08003  the connection, statement or result set is closed      SQLNonTransientConnectionException
 *   24000  a getter before next(), or after it returned false     SQLException
 *   HY009  a null SQL text, HY024 a negative limit or timeout     SQLException
 *   HY000  SQL text given to a PreparedStatement's execute        SQLException
 *   XX000  any other failure of the query                          SQLException
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
        if (e instanceof SqlException sql) {
            return switch (sql.kind()) {
                case SYNTAX, INVALID -> new SQLSyntaxErrorException(message, "42000", e);
                case UNKNOWN_TABLE -> new SQLSyntaxErrorException(message, "42S02", e);
                case DUPLICATE_TABLE -> new SQLSyntaxErrorException(message, "42S01", e);
                case UNKNOWN_COLUMN -> new SQLSyntaxErrorException(message, "42S22", e);
                case UNSUPPORTED -> new SQLFeatureNotSupportedException(message, "0A000", e);
                case PARAMETER -> new SQLDataException(message, INVALID_PARAMETER, e);
                case VALUE -> new SQLDataException(message, "22018", e);
            };
        }
        if (e instanceof QueryDataException data) {
            return switch (data.kind()) {
                case DIVISION_BY_ZERO -> new SQLDataException(message, "22012", e);
                case OVERFLOW -> new SQLDataException(message, OUT_OF_RANGE, e);
                case INVALID_CAST -> new SQLDataException(message, "22018", e);
                case INVALID_ARGUMENT -> new SQLDataException(message, "22023", e);
                case TOO_MANY_ROWS -> new SQLException(message, "21000", e);
            };
        }
        if (e instanceof QueryCancelledException) {
            // Both executors say "timed out after N ms" for the query's own timeout, "cancelled: why" otherwise.
            return message != null && message.contains("timed out")
                    ? new SQLTimeoutException(message, "HYT00", e) : new SQLException(message, "57014", e);
        }
        if (e instanceof QueryRejectedException) {
            return new SQLTransientException(message, "53000", e);
        }
        if (e instanceof QueryFailedException) {
            return new SQLException(message, "XX000", e);
        }
        return new SQLException(e.toString(), "XX000", e);
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
