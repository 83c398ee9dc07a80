package io.troupe.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * The part of {@link ResultSet} that a forward-only, read-only result set of Troupe's refuses, each method
 * with a {@link java.sql.SQLFeatureNotSupportedException} (SQLState 0A000) that names it: moving the cursor
 * other than forward, every update, and the types Troupe has no columns of (streams of bytes, LOBs, arrays,
 * references, URLs, row ids, XML). Kept apart so that {@link TroupeResultSet} holds only what it does.
 */
abstract sealed class ForwardOnlyResultSet implements ResultSet permits TroupeResultSet {

    // ---------------------------------------------------------------- getters of types Troupe has no columns of

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(int column, int scale) throws SQLException {
        throw JdbcErrors.unsupported("getBigDecimal with a scale (deprecated: use getBigDecimal)");
    }

    @Override
    public InputStream getAsciiStream(int column) throws SQLException {
        throw JdbcErrors.unsupported("getAsciiStream");
    }

    @Deprecated
    @Override
    public InputStream getUnicodeStream(int column) throws SQLException {
        throw JdbcErrors.unsupported("getUnicodeStream");
    }

    @Override
    public InputStream getBinaryStream(int column) throws SQLException {
        throw JdbcErrors.unsupported("getBinaryStream");
    }

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(String label, int scale) throws SQLException {
        throw JdbcErrors.unsupported("getBigDecimal with a scale (deprecated: use getBigDecimal)");
    }

    @Override
    public InputStream getAsciiStream(String label) throws SQLException {
        throw JdbcErrors.unsupported("getAsciiStream");
    }

    @Deprecated
    @Override
    public InputStream getUnicodeStream(String label) throws SQLException {
        throw JdbcErrors.unsupported("getUnicodeStream");
    }

    @Override
    public InputStream getBinaryStream(String label) throws SQLException {
        throw JdbcErrors.unsupported("getBinaryStream");
    }

    @Override
    public String getCursorName() throws SQLException {
        throw JdbcErrors.unsupported("getCursorName");
    }

    @Override
    public Ref getRef(int column) throws SQLException {
        throw JdbcErrors.unsupported("getRef");
    }

    @Override
    public Blob getBlob(int column) throws SQLException {
        throw JdbcErrors.unsupported("getBlob");
    }

    @Override
    public Clob getClob(int column) throws SQLException {
        throw JdbcErrors.unsupported("getClob");
    }

    @Override
    public Array getArray(int column) throws SQLException {
        throw JdbcErrors.unsupported("getArray");
    }

    @Override
    public Ref getRef(String label) throws SQLException {
        throw JdbcErrors.unsupported("getRef");
    }

    @Override
    public Blob getBlob(String label) throws SQLException {
        throw JdbcErrors.unsupported("getBlob");
    }

    @Override
    public Clob getClob(String label) throws SQLException {
        throw JdbcErrors.unsupported("getClob");
    }

    @Override
    public Array getArray(String label) throws SQLException {
        throw JdbcErrors.unsupported("getArray");
    }

    @Override
    public URL getURL(int column) throws SQLException {
        throw JdbcErrors.unsupported("getURL");
    }

    @Override
    public URL getURL(String label) throws SQLException {
        throw JdbcErrors.unsupported("getURL");
    }

    @Override
    public RowId getRowId(int column) throws SQLException {
        throw JdbcErrors.unsupported("getRowId");
    }

    @Override
    public RowId getRowId(String label) throws SQLException {
        throw JdbcErrors.unsupported("getRowId");
    }

    @Override
    public NClob getNClob(int column) throws SQLException {
        throw JdbcErrors.unsupported("getNClob");
    }

    @Override
    public NClob getNClob(String label) throws SQLException {
        throw JdbcErrors.unsupported("getNClob");
    }

    @Override
    public SQLXML getSQLXML(int column) throws SQLException {
        throw JdbcErrors.unsupported("getSQLXML");
    }

