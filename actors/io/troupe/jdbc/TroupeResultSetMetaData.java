package io.troupe.jdbc;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.TypeId;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * The columns of a result (or of a prepared statement's result before it runs): names as the statement
 * names them, types as {@link JdbcTypes} maps them, nullability as Troupe's plan derives it. Immutable.
 */
final class TroupeResultSetMetaData implements ResultSetMetaData {

    private final Schema schema;

    TroupeResultSetMetaData(Schema schema) {
        this.schema = schema;
    }

    private Field field(int column) throws SQLException {
        JdbcErrors.checkIndex("column", column, "the result has", schema.size());
        return schema.field(column - 1);
    }

    private DataType type(int column) throws SQLException {
        return field(column).type();
    }

    @Override
    public int getColumnCount() {
        return schema.size();
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return field(column).name();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return field(column).name();
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return JdbcTypes.code(type(column));
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return JdbcTypes.name(type(column));
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return JdbcTypes.javaClass(type(column)).getName();
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return JdbcTypes.precision(type(column));
    }

    @Override
    public int getScale(int column) throws SQLException {
        return type(column).scale();
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return field(column).nullable() ? columnNullable : columnNoNulls;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return JdbcTypes.signed(type(column));
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        return JdbcTypes.displaySize(type(column));
    }

    /** The table a column was read from, where the plan kept it (a column of a scan), else "". */
    @Override
    public String getTableName(int column) throws SQLException {
        String qualifier = field(column).qualifier();
        return qualifier == null ? "" : qualifier;
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        field(column);
        return "";
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        field(column);
        return "";
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        field(column);
        return false;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return type(column).id() == TypeId.VARCHAR;
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        field(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        field(column);
        return false;
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        field(column);
        return true;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        field(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        field(column);
        return false;
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return JdbcErrors.unwrap(this, type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}
