package io.troupe.jdbc;

import io.troupe.actors.api.QueryStream;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Iterator;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A query's rows, forward-only and read-only, as they come from the query's {@link QueryStream} (or, for
 * {@code DatabaseMetaData}, from batches made up front): each {@link #next} takes a row of the batch in
 * hand and pulls the next batch when it runs out, so a result of any size holds one batch at a time and a
 * reader slower than the query holds it back. Getters convert as {@link JdbcValues} says; {@link #getObject}
 * returns the class of the column's type ({@link JdbcTypes#javaClass}).
 *
 * <p>Closing it before the end closes the stream, which cancels the query and waits (bounded) until its
 * memory is back; so does reaching the statement's {@code maxRows}. Its statement closes it on the next
 * execution and on close; {@link TroupeStatement#cancel} cancels its query from another thread, and the
 * reader's next call then throws (SQLState 57014).
 *
 * <p>Not threadsafe: one thread reads it (as its statement's other calls), {@link #cancel} aside.
 */
public final class TroupeResultSet extends ForwardOnlyResultSet {

    /** Where the cursor stands. */
    private enum State { BEFORE_FIRST, ON_ROW, AFTER_LAST, CLOSED }

    /** Where the batches come from. */
    private sealed interface Source permits Streamed, Fixed {
        /** The next batch, or null at the end. */
        Batch next() throws SQLException;

        /** Asks the query to stop; threadsafe. */
        void cancel();

        void close();
    }

    private record Streamed(QueryStream stream) implements Source {
        @Override
        public Batch next() throws SQLException {
            try {
                return stream.next();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("query " + stream.queryId() + ": interrupted while reading its rows", "57014",
                        e);
            } catch (RuntimeException e) {
                throw JdbcErrors.of(e);
            }
        }

        @Override
        public void cancel() {
            stream.cancel("Statement.cancel");
        }

        @Override
        public void close() {
            stream.close();
        }
    }

    private record Fixed(Iterator<Batch> batches) implements Source {
        @Override
        public Batch next() {
            return batches.hasNext() ? batches.next() : null;
        }

        @Override
        public void cancel() {
        }

        @Override
        public void close() {
        }
    }

    private final TroupeStatement statement;
    private final Schema schema;
    private final Source source;
    /** The session's time zone, which times with a zone show in. */
    private final ZoneId zone;
    /** The rows to hand out at most; 0 for all. */
    private final long maxRows;
    private State state = State.BEFORE_FIRST;
    private Batch batch;
    private int index = -1;
    private long row;
    private boolean lastWasNull;
    private int fetchSize;

    private TroupeResultSet(TroupeStatement statement, Schema schema, Source source, long maxRows, ZoneId zone) {
        this.statement = statement;
        this.schema = schema;
        this.source = source;
        this.maxRows = maxRows;
        this.zone = zone;
    }

    /** The rows of {@code stream}, at most {@code maxRows} (0: all), for {@code statement}, times shown in {@code zone}. */
    static TroupeResultSet streamed(TroupeStatement statement, QueryStream stream, long maxRows, ZoneId zone) {
        return new TroupeResultSet(statement, stream.schema(), new Streamed(stream), maxRows, zone);
    }

    /** Rows made up front (a {@code DatabaseMetaData} answer), of no statement; they hold no times with a zone. */
    static TroupeResultSet fixed(Schema schema, List<Batch> batches) {
        return new TroupeResultSet(null, schema, new Fixed(batches.iterator()), 0, ZoneOffset.UTC);
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (state == State.AFTER_LAST) {
            return false;
        }
        if (maxRows > 0 && row == maxRows) {
            return end();
        }
        index++;
        while (batch == null || index >= batch.size()) {
            batch = source.next();
            index = 0;
            if (batch == null) {
                return end();
            }
        }
        row++;
        state = State.ON_ROW;
        return true;
    }

    /** Past the last row: the query is released now rather than at close. */
    private boolean end() {
        state = State.AFTER_LAST;
        batch = null;
        source.close();
        return false;
    }

    /** Cancels the query from any thread ({@link TroupeStatement#cancel}). */
    void cancel() {
        source.cancel();
    }

    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        batch = null;
        source.close();
        if (statement != null) {
            statement.closed(this);
        }
    }

    @Override
    public boolean isClosed() {
        return state == State.CLOSED;
    }

    // ---------------------------------------------------------------- values

    /** The value of {@code column} (1-based) in the current row, boxed as the column's vector holds it. */
    private Object value(int column) throws SQLException {
        checkOpen();
        if (state != State.ON_ROW) {
            throw new SQLException("no current row: " + (state == State.BEFORE_FIRST ? "call next() first"
                    : "next() returned false"), "24000");
        }
        JdbcErrors.checkIndex("column", column, "the result has", schema.size());
        Object v = batch.column(column - 1).getObject(batch.row(index));
        lastWasNull = v == null;
        return v;
    }


    /** "column 2 (amount DECIMAL(12,2))", for conversion errors. */
    private String where(int column) {
        Field f = schema.field(column - 1);
        return "column " + column + " (" + f.name() + " " + f.type() + ")";
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return lastWasNull;
    }

    @Override
    public String getString(int column) throws SQLException {
        return JdbcValues.string(value(column), zone);
    }

    @Override
    public boolean getBoolean(int column) throws SQLException {
        return JdbcValues.bool(value(column), where(column));
    }

    @Override
    public byte getByte(int column) throws SQLException {
        return (byte) JdbcValues.integer(value(column), Byte.MIN_VALUE, Byte.MAX_VALUE, where(column));
    }

    @Override
    public short getShort(int column) throws SQLException {
        return (short) JdbcValues.integer(value(column), Short.MIN_VALUE, Short.MAX_VALUE, where(column));
    }

    @Override
    public int getInt(int column) throws SQLException {
        return (int) JdbcValues.integer(value(column), Integer.MIN_VALUE, Integer.MAX_VALUE, where(column));
    }

    @Override
    public long getLong(int column) throws SQLException {
        return JdbcValues.integer(value(column), Long.MIN_VALUE, Long.MAX_VALUE, where(column));
    }

    @Override
    public float getFloat(int column) throws SQLException {
        return (float) JdbcValues.floating(value(column), where(column));
    }

    @Override
    public double getDouble(int column) throws SQLException {
        return JdbcValues.floating(value(column), where(column));
    }

    @Override
    public BigDecimal getBigDecimal(int column) throws SQLException {
        return JdbcValues.decimal(value(column), where(column));
    }

    @Override
    public byte[] getBytes(int column) throws SQLException {
        return JdbcValues.as(value(column), byte[].class, where(column), zone);
    }

    @Override
    public Date getDate(int column) throws SQLException {
        return JdbcValues.as(value(column), Date.class, where(column), zone);
    }

    /** As {@link #getDate(int)}: a DATE has no time of day, so no time zone moves it. */
    @Override
    public Date getDate(int column, Calendar cal) throws SQLException {
        return getDate(column);
    }

    @Override
    public Time getTime(int column) throws SQLException {
        return JdbcValues.as(value(column), Time.class, where(column), zone);
    }

    @Override
    public Time getTime(int column, Calendar cal) throws SQLException {
        return getTime(column);
    }

    @Override
    public Timestamp getTimestamp(int column) throws SQLException {
        return JdbcValues.as(value(column), Timestamp.class, where(column), zone);
    }

    /**
     * As {@link #getTimestamp(int)}, a TIMESTAMP (or a DATE's midnight), which has no zone, read as the local time
     * in {@code cal}'s zone, as JDBC asks; a TIMESTAMP WITH TIME ZONE is its instant whatever the calendar.
     */
    @Override
    public Timestamp getTimestamp(int column, Calendar cal) throws SQLException {
        Object v = value(column);
        if (cal == null || v == null || v instanceof java.time.Instant) {
            return getTimestamp(column);
        }
        return Timestamp.from(JdbcValues.timestamp(v, where(column), zone).atZone(cal.getTimeZone().toZoneId())
                .toInstant());
    }

    @Override
    public Object getObject(int column) throws SQLException {
        return JdbcValues.object(value(column), zone);
    }

    @Override
    public <T> T getObject(int column, Class<T> type) throws SQLException {
        return JdbcValues.as(value(column), type, where(column), zone);
    }

    /** With an empty map as {@link #getObject(int)}: Troupe has no user-defined types to map. */
    @Override
    public Object getObject(int column, Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw JdbcErrors.unsupported("getObject with a type map");
        }
        return getObject(column);
    }

    @Override
    public Reader getCharacterStream(int column) throws SQLException {
        String s = getString(column);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public String getNString(int column) throws SQLException {
        return getString(column);
    }

    @Override
    public Reader getNCharacterStream(int column) throws SQLException {
        return getCharacterStream(column);
    }

    // ---------------------------------------------------------------- by label

    @Override
    public int findColumn(String label) throws SQLException {
        checkOpen();
        for (int c = 0; c < schema.size(); c++) {
            if (schema.field(c).name().equalsIgnoreCase(label)) {
                return c + 1;
            }
        }
        throw new SQLException("no column '" + label + "' in the result; its columns: " + schema.fields().stream()
                .map(Field::name).collect(Collectors.joining(", ")), "42703");
    }

    @Override
    public String getString(String label) throws SQLException {
        return getString(findColumn(label));
    }

    @Override
    public boolean getBoolean(String label) throws SQLException {
        return getBoolean(findColumn(label));
    }

    @Override
    public byte getByte(String label) throws SQLException {
        return getByte(findColumn(label));
    }

    @Override
    public short getShort(String label) throws SQLException {
        return getShort(findColumn(label));
    }

    @Override
    public int getInt(String label) throws SQLException {
        return getInt(findColumn(label));
    }

    @Override
    public long getLong(String label) throws SQLException {
        return getLong(findColumn(label));
    }

    @Override
    public float getFloat(String label) throws SQLException {
        return getFloat(findColumn(label));
    }

    @Override
    public double getDouble(String label) throws SQLException {
        return getDouble(findColumn(label));
    }

    @Override
    public BigDecimal getBigDecimal(String label) throws SQLException {
        return getBigDecimal(findColumn(label));
    }

    @Override
    public byte[] getBytes(String label) throws SQLException {
        return getBytes(findColumn(label));
    }

    @Override
    public Date getDate(String label) throws SQLException {
        return getDate(findColumn(label));
    }

    @Override
    public Date getDate(String label, Calendar cal) throws SQLException {
        return getDate(findColumn(label), cal);
    }

    @Override
    public Time getTime(String label) throws SQLException {
        return getTime(findColumn(label));
    }

    @Override
    public Time getTime(String label, Calendar cal) throws SQLException {
        return getTime(findColumn(label), cal);
    }

    @Override
    public Timestamp getTimestamp(String label) throws SQLException {
        return getTimestamp(findColumn(label));
    }

    @Override
    public Timestamp getTimestamp(String label, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(label), cal);
    }

    @Override
    public Object getObject(String label) throws SQLException {
        return getObject(findColumn(label));
    }

    @Override
    public <T> T getObject(String label, Class<T> type) throws SQLException {
        return getObject(findColumn(label), type);
    }

    @Override
    public Object getObject(String label, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(label), map);
    }

    @Override
    public Reader getCharacterStream(String label) throws SQLException {
        return getCharacterStream(findColumn(label));
    }

    @Override
    public String getNString(String label) throws SQLException {
        return getNString(findColumn(label));
    }

    @Override
    public Reader getNCharacterStream(String label) throws SQLException {
        return getNCharacterStream(findColumn(label));
    }

    // ---------------------------------------------------------------- the cursor and its settings

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new TroupeResultSetMetaData(schema);
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return state == State.ON_ROW ? (int) Math.min(row, Integer.MAX_VALUE) : 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return state == State.ON_ROW && row == 1;
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return state == State.AFTER_LAST && row > 0;
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
    public int getType() {
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() {
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getFetchDirection() {
        return ResultSet.FETCH_FORWARD;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw JdbcErrors.unsupported("setFetchDirection other than FETCH_FORWARD");
        }
    }

    /** A hint only: the query's batches set how many rows come at a time. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("setFetchSize: rows must not be negative, got " + rows, JdbcErrors.INVALID_INDEX);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() {
        return fetchSize;
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return JdbcErrors.unwrap(this, type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }

    private void checkOpen() throws SQLException {
        if (state == State.CLOSED) {
            throw JdbcErrors.closed("result set");
        }
    }
}
