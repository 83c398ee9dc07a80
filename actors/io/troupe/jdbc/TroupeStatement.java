package io.troupe.jdbc;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.QueryStream;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.sql.SqlStatements;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;

/**
 * Runs SQL queries ({@code SELECT}, {@code WITH}, {@code VALUES}: what {@code Troupe.planSql} plans) and
 * hands out their rows as a {@link TroupeResultSet} that streams them ({@code Troupe.stream}); and CREATE TABLE,
 * INSERT, DROP TABLE and COPY ({@code Troupe.sql}), which {@link #execute} and {@link #executeUpdate} run to
 * their update count (the rows they stored; 0 for CREATE TABLE and DROP TABLE). A statement
 * has one result set open at a time: the next execution, and closing the statement, close it (which
 * cancels its query when rows are left).
 *
 * <p>{@link #setQueryTimeout} becomes the query's own timeout ({@link QueryOptions#withTimeout}), counted
 * from its start to its last row; past it, the reader's next call throws a {@link java.sql.SQLTimeoutException}
 * (HYT00). {@link #setMaxRows} stops the result set after that many rows and cancels the rest of the query
 * ({@code LIMIT} in the statement spares Troupe the work instead). {@link #cancel} cancels the query of the
 * open result set from any thread (a cancel that comes while a statement is still being planned is lost).
 * Batches are not supported: each statement runs on its own.
 *
 * <p>Not threadsafe: one thread at a time uses a statement and its result set, as JDBC code does;
 * {@link #cancel} may come from any thread.
 */
public sealed class TroupeStatement implements Statement permits TroupePreparedStatement {

    /** Open until closed. */
    private enum State { OPEN, CLOSED }

    private final TroupeConnection connection;
    private volatile State state = State.OPEN;
    /** The open result set, or null; volatile for {@link #cancel} from another thread. */
    private volatile TroupeResultSet current;
    /** The last statement's update count while it is the current result, else -1. */
    private long updateCount = -1;
    private long maxRows;
    private int queryTimeoutSeconds;
    private int fetchSize;
    private boolean poolable;
    private boolean closeOnCompletion;

