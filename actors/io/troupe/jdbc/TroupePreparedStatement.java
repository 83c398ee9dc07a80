package io.troupe.jdbc;

import io.troupe.actors.api.PreparedSql;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.sql.PreparedPlan;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.Calendar;

/**
 * A query with parameters ({@code ?}) planned once, when it is prepared ({@code Troupe.prepareSql}: Calcite
 * parses, validates and plans it then, so a SQL error comes from {@code prepareStatement}), and run with
 * each execution's values, which only go into the plan ({@code PreparedSql.plan}). Each parameter has the
 * type of where it stands ({@code qty > ?} an INTEGER, see {@link #getParameterMetaData}); a setter's value
 * is converted to it as {@link JdbcValues#parameter} says, when it is set, so a value that does not fit
 * fails at its setter (SQLState 22023, 22003 or 07006). Every parameter needs a value, {@link #setNull}
 * for NULL (07001 names the first one without). Values stay set across executions until
 * {@link #clearParameters}.
 *
 * <p>Not threadsafe, as {@link TroupeStatement}.
 */
public final class TroupePreparedStatement extends TroupeStatement implements PreparedStatement {

    private final PreparedSql prepared;
    /** Each parameter's value, converted to its type; set[i] says whether parameter i + 1 has one. */
    private final Object[] values;
    private final boolean[] set;

    TroupePreparedStatement(TroupeConnection connection, PreparedSql prepared) {
        super(connection);
        this.prepared = prepared;
        this.values = new Object[prepared.prepared().parameterCount()];
        this.set = new boolean[values.length];
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        checkOpen();
        for (int i = 0; i < set.length; i++) {
            if (!set[i]) {
                throw new SQLException("parameter " + (i + 1) + " of " + set.length + " has no value: set it "
                        + "(setNull for NULL)", JdbcErrors.NO_VALUE);
            }
        }
        closeCurrent();
        Plan plan;
        try {
            plan = prepared.plan(values);
        } catch (RuntimeException e) {
            throw JdbcErrors.of(e);
        }
        return run(plan);
    }

    /** True: the statement is a query. */
    @Override
    public boolean execute() throws SQLException {
        executeQuery();
        return true;
    }

    @Override
    public int executeUpdate() throws SQLException {
        throw updates("executeUpdate");
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        throw updates("executeLargeUpdate");
    }

    @Override
    public void addBatch() throws SQLException {
        throw updates("addBatch");
    }

