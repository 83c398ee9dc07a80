package io.troupe.formats.parquet;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.Uuids;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.EnumLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntervalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.ListLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.MapLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.StringLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.UUIDLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Parquet's types as Troupe's, exactly (docs/parquet.md has the table): signed integers of 8, 16, 32 and 64 bits as
 * TINYINT, SMALLINT, INTEGER and BIGINT, unsigned ones as the next wider type (an unsigned 64-bit one as
 * DECIMAL(20,0)), so that every value fits, as DuckDB's unsigned types hold theirs; FLOAT as REAL and DOUBLE as
 * DOUBLE; DECIMAL of every encoding (INT32, INT64, BINARY and FIXED_LEN_BYTE_ARRAY) up to 38 digits; STRING, ENUM
 * and JSON as VARCHAR; BINARY and FIXED_LEN_BYTE_ARRAY without an annotation as BLOB, as DuckDB reads them; UUID;
 * DATE; TIME in any unit as TIME (microseconds); TIMESTAMP in any unit as TIMESTAMP WITH TIME ZONE when adjusted to
 * UTC and TIMESTAMP when not, and INT96 timestamps as TIMESTAMP (as DuckDB and Spark read them); INTERVAL (months,
 * days and milliseconds) as INTERVAL. What has no Troupe type yet (nested LIST, MAP and STRUCT columns, FLOAT16,
 * BSON, VARIANT, geometry) is refused naming the column, unless the caller's selection leaves it out. Nanoseconds
 * round to the nearest microsecond, as PostgreSQL rounds fractions of a second it cannot hold, and DuckDB a
 * TIMESTAMP_NS cast to TIMESTAMP.
 *
 * <p>Stateless.
 */
final class ParquetTypes {

    /** A UUID's bytes, big-endian. */
    private static final int UUID_BYTES = 16;
    /** An INTERVAL's bytes: months, days and milliseconds, each an unsigned little-endian 32-bit integer. */
    private static final int INTERVAL_BYTES = 12;
    /** The Julian day of 1970-01-01, the epoch of an INT96 timestamp's day. */
    private static final long JULIAN_EPOCH_DAY = 2_440_588L;

    private ParquetTypes() {
    }

