package io.troupe.transport.codec;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

import static io.troupe.transport.codec.BatchDescriptor.ALIGNMENT;
import static io.troupe.transport.codec.BatchDescriptor.BATCH_FRAME;
import static io.troupe.transport.codec.BatchDescriptor.COLUMN_COUNT_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.COLUMN_FLAGS_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.COLUMN_HEADER_LENGTH;
import static io.troupe.transport.codec.BatchDescriptor.END_OF_STREAM_FRAME;
import static io.troupe.transport.codec.BatchDescriptor.FLAGS_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.FRAME_LENGTH_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.FRAME_TYPE_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.HEADER_LENGTH;
import static io.troupe.transport.codec.BatchDescriptor.PRECISION_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.ROW_COUNT_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.SCALE_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.TYPE_ID_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.VALIDITY_PRESENT;
import static io.troupe.transport.codec.BatchDescriptor.VARIABLE_LENGTH_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.VERSION;
import static io.troupe.transport.codec.BatchDescriptor.VERSION_OFFSET;
import static io.troupe.transport.codec.BatchDescriptor.align;
import static io.troupe.transport.codec.BatchDescriptor.validityLength;

/**
 * Encodes the live rows of a {@link Batch} into an Agrona buffer in the layout of
 * {@link BatchDescriptor}, and decodes such a frame into a new dense batch.
 *
 * <pre>{@code
 * int length = BatchCodec.encodedLength(batch, 0, batch.size());
 * BatchCodec.encode(batch, 0, batch.size(), buffer, offset);   // buffer has length bytes at offset
 * Batch copy = BatchCodec.decode(buffer, offset, length);
 * }</pre>
 *
 * <p>Encoding reads a batch's selection while it writes (no compaction first): a dense run of rows
 * goes out as one bulk copy per column, a selected one row by row into the buffer. Decoding
 * allocates one array per column section (values; VARCHAR: offsets and bytes; validity when
 * present) and fills each with one bulk copy; nothing is allocated per value.
 *
 * <p>A range {@code [from, to)} of live rows may be encoded on its own, so that a channel can
 * split a batch that exceeds its largest message.
 *
 * <p>Stateless: threadsafe. Bulk copies go through Agrona's {@link UnsafeApi} after one bounds check
 * per section; the wire is little-endian, so the codec needs a little-endian platform (every
 * platform Aeron ships for).
 */
public final class BatchCodec {

    private static final long INT_BASE = UnsafeApi.arrayBaseOffset(int[].class);
    private static final long LONG_BASE = UnsafeApi.arrayBaseOffset(long[].class);
    private static final long DOUBLE_BASE = UnsafeApi.arrayBaseOffset(double[].class);
    private static final long BYTE_BASE = UnsafeApi.arrayBaseOffset(byte[].class);

    static {
        if (BufferUtil.NATIVE_BYTE_ORDER != ByteOrder.LITTLE_ENDIAN) {
            throw new IllegalStateException("BatchCodec copies values in bulk and needs a little-endian platform, got "
                    + BufferUtil.NATIVE_BYTE_ORDER);
        }
    }

    private BatchCodec() {
    }

    /** Bytes that {@link #encode} writes for live rows {@code [from, to)} of {@code batch}. */
    public static int encodedLength(Batch batch, int from, int to) {
        checkRange(batch, from, to);
        int rows = to - from;
        long length = HEADER_LENGTH;
        int[] selection = batch.selection();
        for (int c = 0; c < batch.columnCount(); c++) {
            ColumnVector column = batch.column(c);
            int dataBytes = column instanceof StringVector
                    ? dataBytes((StringVector) column, selection, from, to) : 0;
            length += BatchDescriptor.columnLength(column.type(), rows, column.mayHaveNulls(), dataBytes);
        }
        if (length > Integer.MAX_VALUE - ALIGNMENT) {
            throw new IllegalArgumentException("batch too large to encode: rows=" + rows + ", bytes=" + length);
        }
        return (int) length;
    }

