package io.troupe.transport.codec;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

/**
 * The wire layout of one frame: a {@link io.troupe.operators.batch.Batch} or the end of a stream.
 * All integers are little-endian; every section starts at a multiple of {@link #ALIGNMENT} from the
 * frame's start, so that values can be copied in bulk and read in place at natural alignment.
 *
 * <p>Frame header:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      Frame Length (bytes)                     |  0
 *  +---------------+---------------+-------------------------------+
 *  |    Version    |  Frame Type   |         Flags (all 0)         |  4
 *  +---------------+---------------+-------------------------------+
 *  |                           Row Count                           |  8
 *  +---------------------------------------------------------------+
 *  |                          Column Count                         | 12
 *  +---------------------------------------------------------------+
 *  |                 Column Count x Column Section                ...
 * ...                                                              |
 *  +---------------------------------------------------------------+
 * </pre>
 * An end-of-stream frame is the header alone, with row and column counts 0.
 *
 * <p>Column section (row count {@code n}):
 * <pre>
 *  +---------------+---------------+---------------+---------------+
 *  |    Type Id    |   Precision   |     Scale     | Column Flags  |  0   flag bit 0: validity present
 *  +---------------+---------------+---------------+---------------+
 *  |            Variable Length (VARCHAR data bytes, else 0)       |  4
 *  +---------------------------------------------------------------+
 *  |  Validity: words(n) little-endian longs, bit set = valid      |  8   only when the flag is set
 * ...                                                              |
 *  +---------------------------------------------------------------+
 *  |  Values, padded to 8:                                         |
 *  |    INT32, DATE            n x int                             |
 *  |    INT64, DECIMAL, FLOAT64 n x long / double (DECIMAL unscaled)|
 *  |    TIMESTAMP[_TZ], TIME   n x long microseconds               |
 *  |    INTERVAL               n x long high (months, days), then  |
 *  |                           n x long low (microseconds)         |
 *  |    DECIMAL, precision &gt; 18: n x long high, then n x long low |
 *  |                           (the signed 128-bit unscaled value) |
 *  |    BOOLEAN                n x byte (0 or 1)                   |
 *  |    VARCHAR                (n + 1) x int offsets from 0, padded,|
 *  |                           then Variable Length UTF-8 bytes    |
 * ...                                                              |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Immutable constants and pure functions: threadsafe.
 */
public final class BatchDescriptor {

    /** Every section starts at a multiple of this many bytes from the frame's start. */
    public static final int ALIGNMENT = 8;

    /** Written in every frame; a decoder refuses any other. */
    public static final byte VERSION = 1;

    public static final byte BATCH_FRAME = 1;
    public static final byte END_OF_STREAM_FRAME = 2;

    public static final int FRAME_LENGTH_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int FRAME_TYPE_OFFSET = 5;
    public static final int FLAGS_OFFSET = 6;
    public static final int ROW_COUNT_OFFSET = 8;
    public static final int COLUMN_COUNT_OFFSET = 12;
    public static final int HEADER_LENGTH = 16;

    public static final int TYPE_ID_OFFSET = 0;
    public static final int PRECISION_OFFSET = 1;
    public static final int SCALE_OFFSET = 2;
    public static final int COLUMN_FLAGS_OFFSET = 3;
    public static final int VARIABLE_LENGTH_OFFSET = 4;
    public static final int COLUMN_HEADER_LENGTH = 8;

    /** Column flag: a validity bitmap follows the column header. */
    public static final byte VALIDITY_PRESENT = 1;

    /** Wire codes of the types, fixed here so that reordering {@link TypeId} never changes the format. */
    public static final byte INT32_CODE = 1;
    public static final byte INT64_CODE = 2;
    public static final byte FLOAT64_CODE = 3;
    public static final byte DECIMAL_CODE = 4;
    public static final byte DATE_CODE = 5;
    public static final byte BOOLEAN_CODE = 6;
    public static final byte VARCHAR_CODE = 7;
    public static final byte TIMESTAMP_CODE = 8;
    public static final byte TIMESTAMP_TZ_CODE = 9;
    public static final byte TIME_CODE = 10;
    public static final byte INTERVAL_CODE = 11;
    public static final byte INT16_CODE = 12;
    public static final byte INT8_CODE = 13;
    public static final byte FLOAT32_CODE = 14;
    /** UUID and BLOB take 20 and 21, leaving the codes after 11 to the narrower numbers. */
    public static final byte UUID_CODE = 20;
    public static final byte BLOB_CODE = 21;

