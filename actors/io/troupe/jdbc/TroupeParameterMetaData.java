package io.troupe.jdbc;

import io.troupe.operators.sql.PreparedPlan;
import io.troupe.operators.types.DataType;

import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.Types;

/**
 * The parameters of a prepared statement, each with the type Calcite gave it from where it stands. A
 * parameter the plan does not use (the query was rewritten around it) takes any value: its type is
 * {@link Types#OTHER}. Every parameter is an input that may be NULL. Immutable.
 */
final class TroupeParameterMetaData implements ParameterMetaData {

    private final PreparedPlan prepared;

    TroupeParameterMetaData(PreparedPlan prepared) {
        this.prepared = prepared;
    }

    /** The type of {@code parameter}, null for one the plan does not use. */
    private DataType type(int parameter) throws SQLException {
        JdbcErrors.checkIndex("parameter", parameter, "the statement has", prepared.parameterCount());
        return prepared.parameterType(parameter);
    }

    @Override
    public int getParameterCount() {
        return prepared.parameterCount();
    }

    @Override
    public int isNullable(int parameter) throws SQLException {
        type(parameter);
        return parameterNullable;
    }

    @Override
    public boolean isSigned(int parameter) throws SQLException {
        DataType type = type(parameter);
        return type != null && JdbcTypes.signed(type);
    }

    @Override
    public int getPrecision(int parameter) throws SQLException {
        DataType type = type(parameter);
        return type == null ? 0 : JdbcTypes.precision(type);
    }

    @Override
    public int getScale(int parameter) throws SQLException {
        DataType type = type(parameter);
        return type == null ? 0 : type.scale();
    }

    @Override
    public int getParameterType(int parameter) throws SQLException {
        DataType type = type(parameter);
        return type == null ? Types.OTHER : JdbcTypes.code(type);
    }

    @Override
    public String getParameterTypeName(int parameter) throws SQLException {
        DataType type = type(parameter);
        return type == null ? "ANY" : JdbcTypes.name(type);
    }

    @Override
    public String getParameterClassName(int parameter) throws SQLException {
        DataType type = type(parameter);
        return (type == null ? Object.class : JdbcTypes.javaClass(type)).getName();
    }

    @Override
    public int getParameterMode(int parameter) throws SQLException {
        type(parameter);
        return parameterModeIn;
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
