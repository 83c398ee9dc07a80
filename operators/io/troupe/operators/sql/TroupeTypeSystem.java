package io.troupe.operators.sql;

import io.troupe.operators.types.DataType;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.RoundingMode;

/**
 * Calcite's view of Troupe's types, so that the types the validator derives are the ones Troupe's plan
 * nodes compute: times and timestamps of microseconds, decimals of at most 38 digits (a bare DECIMAL one of 18),
 * DuckDB's product of two decimals of at most 18 digits each (at most 18 digits), SUM of integers a BIGINT and
 * of DECIMAL(p,s) a DECIMAL(38,s), AVG a DOUBLE (and so the variances and standard deviations, whose type
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

    /**
     * A TIMESTAMP or TIME without a precision keeps microseconds, as PostgreSQL's: Calcite's default is 0. A bare
     * DECIMAL has 18 digits, held in a long (Calcite's default is the maximum, 38).
     */
    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> DataType.MAX_LONG_PRECISION;
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
            // DuckDB's sum of a REAL is a DOUBLE (PostgreSQL's a REAL).
            case REAL -> factory.createSqlType(SqlTypeName.DOUBLE);
            default -> argument;
        };
        return factory.createTypeWithNullability(sum, argument.isNullable());
    }

    /**
     * DuckDB's product of two decimals: DECIMAL(p1 + p2, s1 + s2) up to 38 digits, except that two operands of at
     * most 18 digits each give at most 18 (checked for overflow at run time) while the scale stays below 18, so that
     * products of prices stay in a long.
     */
    @Override
    public RelDataType deriveDecimalMultiplyType(RelDataTypeFactory factory, RelDataType type1, RelDataType type2) {
        RelDataType product = super.deriveDecimalMultiplyType(factory, type1, type2);
        if (product == null || product.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return product;
        }
        int p1 = type1.getPrecision();
        int p2 = type2.getPrecision();
        int scale = product.getScale();
        if (p1 + p2 > DataType.MAX_LONG_PRECISION && p1 <= DataType.MAX_LONG_PRECISION
                && p2 <= DataType.MAX_LONG_PRECISION && scale < DataType.MAX_LONG_PRECISION) {
            return factory.createTypeWithNullability(
                    factory.createSqlType(SqlTypeName.DECIMAL, DataType.MAX_LONG_PRECISION, scale),
                    product.isNullable());
        }
        return product;
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argument) {
        return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DOUBLE), argument.isNullable());
    }
}
