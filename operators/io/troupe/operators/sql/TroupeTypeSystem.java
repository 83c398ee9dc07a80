package io.troupe.operators.sql;

import io.troupe.operators.types.DataType;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.RoundingMode;

/**
 * Calcite's view of Troupe's types, so that the types the validator derives are the ones Troupe's plan
 * nodes compute: times and timestamps of microseconds, decimals of at most 18 digits (a long's unscaled value), SUM of integers a BIGINT and
 * of DECIMAL(p,s) a DECIMAL(18,s), AVG a DOUBLE (and so the variances and standard deviations, whose type
 * Calcite derives as AVG's), VARCHAR without a length, and CASE/UNION over strings of
 * different lengths a VARCHAR rather than a blank-padded CHAR. Calcite 1.42 made
 * {@code getMaxNumericPrecision/Scale} final (CALCITE-7351): the decimal bounds are set through
 * {@link #getMaxPrecision} and {@link #getMaxScale} instead.
 */
final class TroupeTypeSystem extends RelDataTypeSystemImpl {

    static final TroupeTypeSystem INSTANCE = new TroupeTypeSystem();

    /** The fractional digits of a second that Troupe's times hold, and their default precision (PostgreSQL's). */
    static final int MICROSECONDS = 6;

    private TroupeTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> DataType.MAX_DECIMAL_PRECISION;
            case VARCHAR, CHAR -> Integer.MAX_VALUE;
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ, TIME, TIME_WITH_LOCAL_TIME_ZONE, TIME_TZ ->
                    MICROSECONDS;
            default -> super.getMaxPrecision(typeName);
        };
    }

    /** A TIMESTAMP or TIME without a precision keeps microseconds, as PostgreSQL's: Calcite's default is 0. */
    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ, TIME, TIME_WITH_LOCAL_TIME_ZONE, TIME_TZ ->
                    MICROSECONDS;
            default -> super.getDefaultPrecision(typeName);
        };
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? DataType.MAX_DECIMAL_PRECISION : super.getMaxScale(typeName);
    }

    /**
     * Half away from zero, as PostgreSQL and DuckDB round a numeric literal that a cast narrows ({@code CAST(3.7 AS
     * INTEGER)} is 4); Calcite folds such casts itself, by default truncating.
     */
    @Override
    public RoundingMode roundingMode() {
        return RoundingMode.HALF_UP;
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argument) {
        RelDataType sum = switch (argument.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, DataType.MAX_DECIMAL_PRECISION,
                    argument.getScale());
            default -> argument;
        };
        return factory.createTypeWithNullability(sum, argument.isNullable());
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argument) {
        return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DOUBLE), argument.isNullable());
    }
}