    /**
     * Writes live rows {@code [from, to)} of {@code batch} at {@code offset}, which must leave
     * {@link #encodedLength} bytes in {@code buffer}; returns that length.
     */
    public static int encode(Batch batch, int from, int to, MutableDirectBuffer buffer, int offset) {
        int length = encodedLength(batch, from, to);
        checkBounds(buffer, offset, length);
        int rows = to - from;
        int[] selection = batch.selection();
        buffer.putInt(offset + FRAME_LENGTH_OFFSET, length);
        buffer.putByte(offset + VERSION_OFFSET, VERSION);
        buffer.putByte(offset + FRAME_TYPE_OFFSET, BATCH_FRAME);
        buffer.putShort(offset + FLAGS_OFFSET, (short) 0);
        buffer.putInt(offset + ROW_COUNT_OFFSET, rows);
        buffer.putInt(offset + COLUMN_COUNT_OFFSET, batch.columnCount());
        int position = offset + HEADER_LENGTH;
        for (int c = 0; c < batch.columnCount(); c++) {
            position = encodeColumn(batch.column(c), selection, from, to, buffer, position);
        }
        assert position - offset == length : "length=" + length + ", written=" + (position - offset);
        return length;
    }

    /** Writes an end-of-stream frame at {@code offset}; returns its length, {@link BatchDescriptor#HEADER_LENGTH}. */
    public static int encodeEndOfStream(MutableDirectBuffer buffer, int offset) {
        checkBounds(buffer, offset, HEADER_LENGTH);
        buffer.putInt(offset + FRAME_LENGTH_OFFSET, HEADER_LENGTH);
        buffer.putByte(offset + VERSION_OFFSET, VERSION);
        buffer.putByte(offset + FRAME_TYPE_OFFSET, END_OF_STREAM_FRAME);
        buffer.putShort(offset + FLAGS_OFFSET, (short) 0);
        buffer.putInt(offset + ROW_COUNT_OFFSET, 0);
        buffer.putInt(offset + COLUMN_COUNT_OFFSET, 0);
        return HEADER_LENGTH;
    }

    /**
     * The type of the frame of {@code length} bytes at {@code offset}: {@link BatchDescriptor#BATCH_FRAME}
     * or {@link BatchDescriptor#END_OF_STREAM_FRAME}. Checks the header and throws
     * {@link IllegalStateException} naming what is wrong when it is not a frame of this format.
     */
    public static byte frameType(DirectBuffer buffer, int offset, int length) {
        if (length < HEADER_LENGTH) {
            throw new IllegalStateException("malformed batch frame: length=" + length + " < header=" + HEADER_LENGTH);
        }
        checkBounds(buffer, offset, length);
        int frameLength = buffer.getInt(offset + FRAME_LENGTH_OFFSET);
        if (frameLength != length) {
            throw new IllegalStateException("malformed batch frame: frameLength=" + frameLength + ", length=" + length);
        }
        byte version = buffer.getByte(offset + VERSION_OFFSET);
        if (version != VERSION) {
            throw new IllegalStateException("unsupported batch frame version=" + version + ", expected=" + VERSION);
        }
        short flags = buffer.getShort(offset + FLAGS_OFFSET);
        if (flags != 0) {
            throw new IllegalStateException("malformed batch frame: unknown flags=" + flags);
        }
        byte type = buffer.getByte(offset + FRAME_TYPE_OFFSET);
        if (type != BATCH_FRAME && type != END_OF_STREAM_FRAME) {
            throw new IllegalStateException("malformed batch frame: unknown frameType=" + type);
        }
        return type;
    }

