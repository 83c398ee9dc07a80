package io.troupe.operators.types;

/**
 * A column's type: a {@link TypeId} plus, for {@code DECIMAL}, its precision and scale.
 * Immutable and threadsafe; compare with {@code equals}.
 *
 * <p>Decimals are scaled integers (value = unscaled / 10^scale) of at most {@value #MAX_DECIMAL_PRECISION} digits,
 * as PostgreSQL's numeric columns in practice and DuckDB's DECIMAL: those of at most {@value #MAX_LONG_PRECISION}
 * digits in a long ({@link PhysicalType#LONG}, the fast path TPC-H and TPC-DS prices take), wider ones in two
 * ({@link PhysicalType#INT128}, a signed 128-bit integer, {@link Int128}).
 */
public record DataType(TypeId id, int precision, int scale) {

    public static final int MAX_DECIMAL_PRECISION = Int128.MAX_DIGITS;
    /** The most digits a decimal held in a long has: every value of 18 digits fits, not every one of 19. */
    public static final int MAX_LONG_PRECISION = 18;

    public static final DataType INT32 = new DataType(TypeId.INT32, 0, 0);
    public static final DataType INT64 = new DataType(TypeId.INT64, 0, 0);
    public static final DataType FLOAT64 = new DataType(TypeId.FLOAT64, 0, 0);
    public static final DataType DATE = new DataType(TypeId.DATE, 0, 0);
    public static final DataType BOOLEAN = new DataType(TypeId.BOOLEAN, 0, 0);
    public static final DataType VARCHAR = new DataType(TypeId.VARCHAR, 0, 0);
    public static final DataType TIMESTAMP = new DataType(TypeId.TIMESTAMP, 0, 0);
    public static final DataType TIMESTAMP_TZ = new DataType(TypeId.TIMESTAMP_TZ, 0, 0);
    public static final DataType TIME = new DataType(TypeId.TIME, 0, 0);
    public static final DataType INTERVAL = new DataType(TypeId.INTERVAL, 0, 0);
    public static final DataType INT16 = new DataType(TypeId.INT16, 0, 0);
    public static final DataType INT8 = new DataType(TypeId.INT8, 0, 0);
    public static final DataType FLOAT32 = new DataType(TypeId.FLOAT32, 0, 0);
    public static final DataType UUID = new DataType(TypeId.UUID, 0, 0);
    public static final DataType BLOB = new DataType(TypeId.BLOB, 0, 0);

    public DataType {
        if (id == TypeId.DECIMAL) {
            if (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision) {
                throw new IllegalArgumentException("invalid decimal: precision=" + precision + ", scale=" + scale
                        + " (need 1 <= precision <= " + MAX_DECIMAL_PRECISION + ", 0 <= scale <= precision)");
            }
        } else if (precision != 0 || scale != 0) {
            throw new IllegalArgumentException(id + " takes no precision or scale");
        }
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(TypeId.DECIMAL, precision, scale);
    }

    public boolean isNumeric() {
        return id.isNumeric();
    }

    /** How the values are laid out in memory: a DECIMAL's by its precision, any other type's by its id. */
    public PhysicalType physical() {
        return isWideDecimal() ? PhysicalType.INT128 : id.physical();
    }

    /** True for a DECIMAL of more than {@value #MAX_LONG_PRECISION} digits, held in 128 bits. */
    public boolean isWideDecimal() {
        return id == TypeId.DECIMAL && precision > MAX_LONG_PRECISION;
    }

    /** True when values are held in a long[] (INT64, DECIMAL of up to 18 digits, TIMESTAMP, TIMESTAMP_TZ, TIME). */
    public boolean isLongBacked() {
        return physical() == PhysicalType.LONG;
    }

    /** True when values are held in an int[] (INT32, INT16, INT8, DATE). */
    public boolean isIntBacked() {
        return physical() == PhysicalType.INT;
    }

    /**
     * Parses the SQL-ish spelling used in schemas and golden files: INT32 (or INT, INTEGER),
     * INT64 (BIGINT), FLOAT64 (DOUBLE), DECIMAL(p,s), DATE, BOOLEAN, VARCHAR, TIMESTAMP,
     * TIMESTAMP_TZ (TIMESTAMPTZ, TIMESTAMP WITH TIME ZONE), TIME, INTERVAL, INT16 (SMALLINT), INT8 (TINYINT: here
     * INT8 is the type's own name, a one-byte integer, where SQL's INT8 is PostgreSQL's BIGINT), FLOAT32 (REAL),
     * UUID, BLOB (BYTEA, VARBINARY, BINARY).
     */
    public static DataType parse(String text) {
        String t = text.trim().toUpperCase(java.util.Locale.ROOT).replaceAll("\\s+", "");
        if (t.startsWith("DECIMAL(") && t.endsWith(")")) {
            String[] ps = t.substring(8, t.length() - 1).split(",");
            if (ps.length == 2) {
                try {
                    return decimal(Integer.parseInt(ps[0]), Integer.parseInt(ps[1]));
                } catch (NumberFormatException e) {
                    // falls through to the error below
                }
            }
            throw new IllegalArgumentException("invalid decimal type: " + text);
        }
        return switch (t) {
            case "INT32", "INT", "INTEGER" -> INT32;
            case "INT64", "BIGINT" -> INT64;
            case "FLOAT64", "DOUBLE" -> FLOAT64;
            case "DATE" -> DATE;
            case "BOOLEAN", "BOOL" -> BOOLEAN;
            case "VARCHAR", "STRING", "TEXT" -> VARCHAR;
            case "TIMESTAMP", "DATETIME", "TIMESTAMPWITHOUTTIMEZONE" -> TIMESTAMP;
            case "TIMESTAMP_TZ", "TIMESTAMPTZ", "TIMESTAMPWITHTIMEZONE" -> TIMESTAMP_TZ;
            case "TIME", "TIMEWITHOUTTIMEZONE" -> TIME;
            case "INTERVAL" -> INTERVAL;
            case "INT16", "SMALLINT" -> INT16;
            case "INT8", "TINYINT" -> INT8;
            case "FLOAT32", "REAL" -> FLOAT32;
            case "UUID" -> UUID;
            case "BLOB", "BYTEA", "VARBINARY", "BINARY", "BYTES" -> BLOB;
            default -> throw new IllegalArgumentException("unknown type: " + text);
        };
    }

    /** The type as SQL spells it (PostgreSQL's names): INTEGER, BIGINT, DOUBLE, DECIMAL(p,s), DATE, BOOLEAN, VARCHAR. */
    public String sqlName() {
        return switch (id) {
            case INT32 -> "INTEGER";
            case INT64 -> "BIGINT";
            case FLOAT64 -> "DOUBLE";
            case INT16 -> "SMALLINT";
            case INT8 -> "TINYINT";
            case FLOAT32 -> "REAL";
            case DECIMAL -> toString();
            case DATE, BOOLEAN, VARCHAR, TIMESTAMP, TIME, INTERVAL, UUID, BLOB -> id.name();
            case TIMESTAMP_TZ -> "TIMESTAMP WITH TIME ZONE";
        };
    }

    @Override
    public String toString() {
        return id == TypeId.DECIMAL ? "DECIMAL(" + precision + "," + scale + ")" : id.name();
    }
}