    // A prepared statement runs its own SQL: JDBC refuses the Statement methods that take SQL on it.

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw ownSql("executeQuery(String)");
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        throw ownSql("execute(String)");
    }

    private static SQLException ownSql(String method) {
        return new SQLException(method + " on a PreparedStatement: it runs the SQL it was prepared with; "
                + "call executeQuery()", "HY000");
    }

    /** The columns its result will have, from the plan with NULL for every parameter, without running it. */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        try {
            Plan plan = prepared.plan(new Object[values.length]);
            return new TroupeResultSetMetaData(plan.validate(connection().troupe().catalog()));
        } catch (RuntimeException e) {
            throw JdbcErrors.of(e);
        }
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new TroupeParameterMetaData(prepared.prepared());
    }

    // ---------------------------------------------------------------- values

    /** Sets parameter {@code parameter} (1-based) to {@code value}, converted to its type. */
    private void set(int parameter, Object value) throws SQLException {
        checkOpen();
        PreparedPlan plan = prepared.prepared();
        JdbcErrors.checkIndex("parameter", parameter, "the statement has", values.length);
        values[parameter - 1] = JdbcValues.parameter(value, plan.parameterType(parameter), parameter, connection().zone());
        set[parameter - 1] = true;
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(values, null);
        Arrays.fill(set, false);
    }

    @Override
    public void setNull(int parameter, int sqlType) throws SQLException {
        set(parameter, null);
    }

    @Override
    public void setNull(int parameter, int sqlType, String typeName) throws SQLException {
        set(parameter, null);
    }

    @Override
    public void setBoolean(int parameter, boolean x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setByte(int parameter, byte x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setShort(int parameter, short x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setInt(int parameter, int x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setLong(int parameter, long x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setFloat(int parameter, float x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setDouble(int parameter, double x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setBigDecimal(int parameter, BigDecimal x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setString(int parameter, String x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setNString(int parameter, String x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setBytes(int parameter, byte[] x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setDate(int parameter, Date x) throws SQLException {
        set(parameter, x);
    }

    /** As {@link #setDate(int, Date)}: a DATE has no time zone. */
    @Override
    public void setDate(int parameter, Date x, Calendar cal) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setTime(int parameter, Time x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setTime(int parameter, Time x, Calendar cal) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setTimestamp(int parameter, Timestamp x) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setTimestamp(int parameter, Timestamp x, Calendar cal) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setObject(int parameter, Object x) throws SQLException {
        set(parameter, x);
    }

    /** As {@link #setObject(int, Object)}: the value converts to the parameter's type, whatever the type named. */
    @Override
    public void setObject(int parameter, Object x, int targetSqlType) throws SQLException {
        set(parameter, x);
    }

    @Override
    public void setObject(int parameter, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        set(parameter, x);
    }

    // ---------------------------------------------------------------- types Troupe has no columns of

    @Override
    public void setAsciiStream(int parameter, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("setAsciiStream");
    }

    @Deprecated
    @Override
    public void setUnicodeStream(int parameter, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("setUnicodeStream");
    }

    @Override
    public void setBinaryStream(int parameter, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("setBinaryStream");
    }

    @Override
    public void setCharacterStream(int parameter, Reader x, int length) throws SQLException {
        throw JdbcErrors.unsupported("setCharacterStream");
    }

    @Override
    public void setRef(int parameter, Ref x) throws SQLException {
        throw JdbcErrors.unsupported("setRef");
    }

    @Override
    public void setBlob(int parameter, Blob x) throws SQLException {
        throw JdbcErrors.unsupported("setBlob");
    }

    @Override
    public void setClob(int parameter, Clob x) throws SQLException {
        throw JdbcErrors.unsupported("setClob");
    }

    @Override
    public void setArray(int parameter, Array x) throws SQLException {
        throw JdbcErrors.unsupported("setArray");
    }

    @Override
    public void setURL(int parameter, URL x) throws SQLException {
        throw JdbcErrors.unsupported("setURL");
    }

    @Override
    public void setRowId(int parameter, RowId x) throws SQLException {
        throw JdbcErrors.unsupported("setRowId");
    }

    @Override
    public void setNCharacterStream(int parameter, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("setNCharacterStream");
    }

    @Override
    public void setNClob(int parameter, NClob x) throws SQLException {
        throw JdbcErrors.unsupported("setNClob");
    }

    @Override
    public void setClob(int parameter, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("setClob");
    }

    @Override
    public void setBlob(int parameter, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("setBlob");
    }

    @Override
    public void setNClob(int parameter, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("setNClob");
    }

    @Override
    public void setSQLXML(int parameter, SQLXML x) throws SQLException {
        throw JdbcErrors.unsupported("setSQLXML");
    }

    @Override
    public void setAsciiStream(int parameter, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("setAsciiStream");
    }

    @Override
    public void setBinaryStream(int parameter, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("setBinaryStream");
    }

    @Override
    public void setCharacterStream(int parameter, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("setCharacterStream");
    }

    @Override
    public void setAsciiStream(int parameter, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("setAsciiStream");
    }

    @Override
    public void setBinaryStream(int parameter, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("setBinaryStream");
    }

    @Override
    public void setCharacterStream(int parameter, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("setCharacterStream");
    }

    @Override
    public void setNCharacterStream(int parameter, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("setNCharacterStream");
    }

    @Override
    public void setClob(int parameter, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("setClob");
    }

    @Override
    public void setBlob(int parameter, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("setBlob");
    }

    @Override
    public void setNClob(int parameter, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("setNClob");
    }
}
