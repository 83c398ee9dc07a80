package io.troupe.operators.sql;

import io.troupe.operators.types.DataType;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The one mapping between Troupe's column types and Calcite's SQL types, both ways and exact:
 * INT32 = INTEGER, INT16 = SMALLINT, INT8 = TINYINT, INT64 = BIGINT, FLOAT64 = DOUBLE (and FLOAT, which is
 * PostgreSQL's double), FLOAT32 = REAL, DECIMAL(p,s) = DECIMAL(p,s) with p at most 38,
 * DATE, BOOLEAN, VARCHAR, TIMESTAMP = TIMESTAMP(6), TIME = TIME(6), and TIMESTAMP_TZ = TIMESTAMP WITH LOCAL TIME
 * ZONE (Calcite's instant, which PostgreSQL calls TIMESTAMP WITH TIME ZONE; Calcite's TIMESTAMP WITH TIME ZONE,
 * a time and its zone, reads as one too), INTERVAL = every interval type of Calcite's (its year-month and day-time
 * intervals are both Troupe's one INTERVAL of months, days and microseconds), shown to Calcite as INTERVAL DAY TO
 * SECOND, UUID = UUID, BLOB = VARBINARY (its BINARY too, unpadded). Calcite's CHAR is a VARCHAR (Troupe does not
 * pad); any other SQL type has no Troupe type and is refused, naming it.
 */
final class SqlTypes {

    /** Troupe's one INTERVAL, of months, days and microseconds, as Calcite's widest day-time interval. */
    private static final SqlIntervalQualifier DAY_TO_SECOND = new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND,
            SqlParserPos.ZERO);

    private SqlTypes() {
    }

    static RelDataType toSql(DataType type, boolean nullable, RelDataTypeFactory factory) {
        RelDataType sql = switch (type.id()) {
            case INT32 -> factory.createSqlType(SqlTypeName.INTEGER);
            case INT64 -> factory.createSqlType(SqlTypeName.BIGINT);
            case FLOAT64 -> factory.createSqlType(SqlTypeName.DOUBLE);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, type.precision(), type.scale());
            case DATE -> factory.createSqlType(SqlTypeName.DATE);
            case BOOLEAN -> factory.createSqlType(SqlTypeName.BOOLEAN);
            case VARCHAR -> factory.createSqlType(SqlTypeName.VARCHAR);
            case TIMESTAMP -> factory.createSqlType(SqlTypeName.TIMESTAMP, TroupeTypeSystem.MICROSECONDS);
            case TIMESTAMP_TZ -> factory.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                    TroupeTypeSystem.MICROSECONDS);
            case TIME -> factory.createSqlType(SqlTypeName.TIME, TroupeTypeSystem.MICROSECONDS);
            case INTERVAL -> factory.createSqlIntervalType(DAY_TO_SECOND);
            case INT16 -> factory.createSqlType(SqlTypeName.SMALLINT);
            case INT8 -> factory.createSqlType(SqlTypeName.TINYINT);
            case FLOAT32 -> factory.createSqlType(SqlTypeName.REAL);
            case UUID -> factory.createSqlType(SqlTypeName.UUID);
            case BLOB -> factory.createSqlType(SqlTypeName.VARBINARY);
        };
        return factory.createTypeWithNullability(sql, nullable);
    }

    /** @throws UnsupportedSqlException naming the type when Troupe has no such type */
    static DataType toTroupe(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case INTEGER -> DataType.INT32;
            case SMALLINT -> DataType.INT16;
            case TINYINT -> DataType.INT8;
            case BIGINT -> DataType.INT64;
            case DOUBLE, FLOAT -> DataType.FLOAT64;
            case REAL -> DataType.FLOAT32;
            case DECIMAL -> {
                if (type.getPrecision() > DataType.MAX_DECIMAL_PRECISION) {
                    throw new UnsupportedSqlException("type " + type.getFullTypeString() + " (decimals hold at most "
                            + DataType.MAX_DECIMAL_PRECISION + " digits)");
                }
                yield DataType.decimal(type.getPrecision(), type.getScale());
            }
            case DATE -> DataType.DATE;
            case BOOLEAN -> DataType.BOOLEAN;
            case CHAR, VARCHAR -> DataType.VARCHAR;
            case TIMESTAMP -> DataType.TIMESTAMP;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ -> DataType.TIMESTAMP_TZ;
            case TIME -> DataType.TIME;
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH, INTERVAL_DAY, INTERVAL_DAY_HOUR, INTERVAL_DAY_MINUTE,
                    INTERVAL_DAY_SECOND, INTERVAL_HOUR, INTERVAL_HOUR_MINUTE, INTERVAL_HOUR_SECOND, INTERVAL_MINUTE,
                    INTERVAL_MINUTE_SECOND, INTERVAL_SECOND -> DataType.INTERVAL;
            case UUID -> DataType.UUID;
            case BINARY, VARBINARY -> DataType.BLOB;
            // A NULL no context gave a type (SELECT NULL) is text, as PostgreSQL resolves an unknown literal.
            case NULL -> DataType.VARCHAR;
            default -> throw new UnsupportedSqlException("type " + type.getFullTypeString());
        };
    }
}
