package io.troupe.jdbc;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;

import java.math.BigDecimal;
import java.sql.Types;

/**
 * How each Troupe type shows in JDBC: its {@link Types} code and name, the Java class of
 * {@code getObject}, and its precision and scale as {@code ResultSetMetaData} and
 * {@code DatabaseMetaData.getColumns} report them (the digits of a number, the characters of a date;
 * {@link Integer#MAX_VALUE} for a VARCHAR, which has no length limit).
 */
final class JdbcTypes {

    /** Decimal digits of a double, as PostgreSQL reports {@code float8}. */
    private static final int DOUBLE_DIGITS = 17;
    /** Decimal digits of a float, as PostgreSQL reports {@code float4}. */
    private static final int FLOAT_DIGITS = 8;
    /** Characters of {@code yyyy-mm-dd}. */
    private static final int DATE_CHARACTERS = 10;
    /** Characters of {@code yyyy-mm-dd hh:mm:ss.ffffff}. */
    private static final int TIMESTAMP_CHARACTERS = 26;
    /** Characters of {@code hh:mm:ss.ffffff}. */
    private static final int TIME_CHARACTERS = 15;
    /** Characters of an offset, {@code +hh:mm}. */
    private static final int OFFSET_CHARACTERS = 6;
    /** Characters of the longest interval, {@code -178956970 years -8 months -2147483648 days -2562047788:00:54.775808}. */
    private static final int INTERVAL_CHARACTERS = 72;
    /** Characters of {@code 8-4-4-4-12} hex digits. */
    private static final int UUID_CHARACTERS = 36;

    private JdbcTypes() {
    }

    /** The {@link Types} code of {@code type}. */
    static int code(DataType type) {
        return switch (type.id()) {
            case INT32 -> Types.INTEGER;
            case INT64 -> Types.BIGINT;
            case FLOAT64 -> Types.DOUBLE;
            case DECIMAL -> Types.DECIMAL;
            case DATE -> Types.DATE;
            case BOOLEAN -> Types.BOOLEAN;
            case VARCHAR -> Types.VARCHAR;
            case TIMESTAMP -> Types.TIMESTAMP;
            case TIMESTAMP_TZ -> Types.TIMESTAMP_WITH_TIMEZONE;
            case TIME -> Types.TIME;
            // As PostgreSQL's driver reports its interval (JDBC has no interval type).
            case INTERVAL -> Types.OTHER;
            case INT16 -> Types.SMALLINT;
            case INT8 -> Types.TINYINT;
            case FLOAT32 -> Types.REAL;
            // As PostgreSQL's driver reports uuid.
            case UUID -> Types.OTHER;
            case BLOB -> Types.VARBINARY;
        };
    }

    /** The SQL name of {@code type} ({@link DataType#sqlName()}), without a precision: {@code DECIMAL}, as JDBC's are. */
    static String name(DataType type) {
        String name = type.sqlName();
        int precision = name.indexOf('(');
        return precision < 0 ? name : name.substring(0, precision);
    }

    /** The class {@code getObject} returns for {@code type}. */
    static Class<?> javaClass(DataType type) {
        return switch (type.id()) {
            case INT32 -> Integer.class;
            case INT64 -> Long.class;
            case FLOAT64 -> Double.class;
            case DECIMAL -> BigDecimal.class;
            case DATE -> java.sql.Date.class;
            case BOOLEAN -> Boolean.class;
            case VARCHAR -> String.class;
            case TIMESTAMP -> java.sql.Timestamp.class;
            case TIMESTAMP_TZ -> java.time.OffsetDateTime.class;
            case TIME -> java.sql.Time.class;
            case INTERVAL -> Interval.class;
            case INT16 -> Short.class;
            case INT8 -> Byte.class;
            case FLOAT32 -> Float.class;
            case UUID -> java.util.UUID.class;
            case BLOB -> byte[].class;
        };
    }

    /** Digits of a number, characters of a date or string, 1 for a boolean. */
    static int precision(DataType type) {
        return switch (type.id()) {
            case INT32 -> 10;
            case INT64 -> 19;
            case FLOAT64 -> DOUBLE_DIGITS;
            case DECIMAL -> type.precision();
            case DATE -> DATE_CHARACTERS;
            case BOOLEAN -> 1;
            case VARCHAR -> Integer.MAX_VALUE;
            case TIMESTAMP -> TIMESTAMP_CHARACTERS;
            case TIMESTAMP_TZ -> TIMESTAMP_CHARACTERS + OFFSET_CHARACTERS;
            case TIME -> TIME_CHARACTERS;
            case INTERVAL -> INTERVAL_CHARACTERS;
            case INT16 -> 5;
            case INT8 -> 3;
            case FLOAT32 -> FLOAT_DIGITS;
            case UUID -> UUID_CHARACTERS;
            case BLOB -> Integer.MAX_VALUE;
        };
    }

    /** Characters the widest value takes printed: the precision, with a sign and a point where they apply. */
    static int displaySize(DataType type) {
        return switch (type.id()) {
            case INT32, INT64, INT16, INT8 -> precision(type) + 1;
            case FLOAT64 -> 24;
            case FLOAT32 -> 15;
            case DECIMAL -> type.precision() + (type.scale() > 0 ? 2 : 1);
            case DATE -> DATE_CHARACTERS;
            case BOOLEAN -> 5;
            case VARCHAR -> Integer.MAX_VALUE;
            case TIMESTAMP, TIMESTAMP_TZ, TIME, INTERVAL, UUID, BLOB -> precision(type);
        };
    }

    static boolean signed(DataType type) {
        return type.isNumeric();
    }
}