    /**
     * The columns of {@code schema} that {@code selection} names, in its order (null: every top-level column).
     *
     * @throws IllegalArgumentException naming the column that has no Troupe type, or a selected name the file does
     *                                  not have (with the names it has)
     */
    static List<ParquetColumn> columns(MessageType schema, List<String> selection) {
        List<Type> chosen = new ArrayList<>();
        if (selection == null) {
            chosen.addAll(schema.getFields());
        } else {
            for (String name : selection) {
                chosen.add(field(schema, name));
            }
        }
        List<ParquetColumn> columns = new ArrayList<>(chosen.size());
        for (Type type : chosen) {
            if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
                throw refused(type.getName(), nestedKind(type));
            }
            PrimitiveType primitive = type.asPrimitiveType();
            ColumnDescriptor descriptor = schema.getColumnDescription(new String[] {type.getName()});
            columns.add(column(primitive, descriptor));
        }
        return columns;
    }

    private static Type field(MessageType schema, String name) {
        if (schema.containsField(name)) {
            return schema.getType(name);
        }
        List<Type> matches = schema.getFields().stream().filter(f -> f.getName().equalsIgnoreCase(name)).toList();
        if (matches.size() == 1) {
            return matches.get(0);
        }
        throw new IllegalArgumentException("no column " + name + (matches.isEmpty() ? "" : " (it matches "
                + matches.size() + " columns ignoring case)") + "; the file's columns: "
                + String.join(", ", schema.getFields().stream().map(Type::getName).toList()));
    }

    private static String nestedKind(Type type) {
        LogicalTypeAnnotation a = type.getLogicalTypeAnnotation();
        if (a instanceof ListLogicalTypeAnnotation || type.isRepetition(Type.Repetition.REPEATED)) {
            return "LIST";
        }
        return a instanceof MapLogicalTypeAnnotation ? "MAP" : "STRUCT";
    }

    private static IllegalArgumentException refused(String column, String what) {
        return new IllegalArgumentException("column " + column + ": " + what + " is not supported yet");
    }

    private static ParquetColumn column(PrimitiveType type, ColumnDescriptor descriptor) {
        String name = type.getName();
        LogicalTypeAnnotation a = type.getLogicalTypeAnnotation();
        Mapped mapped = switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> new Mapped(DataType.BOOLEAN, (v, out) -> out.appendBoolean(v.getBoolean()));
            case FLOAT -> new Mapped(DataType.FLOAT32, (v, out) -> out.appendDouble(v.getFloat()));
            case DOUBLE -> new Mapped(DataType.FLOAT64, (v, out) -> out.appendDouble(v.getDouble()));
            case INT32 -> int32(name, a);
            case INT64 -> int64(name, a);
            case INT96 -> new Mapped(DataType.TIMESTAMP, (v, out) -> out.appendLong(int96Micros(v.getBinary())));
            case BINARY, FIXED_LEN_BYTE_ARRAY -> bytes(type, a);
        };
        boolean nullable = !type.isRepetition(Type.Repetition.REQUIRED);
        return new ParquetColumn(new Field(null, name, mapped.type, nullable), descriptor, mapped.decoder);
    }

    private static Mapped int32(String name, LogicalTypeAnnotation a) {
        if (a instanceof IntLogicalTypeAnnotation i && !(i.isSigned() && i.getBitWidth() == 32)) {
            return smallInteger(i);
        }
        if (a == null || a instanceof IntLogicalTypeAnnotation) {
            return new Mapped(DataType.INT32, (v, out) -> out.appendInt(v.getInteger()));
        }
        if (a instanceof DecimalLogicalTypeAnnotation d) {
            return new Mapped(decimal(name, d), (v, out) -> out.appendLong(v.getInteger()));
        }
        if (a instanceof DateLogicalTypeAnnotation) {
            return new Mapped(DataType.DATE, (v, out) -> out.appendInt(v.getInteger()));
        }
        if (a instanceof TimeLogicalTypeAnnotation) {
            return new Mapped(DataType.TIME, (v, out) -> out.appendLong(v.getInteger() * 1000L));
        }
        throw refused(name, "INT32 annotated " + a);
    }

    /**
     * An INT32 annotated as a narrower or unsigned integer: the smallest Troupe integer that holds every value
     * (an unsigned one a wider type, as DuckDB's UTINYINT, USMALLINT and UINTEGER hold theirs).
     */
    private static Mapped smallInteger(IntLogicalTypeAnnotation i) {
        if (i.isSigned()) {
            return new Mapped(i.getBitWidth() == 8 ? DataType.INT8 : DataType.INT16,
                    (v, out) -> out.appendInt(v.getInteger()));
        }
        return switch (i.getBitWidth()) {
            case 8 -> new Mapped(DataType.INT16, (v, out) -> out.appendInt(v.getInteger()));
            case 16 -> new Mapped(DataType.INT32, (v, out) -> out.appendInt(v.getInteger()));
            default -> new Mapped(DataType.INT64, (v, out) -> out.appendLong(Integer.toUnsignedLong(v.getInteger())));
        };
    }

    private static Mapped int64(String name, LogicalTypeAnnotation a) {
        if (a == null || a instanceof IntLogicalTypeAnnotation i && i.isSigned()) {
            return new Mapped(DataType.INT64, (v, out) -> out.appendLong(v.getLong()));
        }
        if (a instanceof IntLogicalTypeAnnotation) {
            return new Mapped(DataType.decimal(20, 0), (v, out) -> out.appendInt128(0, v.getLong()));
        }
        if (a instanceof DecimalLogicalTypeAnnotation d) {
            return new Mapped(decimal(name, d), (v, out) -> out.appendLong(v.getLong()));
        }
        if (a instanceof TimestampLogicalTypeAnnotation t) {
            TimeUnit unit = t.getUnit();
            return new Mapped(t.isAdjustedToUTC() ? DataType.TIMESTAMP_TZ : DataType.TIMESTAMP,
                    (v, out) -> out.appendLong(micros(v.getLong(), unit)));
        }
        if (a instanceof TimeLogicalTypeAnnotation t) {
            TimeUnit unit = t.getUnit();
            return new Mapped(DataType.TIME, (v, out) -> out.appendLong(micros(v.getLong(), unit)));
        }
        throw refused(name, "INT64 annotated " + a);
    }

    private static Mapped bytes(PrimitiveType type, LogicalTypeAnnotation a) {
        String name = type.getName();
        if (a instanceof DecimalLogicalTypeAnnotation d) {
            DataType decimal = decimal(name, d);
            if (decimal.isWideDecimal()) {
                return new Mapped(decimal, (v, out) -> {
                    ByteBuffer b = v.getBinary().toByteBuffer();
                    out.appendInt128(high(b), low(b));
                });
            }
            return new Mapped(decimal, (v, out) -> out.appendLong(low(v.getBinary().toByteBuffer())));
        }
        boolean fixed = type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
        if (a instanceof StringLogicalTypeAnnotation || a instanceof EnumLogicalTypeAnnotation
                || a instanceof JsonLogicalTypeAnnotation) {
            return new Mapped(DataType.VARCHAR, (v, out) -> {
                Binary b = v.getBinary();
                out.appendBytes(b.getBytesUnsafe(), 0, b.length());
            });
        }
        if (a == null) {
            return new Mapped(DataType.BLOB, (v, out) -> {
                Binary b = v.getBinary();
                out.appendBytes(b.getBytesUnsafe(), 0, b.length());
            });
        }
        if (a instanceof UUIDLogicalTypeAnnotation && fixed && type.getTypeLength() == UUID_BYTES) {
            return new Mapped(DataType.UUID, (v, out) -> {
                ByteBuffer b = v.getBinary().toByteBuffer();
                UUID uuid = new UUID(b.getLong(b.position()), b.getLong(b.position() + Long.BYTES));
                out.appendInt128(Uuids.high(uuid), Uuids.low(uuid));
            });
        }
        if (a instanceof IntervalLogicalTypeAnnotation && fixed && type.getTypeLength() == INTERVAL_BYTES) {
            return new Mapped(DataType.INTERVAL, (v, out) -> {
                ByteBuffer b = v.getBinary().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                int at = b.position();
                long months = Integer.toUnsignedLong(b.getInt(at));
                long days = Integer.toUnsignedLong(b.getInt(at + 4));
                if (months > Integer.MAX_VALUE || days > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("an INTERVAL of " + months + " months and " + days
                            + " days is past Troupe's INTERVAL (at most " + Integer.MAX_VALUE + " of each)");
                }
                long millis = Integer.toUnsignedLong(b.getInt(at + 8));
                out.appendInt128(Interval.high((int) months, (int) days), millis * 1000L);
            });
        }
        throw refused(name, type.getPrimitiveTypeName() + " annotated " + a);
    }

    private static DataType decimal(String column, DecimalLogicalTypeAnnotation d) {
        if (d.getPrecision() > DataType.MAX_DECIMAL_PRECISION) {
            throw refused(column, "DECIMAL(" + d.getPrecision() + "," + d.getScale() + ") (more than "
                    + DataType.MAX_DECIMAL_PRECISION + " digits)");
        }
        return DataType.decimal(d.getPrecision(), d.getScale());
    }

    /** {@code value} in {@code unit} as microseconds; nanoseconds rounded to the nearest, a half up. */
    static long micros(long value, TimeUnit unit) {
        return switch (unit) {
            case MILLIS -> Math.multiplyExact(value, 1000L);
            case MICROS -> value;
            case NANOS -> nanosToMicros(value);
        };
    }

    private static long nanosToMicros(long nanos) {
        return Math.floorDiv(nanos, 1000L) + (Math.floorMod(nanos, 1000L) >= 500 ? 1 : 0);
    }

    /** An INT96 timestamp (nanoseconds of the day, then the Julian day, little-endian) as microseconds since 1970. */
    static long int96Micros(Binary value) {
        ByteBuffer b = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = b.getLong(b.position());
        long julianDay = Integer.toUnsignedLong(b.getInt(b.position() + 8));
        return (julianDay - JULIAN_EPOCH_DAY) * Timestamps.MICROS_PER_DAY + nanosToMicros(nanosOfDay);
    }

    /** The high word of a big-endian two's-complement integer of up to 16 bytes (longer ones sign-extended). */
    static long high(ByteBuffer bigEndian) {
        int end = bigEndian.limit();
        int start = bigEndian.position();
        long high = start < end && bigEndian.get(start) < 0 ? -1L : 0L;
        for (int i = Math.max(start, end - 16); i < end - 8; i++) {
            high = (high << 8) | (bigEndian.get(i) & 0xFF);
        }
        return high;
    }

    /** The low word of a big-endian two's-complement integer (all of it when it has at most 8 bytes). */
    static long low(ByteBuffer bigEndian) {
        int end = bigEndian.limit();
        int start = bigEndian.position();
        long low = start < end && bigEndian.get(start) < 0 ? -1L : 0L;
        for (int i = Math.max(start, end - 8); i < end; i++) {
            low = (low << 8) | (bigEndian.get(i) & 0xFF);
        }
        return low;
    }

    /** The Troupe type of a column and how its values convert. */
    private record Mapped(DataType type, ColumnDecoder decoder) {
    }
}