    /** A new dense batch from the batch frame of {@code length} bytes at {@code offset}. */
    public static Batch decode(DirectBuffer buffer, int offset, int length) {
        if (frameType(buffer, offset, length) != BATCH_FRAME) {
            throw new IllegalStateException("not a batch frame: frameType="
                    + buffer.getByte(offset + FRAME_TYPE_OFFSET));
        }
        int rows = buffer.getInt(offset + ROW_COUNT_OFFSET);
        int columnCount = buffer.getInt(offset + COLUMN_COUNT_OFFSET);
        if (rows < 0 || columnCount < 0) {
            throw new IllegalStateException("malformed batch frame: rows=" + rows + ", columns=" + columnCount);
        }
        ColumnVector[] columns = new ColumnVector[columnCount];
        int end = offset + length;
        int position = offset + HEADER_LENGTH;
        for (int c = 0; c < columnCount; c++) {
            if (end - position < COLUMN_HEADER_LENGTH) {
                throw new IllegalStateException("malformed batch frame: column=" + c + " starts past the frame end");
            }
            byte code = buffer.getByte(position + TYPE_ID_OFFSET);
            DataType type = BatchDescriptor.dataType(code, buffer.getByte(position + PRECISION_OFFSET),
                    buffer.getByte(position + SCALE_OFFSET), c);
            boolean validity = (buffer.getByte(position + COLUMN_FLAGS_OFFSET) & VALIDITY_PRESENT) != 0;
            int dataBytes = buffer.getInt(position + VARIABLE_LENGTH_OFFSET);
            if (dataBytes < 0 || (type.physical() != PhysicalType.BYTES && dataBytes != 0)) {
                throw new IllegalStateException("malformed batch frame: column=" + c + ", variableLength=" + dataBytes);
            }
            long sectionLength = (long) BatchDescriptor.columnLength(type, rows, validity, dataBytes);
            if (sectionLength > end - position) {
                throw new IllegalStateException("malformed batch frame: column=" + c + " of " + sectionLength
                        + " bytes overruns the frame end by " + (sectionLength - (end - position)));
            }
            columns[c] = decodeColumn(type, rows, validity, dataBytes, buffer, position + COLUMN_HEADER_LENGTH, c);
            position += (int) sectionLength;
        }
        if (position != end) {
            throw new IllegalStateException("malformed batch frame: " + (end - position)
                    + " bytes after the last column");
        }
        return Batch.of(rows, columns);
    }

    private static int encodeColumn(ColumnVector column, int[] selection, int from, int to,
                                    MutableDirectBuffer buffer, int position) {
        int rows = to - from;
        DataType type = column.type();
        boolean validity = column.mayHaveNulls();
        int dataBytes = column instanceof StringVector ? dataBytes((StringVector) column, selection, from, to) : 0;
        buffer.putByte(position + TYPE_ID_OFFSET, BatchDescriptor.typeCode(type.id()));
        buffer.putByte(position + PRECISION_OFFSET, (byte) type.precision());
        buffer.putByte(position + SCALE_OFFSET, (byte) type.scale());
        buffer.putByte(position + COLUMN_FLAGS_OFFSET, validity ? VALIDITY_PRESENT : 0);
        buffer.putInt(position + VARIABLE_LENGTH_OFFSET, dataBytes);
        position += COLUMN_HEADER_LENGTH;
        if (validity) {
            encodeValidity(column.validity(), selection, from, rows, buffer, position);
            position += validityLength(rows);
        }
        byte[] base = buffer.byteArray();
        long address = buffer.addressOffset() + position;
        if (column instanceof IntVector) {
            int[] values = ((IntVector) column).values();
            if (selection == null) {
                UnsafeApi.copyMemory(values, INT_BASE + (long) from * Integer.BYTES, base, address,
                        (long) rows * Integer.BYTES);
            } else {
                for (int i = 0; i < rows; i++) {
                    UnsafeApi.putInt(base, address + (long) i * Integer.BYTES, values[selection[from + i]]);
                }
            }
            return position + align(rows * Integer.BYTES);
        }
        if (column instanceof LongVector longs) {
            putLongs(longs.values(), selection, from, rows, base, address);
            return position + rows * Long.BYTES;
        }
        if (column instanceof Int128Vector words) {
            putLongs(words.high(), selection, from, rows, base, address);
            putLongs(words.low(), selection, from, rows, base, address + (long) rows * Long.BYTES);
            return position + 2 * rows * Long.BYTES;
        }
        if (column instanceof DoubleVector) {
            double[] values = ((DoubleVector) column).values();
            if (selection == null) {
                UnsafeApi.copyMemory(values, DOUBLE_BASE + (long) from * Double.BYTES, base, address,
                        (long) rows * Double.BYTES);
            } else {
                for (int i = 0; i < rows; i++) {
                    UnsafeApi.putDouble(base, address + (long) i * Double.BYTES, values[selection[from + i]]);
                }
            }
            return position + rows * Double.BYTES;
        }
        if (column instanceof BooleanVector) {
            byte[] values = ((BooleanVector) column).values();
            if (selection == null) {
                UnsafeApi.copyMemory(values, BYTE_BASE + from, base, address, rows);
            } else {
                for (int i = 0; i < rows; i++) {
                    UnsafeApi.putByte(base, address + i, values[selection[from + i]]);
                }
            }
            return position + align(rows);
        }
        return encodeStrings((StringVector) column, selection, from, to, base, address, position);
    }