    @Override
    public SQLXML getSQLXML(String label) throws SQLException {
        throw JdbcErrors.unsupported("getSQLXML");
    }

    // ---------------------------------------------------------------- moving other than forward

    @Override
    public boolean isBeforeFirst() throws SQLException {
        throw JdbcErrors.unsupported("isBeforeFirst (the result set is forward-only)");
    }

    @Override
    public boolean isLast() throws SQLException {
        throw JdbcErrors.unsupported("isLast (the result set is forward-only)");
    }

    @Override
    public void beforeFirst() throws SQLException {
        throw JdbcErrors.unsupported("beforeFirst (the result set is forward-only)");
    }

    @Override
    public void afterLast() throws SQLException {
        throw JdbcErrors.unsupported("afterLast (the result set is forward-only)");
    }

    @Override
    public boolean first() throws SQLException {
        throw JdbcErrors.unsupported("first (the result set is forward-only)");
    }

    @Override
    public boolean last() throws SQLException {
        throw JdbcErrors.unsupported("last (the result set is forward-only)");
    }

    @Override
    public boolean absolute(int column) throws SQLException {
        throw JdbcErrors.unsupported("absolute (the result set is forward-only)");
    }

    @Override
    public boolean relative(int column) throws SQLException {
        throw JdbcErrors.unsupported("relative (the result set is forward-only)");
    }

    @Override
    public boolean previous() throws SQLException {
        throw JdbcErrors.unsupported("previous (the result set is forward-only)");
    }

    // ---------------------------------------------------------------- updates

    @Override
    public boolean rowUpdated() throws SQLException {
        throw JdbcErrors.unsupported("rowUpdated (Troupe's result sets are read-only)");
    }