    TroupeStatement(TroupeConnection connection) {
        this.connection = connection;
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw new SQLException("executeQuery: sql is null", "HY009");
        }
        closeCurrent();
        if (!SqlStatements.isQuery(sql)) {
            throw new SQLException("executeQuery: the statement returns no rows (CREATE, DROP, INSERT, COPY); "
                    + "run it with executeUpdate or execute", "HY000");
        }
        Plan plan;
        try {
            plan = connection.troupe().planSql(sql, options());
        } catch (RuntimeException e) {
            throw JdbcErrors.of(e);
        }
        return run(plan);
    }

    /** Starts {@code plan} with this statement's options; its rows become the open result set. */
    final ResultSet run(Plan plan) throws SQLException {
        QueryStream stream;
        try {
            stream = connection.troupe().stream(plan, options());
        } catch (RuntimeException e) {
            throw JdbcErrors.of(e);
        }
        TroupeResultSet rows = TroupeResultSet.streamed(this, stream, maxRows, connection.zone());
        current = rows;
        return rows;
    }

    private QueryOptions options() {
        QueryOptions options = connection.options();
        return queryTimeoutSeconds == 0 ? options : options.withTimeout(Duration.ofSeconds(queryTimeoutSeconds));
    }

    /** True for a query, whose rows are then the result set; false for a statement with an update count. */
    @Override
    public boolean execute(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw new SQLException("execute: sql is null", "HY009");
        }
        if (SqlStatements.isQuery(sql)) {
            executeQuery(sql);
            return true;
        }
        update(sql);
        return false;
    }

    /** Runs a statement that changes tables; its update count becomes the current result. */
    private long update(String sql) throws SQLException {
        closeCurrent();
        if (connection.isReadOnly()) {
            throw new SQLException("cannot execute " + sql.strip().split("\\s+")[0].toUpperCase(Locale.ROOT)
                    + " in a read-only connection (Connection.setReadOnly)", "25006");
        }
        try {
            updateCount = connection.troupe().sql(sql, options()).updateCount().orElseThrow();
        } catch (RuntimeException e) {
            throw JdbcErrors.of(e);
        }
        return updateCount;
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != Statement.NO_GENERATED_KEYS) {
            throw JdbcErrors.unsupported("execute with generated keys");
        }
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        throw JdbcErrors.unsupported("execute with generated keys");
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        throw JdbcErrors.unsupported("execute with generated keys");
    }

    /** The rows the statement stored, at most Integer.MAX_VALUE (executeLargeUpdate tells more). */
    @Override
    public int executeUpdate(String sql) throws SQLException {
        return (int) Math.min(Integer.MAX_VALUE, executeLargeUpdate(sql));
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != Statement.NO_GENERATED_KEYS) {
            throw JdbcErrors.unsupported("executeUpdate with generated keys");
        }
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw JdbcErrors.unsupported("executeUpdate with generated keys");
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        throw JdbcErrors.unsupported("executeUpdate with generated keys");
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw new SQLException("executeUpdate: sql is null", "HY009");
        }
        if (SqlStatements.isQuery(sql)) {
            throw new SQLException("executeUpdate: the statement is a query, which returns rows; run it with "
                    + "executeQuery or execute", "HY000");
        }
        return update(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != Statement.NO_GENERATED_KEYS) {
            throw JdbcErrors.unsupported("executeLargeUpdate with generated keys");
        }
        return executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw JdbcErrors.unsupported("executeLargeUpdate with generated keys");
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        throw JdbcErrors.unsupported("executeLargeUpdate with generated keys");
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        throw updates("addBatch");
    }

    @Override
    public void clearBatch() throws SQLException {
        throw updates("clearBatch");
    }

    @Override
    public int[] executeBatch() throws SQLException {
        throw updates("executeBatch");
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        throw updates("executeLargeBatch");
    }

    static SQLException updates(String method) {
        return JdbcErrors.unsupported(method + " (no batches, and prepared statements are queries: run CREATE, "
                + "INSERT, DROP and COPY one at a time with Statement.executeUpdate)");
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        throw JdbcErrors.unsupported("getGeneratedKeys");
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return current;
    }

    /** The last statement's update count (at most Integer.MAX_VALUE); -1 after a query or getMoreResults. */
    @Override
    public int getUpdateCount() throws SQLException {
        checkOpen();
        return (int) Math.min(Integer.MAX_VALUE, updateCount);
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return updateCount;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(Statement.CLOSE_CURRENT_RESULT);
    }

    /** False: a statement has one result; {@code KEEP_CURRENT_RESULT} leaves it open. */
    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        if (current != Statement.KEEP_CURRENT_RESULT) {
            closeCurrent();
        }
        return false;
    }

    /** Cancels the query of the open result set, from any thread; its reader's next call throws (57014). */
    @Override
    public void cancel() throws SQLException {
        checkOpen();
        TroupeResultSet rows = current;
        if (rows != null) {
            rows.cancel();
        }
    }

    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        closeCurrent();
        connection.closed(this);
    }

    @Override
    public boolean isClosed() {
        return state == State.CLOSED;
    }

    /** Closes the open result set as the statement moves on (its closeOnCompletion does not apply). */
    final void closeCurrent() {
        updateCount = -1;
        TroupeResultSet rows = current;
        current = null;
        if (rows != null) {
            rows.close();
        }
    }

    /** The reader closed {@code rows}: it is no longer the open result set; with closeOnCompletion, this closes. */
    void closed(TroupeResultSet rows) {
        if (current == rows) {
            current = null;
            if (closeOnCompletion) {
                close();
            }
        }
    }

    @Override
    public int getMaxRows() throws SQLException {
        return (int) Math.min(getLargeMaxRows(), Integer.MAX_VALUE);
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw new SQLException("setMaxRows: max must not be negative (0: all rows), got " + max, "HY024");
        }
        maxRows = max;
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeoutSeconds;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw new SQLException("setQueryTimeout: seconds must not be negative (0: none), got " + seconds, "HY024");
        }
        queryTimeoutSeconds = seconds;
    }

    /** 0: values are never cut short. */
    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return 0;
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max != 0) {
            throw JdbcErrors.unsupported("setMaxFieldSize other than 0 (values are never cut short)");
        }
    }

    /** Ignored: statements go to Calcite's parser as written; JDBC escapes ({@code {d '...'}}) are not rewritten. */
    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw JdbcErrors.unsupported("setCursorName");
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw JdbcErrors.unsupported("setFetchDirection other than FETCH_FORWARD");
        }
    }

    @Override
    public int getFetchDirection() {
        return ResultSet.FETCH_FORWARD;
    }

    /** A hint only: the query's batches set how many rows come at a time. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("setFetchSize: rows must not be negative, got " + rows, "HY024");
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() {
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() {
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() {
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return JdbcErrors.unwrap(this, type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }

    final TroupeConnection connection() {
        return connection;
    }

    final void checkOpen() throws SQLException {
        if (state == State.CLOSED) {
            throw JdbcErrors.closed("statement");
        }
    }
}