    /** Rows {@code from .. from+rows} of {@code values} (through {@code selection} when there is one) at {@code address}. */
    private static void putLongs(long[] values, int[] selection, int from, int rows, byte[] base, long address) {
        if (selection == null) {
            UnsafeApi.copyMemory(values, LONG_BASE + (long) from * Long.BYTES, base, address, (long) rows * Long.BYTES);
        } else {
            for (int i = 0; i < rows; i++) {
                UnsafeApi.putLong(base, address + (long) i * Long.BYTES, values[selection[from + i]]);
            }
        }
    }

    private static int encodeStrings(StringVector column, int[] selection, int from, int to,
                                     byte[] base, long address, int position) {
        int rows = to - from;
        int[] offsets = column.offsets();
        byte[] data = column.data();
        int offsetsLength = align((rows + 1) * Integer.BYTES);
        long dataAddress = address + offsetsLength;
        int written = 0;
        if (selection == null) {
            // Offsets rebased to start at 0; the bytes of a dense run are contiguous: one copy.
            int start = offsets[from];
            checkStringRange(data, start, offsets[to]);
            for (int i = 0; i <= rows; i++) {
                UnsafeApi.putInt(base, address + (long) i * Integer.BYTES, offsets[from + i] - start);
            }
            written = offsets[to] - start;
            UnsafeApi.copyMemory(data, BYTE_BASE + start, base, dataAddress, written);
        } else {
            UnsafeApi.putInt(base, address, 0);
            for (int i = 0; i < rows; i++) {
                int row = selection[from + i];
                int start = offsets[row];
                int length = offsets[row + 1] - start;
                checkStringRange(data, start, start + length);
                UnsafeApi.copyMemory(data, BYTE_BASE + start, base, dataAddress + written, length);
                written += length;
                UnsafeApi.putInt(base, address + (long) (i + 1) * Integer.BYTES, written);
            }
        }
        return position + offsetsLength + align(written);
    }

    /** Bit {@code i} of the output is the validity of live row {@code from + i}; bits past the rows are 0. */
    private static void encodeValidity(long[] validity, int[] selection, int from, int rows,
                                       MutableDirectBuffer buffer, int position) {
        int words = (rows + 63) >>> 6;
        if (selection == null) {
            int first = from >>> 6;
            int shift = from & 63;
            for (int k = 0; k < words; k++) {
                long word = validity[first + k] >>> shift;
                // A shift of 0 must not OR in the next word: Java's << 64 is a no-op, not a zero.
                if (shift != 0 && first + k + 1 < validity.length) {
                    word |= validity[first + k + 1] << (64 - shift);
                }
                buffer.putLong(position + k * Long.BYTES, word & lastWordMask(k, words, rows));
            }
            return;
        }
        long word = 0;
        for (int i = 0; i < rows; i++) {
            int row = selection[from + i];
            word |= ((validity[row >>> 6] >>> row) & 1L) << i;
            if ((i & 63) == 63) {
                buffer.putLong(position + (i >>> 6) * Long.BYTES, word);
                word = 0;
            }
        }
        if ((rows & 63) != 0) {
            buffer.putLong(position + (words - 1) * Long.BYTES, word);
        }
    }

    private static long lastWordMask(int k, int words, int rows) {
        return k == words - 1 && (rows & 63) != 0 ? (1L << rows) - 1 : -1L;
    }