    @Override
    public boolean rowInserted() throws SQLException {
        throw JdbcErrors.unsupported("rowInserted (Troupe's result sets are read-only)");
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        throw JdbcErrors.unsupported("rowDeleted (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNull(int column) throws SQLException {
        throw JdbcErrors.unsupported("updateNull (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBoolean(int column, boolean x) throws SQLException {
        throw JdbcErrors.unsupported("updateBoolean (Troupe's result sets are read-only)");
    }

    @Override
    public void updateByte(int column, byte x) throws SQLException {
        throw JdbcErrors.unsupported("updateByte (Troupe's result sets are read-only)");
    }

    @Override
    public void updateShort(int column, short x) throws SQLException {
        throw JdbcErrors.unsupported("updateShort (Troupe's result sets are read-only)");
    }

    @Override
    public void updateInt(int column, int x) throws SQLException {
        throw JdbcErrors.unsupported("updateInt (Troupe's result sets are read-only)");
    }

    @Override
    public void updateLong(int column, long x) throws SQLException {
        throw JdbcErrors.unsupported("updateLong (Troupe's result sets are read-only)");
    }

    @Override
    public void updateFloat(int column, float x) throws SQLException {
        throw JdbcErrors.unsupported("updateFloat (Troupe's result sets are read-only)");
    }

    @Override
    public void updateDouble(int column, double x) throws SQLException {
        throw JdbcErrors.unsupported("updateDouble (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBigDecimal(int column, BigDecimal x) throws SQLException {
        throw JdbcErrors.unsupported("updateBigDecimal (Troupe's result sets are read-only)");
    }

    @Override
    public void updateString(int column, String x) throws SQLException {
        throw JdbcErrors.unsupported("updateString (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBytes(int column, byte[] x) throws SQLException {
        throw JdbcErrors.unsupported("updateBytes (Troupe's result sets are read-only)");
    }

    @Override
    public void updateDate(int column, Date x) throws SQLException {
        throw JdbcErrors.unsupported("updateDate (Troupe's result sets are read-only)");
    }

    @Override
    public void updateTime(int column, Time x) throws SQLException {
        throw JdbcErrors.unsupported("updateTime (Troupe's result sets are read-only)");
    }

    @Override
    public void updateTimestamp(int column, Timestamp x) throws SQLException {
        throw JdbcErrors.unsupported("updateTimestamp (Troupe's result sets are read-only)");
    }

    @Override
    public void updateAsciiStream(int column, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("updateAsciiStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBinaryStream(int column, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("updateBinaryStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateCharacterStream(int column, Reader x, int length) throws SQLException {
        throw JdbcErrors.unsupported("updateCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateObject(int column, Object x, int length) throws SQLException {
        throw JdbcErrors.unsupported("updateObject (Troupe's result sets are read-only)");
    }

    @Override
    public void updateObject(int column, Object x) throws SQLException {
        throw JdbcErrors.unsupported("updateObject (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNull(String label) throws SQLException {
        throw JdbcErrors.unsupported("updateNull (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBoolean(String label, boolean x) throws SQLException {
        throw JdbcErrors.unsupported("updateBoolean (Troupe's result sets are read-only)");
    }

    @Override
    public void updateByte(String label, byte x) throws SQLException {
        throw JdbcErrors.unsupported("updateByte (Troupe's result sets are read-only)");
    }

    @Override
    public void updateShort(String label, short x) throws SQLException {
        throw JdbcErrors.unsupported("updateShort (Troupe's result sets are read-only)");
    }

    @Override
    public void updateInt(String label, int x) throws SQLException {
        throw JdbcErrors.unsupported("updateInt (Troupe's result sets are read-only)");
    }

    @Override
    public void updateLong(String label, long x) throws SQLException {
        throw JdbcErrors.unsupported("updateLong (Troupe's result sets are read-only)");
    }

    @Override
    public void updateFloat(String label, float x) throws SQLException {
        throw JdbcErrors.unsupported("updateFloat (Troupe's result sets are read-only)");
    }

    @Override
    public void updateDouble(String label, double x) throws SQLException {
        throw JdbcErrors.unsupported("updateDouble (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBigDecimal(String label, BigDecimal x) throws SQLException {
        throw JdbcErrors.unsupported("updateBigDecimal (Troupe's result sets are read-only)");
    }

    @Override
    public void updateString(String label, String x) throws SQLException {
        throw JdbcErrors.unsupported("updateString (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBytes(String label, byte[] x) throws SQLException {
        throw JdbcErrors.unsupported("updateBytes (Troupe's result sets are read-only)");
    }

    @Override
    public void updateDate(String label, Date x) throws SQLException {
        throw JdbcErrors.unsupported("updateDate (Troupe's result sets are read-only)");
    }

    @Override
    public void updateTime(String label, Time x) throws SQLException {
        throw JdbcErrors.unsupported("updateTime (Troupe's result sets are read-only)");
    }

    @Override
    public void updateTimestamp(String label, Timestamp x) throws SQLException {
        throw JdbcErrors.unsupported("updateTimestamp (Troupe's result sets are read-only)");
    }

    @Override
    public void updateAsciiStream(String label, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("updateAsciiStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBinaryStream(String label, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("updateBinaryStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateCharacterStream(String label, Reader x, int length) throws SQLException {
        throw JdbcErrors.unsupported("updateCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateObject(String label, Object x, int length) throws SQLException {
        throw JdbcErrors.unsupported("updateObject (Troupe's result sets are read-only)");
    }

    @Override
    public void updateObject(String label, Object x) throws SQLException {
        throw JdbcErrors.unsupported("updateObject (Troupe's result sets are read-only)");
    }

    @Override
    public void insertRow() throws SQLException {
        throw JdbcErrors.unsupported("insertRow (Troupe's result sets are read-only)");
    }

    @Override
    public void updateRow() throws SQLException {
        throw JdbcErrors.unsupported("updateRow (Troupe's result sets are read-only)");
    }

    @Override
    public void deleteRow() throws SQLException {
        throw JdbcErrors.unsupported("deleteRow (Troupe's result sets are read-only)");
    }

    @Override
    public void refreshRow() throws SQLException {
        throw JdbcErrors.unsupported("refreshRow (Troupe's result sets are read-only)");
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        throw JdbcErrors.unsupported("cancelRowUpdates (Troupe's result sets are read-only)");
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        throw JdbcErrors.unsupported("moveToInsertRow (Troupe's result sets are read-only)");
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        throw JdbcErrors.unsupported("moveToCurrentRow (Troupe's result sets are read-only)");
    }

    @Override
    public void updateRef(int column, Ref x) throws SQLException {
        throw JdbcErrors.unsupported("updateRef (Troupe's result sets are read-only)");
    }

    @Override
    public void updateRef(String label, Ref x) throws SQLException {
        throw JdbcErrors.unsupported("updateRef (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBlob(int column, Blob x) throws SQLException {
        throw JdbcErrors.unsupported("updateBlob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBlob(String label, Blob x) throws SQLException {
        throw JdbcErrors.unsupported("updateBlob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateClob(int column, Clob x) throws SQLException {
        throw JdbcErrors.unsupported("updateClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateClob(String label, Clob x) throws SQLException {
        throw JdbcErrors.unsupported("updateClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateArray(int column, Array x) throws SQLException {
        throw JdbcErrors.unsupported("updateArray (Troupe's result sets are read-only)");
    }

    @Override
    public void updateArray(String label, Array x) throws SQLException {
        throw JdbcErrors.unsupported("updateArray (Troupe's result sets are read-only)");
    }

    @Override
    public void updateRowId(int column, RowId x) throws SQLException {
        throw JdbcErrors.unsupported("updateRowId (Troupe's result sets are read-only)");
    }

    @Override
    public void updateRowId(String label, RowId x) throws SQLException {
        throw JdbcErrors.unsupported("updateRowId (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNString(int column, String x) throws SQLException {
        throw JdbcErrors.unsupported("updateNString (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNString(String label, String x) throws SQLException {
        throw JdbcErrors.unsupported("updateNString (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNClob(int column, NClob x) throws SQLException {
        throw JdbcErrors.unsupported("updateNClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNClob(String label, NClob x) throws SQLException {
        throw JdbcErrors.unsupported("updateNClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateSQLXML(int column, SQLXML x) throws SQLException {
        throw JdbcErrors.unsupported("updateSQLXML (Troupe's result sets are read-only)");
    }

    @Override
    public void updateSQLXML(String label, SQLXML x) throws SQLException {
        throw JdbcErrors.unsupported("updateSQLXML (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNCharacterStream(int column, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateNCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNCharacterStream(String label, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateNCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateAsciiStream(int column, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateAsciiStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBinaryStream(int column, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateBinaryStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateCharacterStream(int column, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateAsciiStream(String label, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateAsciiStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBinaryStream(String label, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateBinaryStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateCharacterStream(String label, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBlob(int column, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateBlob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBlob(String label, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateBlob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateClob(int column, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateClob(String label, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNClob(int column, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateNClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNClob(String label, Reader x, long length) throws SQLException {
        throw JdbcErrors.unsupported("updateNClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNCharacterStream(int column, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("updateNCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNCharacterStream(String label, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("updateNCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateAsciiStream(int column, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("updateAsciiStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBinaryStream(int column, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("updateBinaryStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateCharacterStream(int column, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("updateCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateAsciiStream(String label, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("updateAsciiStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBinaryStream(String label, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("updateBinaryStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateCharacterStream(String label, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("updateCharacterStream (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBlob(int column, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("updateBlob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateBlob(String label, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("updateBlob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateClob(int column, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("updateClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateClob(String label, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("updateClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNClob(int column, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("updateNClob (Troupe's result sets are read-only)");
    }

    @Override
    public void updateNClob(String label, Reader x) throws SQLException {
        throw JdbcErrors.unsupported("updateNClob (Troupe's result sets are read-only)");
    }
}