    private BatchDescriptor() {
    }

    /** {@code length} rounded up to {@link #ALIGNMENT}. */
    public static int align(int length) {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /** Bytes of a validity bitmap for {@code rows} rows. */
    public static int validityLength(int rows) {
        return ((rows + 63) >>> 6) * Long.BYTES;
    }

    /** Bytes per value of a fixed-width type (a DECIMAL's by its precision), 0 for VARCHAR. */
    public static int valueWidth(DataType type) {
        return switch (type.physical()) {
            case INT -> Integer.BYTES;
            case LONG, DOUBLE -> Long.BYTES;
            case INT128 -> 2 * Long.BYTES;
            case BOOLEAN -> 1;
            case BYTES -> 0;
        };
    }

    /**
     * Bytes of one column section: header, validity when present, values, each padded.
     * For VARCHAR, {@code dataBytes} is the length of the UTF-8 bytes; it is ignored otherwise.
     */
    public static int columnLength(DataType type, int rows, boolean validity, int dataBytes) {
        int length = COLUMN_HEADER_LENGTH + (validity ? validityLength(rows) : 0);
        if (type.physical() == PhysicalType.BYTES) {
            return length + align((rows + 1) * Integer.BYTES) + align(dataBytes);
        }
        return length + align(rows * valueWidth(type));
    }

    public static byte typeCode(TypeId id) {
        return switch (id) {
            case INT32 -> INT32_CODE;
            case INT64 -> INT64_CODE;
            case FLOAT64 -> FLOAT64_CODE;
            case DECIMAL -> DECIMAL_CODE;
            case DATE -> DATE_CODE;
            case BOOLEAN -> BOOLEAN_CODE;
            case VARCHAR -> VARCHAR_CODE;
            case TIMESTAMP -> TIMESTAMP_CODE;
            case TIMESTAMP_TZ -> TIMESTAMP_TZ_CODE;
            case TIME -> TIME_CODE;
            case INTERVAL -> INTERVAL_CODE;
            case INT16 -> INT16_CODE;
            case INT8 -> INT8_CODE;
            case FLOAT32 -> FLOAT32_CODE;
            case UUID -> UUID_CODE;
            case BLOB -> BLOB_CODE;
        };
    }

    /** The type a column header names; throws naming the column when the code or decimal is not valid. */
    public static DataType dataType(byte code, int precision, int scale, int column) {
        switch (code) {
            case INT32_CODE:
                return DataType.INT32;
            case INT64_CODE:
                return DataType.INT64;
            case FLOAT64_CODE:
                return DataType.FLOAT64;
            case DECIMAL_CODE:
                try {
                    return DataType.decimal(precision, scale);
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("malformed batch frame: column=" + column + ": "
                            + e.getMessage(), e);
                }
            case DATE_CODE:
                return DataType.DATE;
            case BOOLEAN_CODE:
                return DataType.BOOLEAN;
            case VARCHAR_CODE:
                return DataType.VARCHAR;
            case TIMESTAMP_CODE:
                return DataType.TIMESTAMP;
            case TIMESTAMP_TZ_CODE:
                return DataType.TIMESTAMP_TZ;
            case TIME_CODE:
                return DataType.TIME;
            case INTERVAL_CODE:
                return DataType.INTERVAL;
            case INT16_CODE:
                return DataType.INT16;
            case INT8_CODE:
                return DataType.INT8;
            case FLOAT32_CODE:
                return DataType.FLOAT32;
            case UUID_CODE:
                return DataType.UUID;
            case BLOB_CODE:
                return DataType.BLOB;
            default:
                throw new IllegalStateException("malformed batch frame: column=" + column
                        + ", unknown type code=" + code);
        }
    }
}