    private static ColumnVector decodeColumn(DataType type, int rows, boolean hasValidity, int dataBytes,
                                             DirectBuffer buffer, int position, int column) {
        long[] validity = null;
        if (hasValidity) {
            validity = (long[]) UnsafeApi.allocateUninitializedArray(long.class, (rows + 63) >>> 6);
            copyIn(buffer, position, validity, LONG_BASE, validityLength(rows));
            position += validityLength(rows);
        }
        ColumnVector vector = switch (type.physical()) {
            case INT -> {
                int[] values = (int[]) UnsafeApi.allocateUninitializedArray(int.class, rows);
                copyIn(buffer, position, values, INT_BASE, rows * Integer.BYTES);
                yield new IntVector(type, values);
            }
            case LONG -> {
                long[] values = (long[]) UnsafeApi.allocateUninitializedArray(long.class, rows);
                copyIn(buffer, position, values, LONG_BASE, rows * Long.BYTES);
                yield new LongVector(type, values);
            }
            case DOUBLE -> {
                double[] values = (double[]) UnsafeApi.allocateUninitializedArray(double.class, rows);
                copyIn(buffer, position, values, DOUBLE_BASE, rows * Double.BYTES);
                yield new DoubleVector(type, values);
            }
            case BOOLEAN -> {
                byte[] values = (byte[]) UnsafeApi.allocateUninitializedArray(byte.class, rows);
                copyIn(buffer, position, values, BYTE_BASE, rows);
                yield new BooleanVector(values);
            }
            case BYTES -> decodeStrings(type, rows, dataBytes, buffer, position, column);
            case INT128 -> {
                long[] high = (long[]) UnsafeApi.allocateUninitializedArray(long.class, rows);
                long[] low = (long[]) UnsafeApi.allocateUninitializedArray(long.class, rows);
                copyIn(buffer, position, high, LONG_BASE, rows * Long.BYTES);
                copyIn(buffer, position + rows * Long.BYTES, low, LONG_BASE, rows * Long.BYTES);
                yield new Int128Vector(type, high, low);
            }
        };
        vector.setValidity(validity);
        return vector;
    }

    private static StringVector decodeStrings(DataType type, int rows, int dataBytes, DirectBuffer buffer, int position,
                                              int column) {
        int[] offsets = (int[]) UnsafeApi.allocateUninitializedArray(int.class, rows + 1);
        copyIn(buffer, position, offsets, INT_BASE, (rows + 1) * Integer.BYTES);
        // Offsets index the bytes below: check them once here, so that no later read can overrun.
        int previous = 0;
        for (int i = 0; i <= rows; i++) {
            int offset = offsets[i];
            if (offset < previous || (i == 0 && offset != 0)) {
                throw new IllegalStateException("malformed batch frame: column=" + column
                        + ", VARCHAR offsets not ascending from 0 at row=" + i);
            }
            previous = offset;
        }
        if (previous != dataBytes) {
            throw new IllegalStateException("malformed batch frame: column=" + column + ", VARCHAR offsets end at "
                    + previous + ", variableLength=" + dataBytes);
        }
        byte[] data = (byte[]) UnsafeApi.allocateUninitializedArray(byte.class, dataBytes);
        copyIn(buffer, position + align((rows + 1) * Integer.BYTES), data, BYTE_BASE, dataBytes);
        return new StringVector(type, data, offsets);
    }

    private static void copyIn(DirectBuffer buffer, int index, Object array, long arrayBase, int bytes) {
        checkBounds(buffer, index, bytes);
        UnsafeApi.copyMemory(buffer.byteArray(), buffer.addressOffset() + index, array, arrayBase, bytes);
    }

    private static int dataBytes(StringVector column, int[] selection, int from, int to) {
        int[] offsets = column.offsets();
        if (selection == null) {
            return offsets[to] - offsets[from];
        }
        long bytes = 0;
        for (int i = from; i < to; i++) {
            int row = selection[i];
            bytes += offsets[row + 1] - offsets[row];
        }
        if (bytes > Integer.MAX_VALUE - ALIGNMENT) {
            throw new IllegalArgumentException("VARCHAR column too large to encode: bytes=" + bytes);
        }
        return (int) bytes;
    }

    /** The raw copies below read the vector's bytes unchecked: refuse offsets outside them first. */
    private static void checkStringRange(byte[] data, int start, int end) {
        if (start < 0 || end < start || end > data.length) {
            throw new IllegalArgumentException("VARCHAR offsets out of range: [" + start + ", " + end
                    + ") of " + data.length + " bytes");
        }
    }

    private static void checkRange(Batch batch, int from, int to) {
        if (from < 0 || to > batch.size() || from > to) {
            throw new IndexOutOfBoundsException("live rows [" + from + ", " + to + ") of a batch of size="
                    + batch.size());
        }
    }

    private static void checkBounds(DirectBuffer buffer, int index, int length) {
        if (index < 0 || length < 0 || index > buffer.capacity() - length) {
            throw new IndexOutOfBoundsException("index=" + index + ", length=" + length
                    + ", capacity=" + buffer.capacity());
        }
    }
}
