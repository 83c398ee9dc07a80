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
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class BatchCodecTest {

    private static final DataType[] ALL_TYPES = {
        DataType.INT32, DataType.INT64, DataType.FLOAT64, DataType.decimal(18, 4), DataType.DATE,
        DataType.BOOLEAN, DataType.decimal(38, 6), DataType.INT16, DataType.INT8, DataType.FLOAT32, DataType.VARCHAR};

    @Test
    void shouldRoundTripEveryTypeWithAndWithoutNulls() {
        for (int rows : new int[] {1, 7, 63, 64, 65, 1000, 2048}) {
            for (boolean nulls : new boolean[] {false, true}) {
                Batch batch = randomBatch(rows, nulls, 42 + rows);
                UnsafeBuffer buffer = directBuffer(BatchCodec.encodedLength(batch, 0, rows));
                Batch decoded = roundTrip(batch, 0, batch.size(), buffer, 0);
                assertSameRows(batch, 0, rows, decoded);
                for (int c = 0; c < ALL_TYPES.length; c++) {
                    assertEquals(ALL_TYPES[c], decoded.column(c).type(), "type of column " + c);
                    assertEquals(nulls, decoded.column(c).mayHaveNulls(), "validity of column " + c);
                }
            }
        }
    }

    @Test
    void shouldRoundTripUuidsAndBlobsWithTheirTypes() {
        SplittableRandom random = new SplittableRandom(26);
        int rows = 130;
        Int128Vector uuids = new Int128Vector(DataType.UUID, rows);
        StringVector blobs = new StringVector(DataType.BLOB, rows, 64);
        for (int r = 0; r < rows; r++) {
            uuids.set(r, random.nextLong(), random.nextLong());
            byte[] bytes = new byte[random.nextInt(9)];
            random.nextBytes(bytes);
            if (r % 7 == 0) {
                blobs.putNull(r);
                uuids.setNull(r);
            } else {
                blobs.put(r, bytes, 0, bytes.length);
            }
        }
        Batch batch = Batch.of(rows, uuids, blobs.seal());
        Batch decoded = roundTrip(batch, 0, rows, directBuffer(BatchCodec.encodedLength(batch, 0, rows)), 0);
        assertEquals(DataType.UUID, decoded.column(0).type());
        assertEquals(DataType.BLOB, decoded.column(1).type());
        for (int r = 0; r < rows; r++) {
            assertEquals(uuids.getObject(r), decoded.column(0).getObject(r), "row " + r);
            assertArrayEquals((byte[]) blobs.getObject(r), (byte[]) decoded.column(1).getObject(r), "row " + r);
        }
    }

    @Test
    void shouldEncodeOnlyTheSelectedRows() {
        Batch dense = randomBatch(1000, true, 7);
        int[] selection = new int[1000];
        int size = 0;
        for (int r = 0; r < 1000; r++) {
            if (r % 3 != 1 && r % 7 != 0) {
                selection[size++] = r;
            }
        }
        Batch selected = dense.withSelection(selection, size);
        Batch decoded = roundTrip(selected, 0, size, directBuffer(BatchCodec.encodedLength(selected, 0, size)), 0);
        assertEquals(size, decoded.rowCount());
        assertSameRows(selected, 0, size, decoded);
        assertEquals(BatchCodec.encodedLength(selected.compact(), 0, size), BatchCodec.encodedLength(selected, 0, size),
                "a selected batch encodes to the same length as its compacted copy");
    }

    @Test
    void shouldEncodeAnyRangeOfLiveRowsAtAnyBitOffset() {
        Batch dense = randomBatch(300, true, 11);
        int[] selection = new int[150];
        for (int i = 0; i < 150; i++) {
            selection[i] = 2 * i + 1;
        }
        for (Batch batch : List.of(dense, dense.withSelection(selection, 150))) {
            for (int[] range : new int[][] {{0, 0}, {1, 2}, {5, 69}, {63, 128}, {64, 150}, {70, 150}, {0, 150}}) {
                Batch decoded = roundTrip(batch, range[0], range[1],
                        directBuffer(BatchCodec.encodedLength(batch, range[0], range[1])), 0);
                assertSameRows(batch, range[0], range[1], decoded);
            }
        }
    }

    @Test
    void shouldRoundTripEmptyBatchesAndBatchesWithoutColumns() {
        Batch empty = Batch.of(0, ColumnVector.allocate(DataType.INT64, 0), new StringVector(0));
        Batch decoded = roundTrip(empty, 0, 0, directBuffer(BatchCodec.encodedLength(empty, 0, 0)), 0);
        assertEquals(0, decoded.size());
        assertEquals(2, decoded.columnCount());
        assertEquals(DataType.VARCHAR, decoded.column(1).type());

        Batch noColumns = Batch.of(5);
        assertEquals(BatchDescriptor.HEADER_LENGTH, BatchCodec.encodedLength(noColumns, 0, 5));
        Batch rowsOnly = roundTrip(noColumns, 0, 5, directBuffer(BatchDescriptor.HEADER_LENGTH), 0);
        assertEquals(5, rowsOnly.size());
        assertEquals(0, rowsOnly.columnCount());
    }

    @Test
    void shouldRoundTripLargeAndMultiByteStrings() {
        StringVector strings = new StringVector(4);
        char[] big = new char[3_000_000];
        Arrays.fill(big, 'x');
        strings.put(0, new String(big));
        strings.put(1, "");
        strings.put(2, "grüße, 日本, 🎉");
        strings.putNull(3);
        Batch batch = Batch.of(4, strings);
        int length = BatchCodec.encodedLength(batch, 0, 4);
        assertTrue(length > 3_000_000, "length=" + length);
        Batch decoded = roundTrip(batch, 0, 4, directBuffer(length), 0);
        assertSameRows(batch, 0, 4, decoded);
        assertEquals(3_000_000, ((StringVector) decoded.column(0)).length(0));
    }

    @Test
    void shouldEncodeAtAnOffsetIntoHeapAndDirectBuffers() {
        Batch batch = randomBatch(100, true, 3);
        int length = BatchCodec.encodedLength(batch, 0, 100);
        for (MutableDirectBuffer buffer : List.of(new UnsafeBuffer(new byte[length + 64]), directBuffer(length + 64))) {
            int offset = 40;
            assertEquals(length, BatchCodec.encode(batch, 0, 100, buffer, offset));
            assertEquals(length, buffer.getInt(offset + BatchDescriptor.FRAME_LENGTH_OFFSET));
            assertSameRows(batch, 0, 100, BatchCodec.decode(buffer, offset, length));
        }
    }

    @Test
    void shouldKeepEverySectionAligned() {
        Batch batch = randomBatch(13, true, 5);
        int length = BatchCodec.encodedLength(batch, 0, 13);
        assertEquals(0, length % BatchDescriptor.ALIGNMENT, "length=" + length);
        UnsafeBuffer buffer = directBuffer(length);
        BatchCodec.encode(batch, 0, 13, buffer, 0);
        int position = BatchDescriptor.HEADER_LENGTH;
        for (int c = 0; c < batch.columnCount(); c++) {
            assertEquals(0, position % BatchDescriptor.ALIGNMENT, "column " + c + " at " + position);
            assertEquals(BatchDescriptor.typeCode(ALL_TYPES[c].id()),
                    buffer.getByte(position + BatchDescriptor.TYPE_ID_OFFSET));
            position += BatchDescriptor.columnLength(ALL_TYPES[c], 13, true,
                    buffer.getInt(position + BatchDescriptor.VARIABLE_LENGTH_OFFSET));
        }
        assertEquals(length, position);
    }

    @Test
    void shouldEncodeAndRecogniseEndOfStream() {
        UnsafeBuffer buffer = directBuffer(BatchDescriptor.HEADER_LENGTH);
        assertEquals(BatchDescriptor.HEADER_LENGTH, BatchCodec.encodeEndOfStream(buffer, 0));
        assertEquals(BatchDescriptor.END_OF_STREAM_FRAME,
                BatchCodec.frameType(buffer, 0, BatchDescriptor.HEADER_LENGTH));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BatchCodec.decode(buffer, 0, BatchDescriptor.HEADER_LENGTH));
        assertEquals("not a batch frame: frameType=2", e.getMessage());
    }

    @Test
    void shouldRejectMalformedFramesWithTheirCause() {
        Batch batch = Batch.of(3, new LongVector(DataType.INT64, new long[] {1, 2, 3}));
        int length = BatchCodec.encodedLength(batch, 0, 3);
        UnsafeBuffer buffer = directBuffer(length);
        BatchCodec.encode(batch, 0, 3, buffer, 0);

        assertEquals("malformed batch frame: frameLength=" + length + ", length=" + (length - 8),
                assertThrows(IllegalStateException.class, () -> BatchCodec.decode(buffer, 0, length - 8)).getMessage());
        buffer.putByte(BatchDescriptor.VERSION_OFFSET, (byte) 9);
        assertEquals("unsupported batch frame version=9, expected=1",
                assertThrows(IllegalStateException.class, () -> BatchCodec.decode(buffer, 0, length)).getMessage());
        buffer.putByte(BatchDescriptor.VERSION_OFFSET, BatchDescriptor.VERSION);
        buffer.putByte(BatchDescriptor.HEADER_LENGTH + BatchDescriptor.TYPE_ID_OFFSET, (byte) 99);
        assertEquals("malformed batch frame: column=0, unknown type code=99",
                assertThrows(IllegalStateException.class, () -> BatchCodec.decode(buffer, 0, length)).getMessage());
        buffer.putByte(BatchDescriptor.HEADER_LENGTH + BatchDescriptor.TYPE_ID_OFFSET, BatchDescriptor.INT64_CODE);
        buffer.putInt(BatchDescriptor.ROW_COUNT_OFFSET, 4);
        assertEquals("malformed batch frame: column=0 of 40 bytes overruns the frame end by 8",
                assertThrows(IllegalStateException.class, () -> BatchCodec.decode(buffer, 0, length)).getMessage());
        assertThrows(IndexOutOfBoundsException.class,
                () -> BatchCodec.encode(batch, 0, 3, directBuffer(length - 1), 0));
        assertThrows(IndexOutOfBoundsException.class, () -> BatchCodec.encodedLength(batch, 2, 4));
    }

    @Test
    void shouldDecodeIntoArraysOwnedByTheNewBatch() {
        long[] values = {5, 6, 7};
        Batch batch = Batch.of(3, new LongVector(DataType.INT64, values));
        UnsafeBuffer buffer = directBuffer(BatchCodec.encodedLength(batch, 0, 3));
        Batch decoded = roundTrip(batch, 0, 3, buffer, 0);
        buffer.setMemory(0, buffer.capacity(), (byte) 0);
        assertArrayEquals(values, ((LongVector) decoded.column(0)).values());
        assertFalse(decoded.column(0).mayHaveNulls());
    }

    private static Batch roundTrip(Batch batch, int from, int to, MutableDirectBuffer buffer, int offset) {
        int length = BatchCodec.encode(batch, from, to, buffer, offset);
        assertEquals(BatchDescriptor.BATCH_FRAME, BatchCodec.frameType(buffer, offset, length));
        return BatchCodec.decode(buffer, offset, length);
    }

    static UnsafeBuffer directBuffer(int length) {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(Math.max(BatchDescriptor.ALIGNMENT,
                BatchDescriptor.align(length)), 64), 0, length);
    }

    private static void assertSameRows(Batch expected, int from, int to, Batch actual) {
        assertEquals(to - from, actual.size(), "rows");
        assertEquals(expected.columnCount(), actual.columnCount(), "columns");
        for (int i = from; i < to; i++) {
            List<Object> want = new ArrayList<>(Arrays.asList(expected.rowObjects(i)));
            List<Object> got = new ArrayList<>(Arrays.asList(actual.rowObjects(i - from)));
            assertEquals(want, got, "live row " + i);
        }
    }

    /** One column of every type; with {@code nulls}, about one row in five of each column is NULL. */
    static Batch randomBatch(int rows, boolean nulls, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        IntVector ints = new IntVector(DataType.INT32, rows);
        LongVector longs = new LongVector(DataType.INT64, rows);
        DoubleVector doubles = new DoubleVector(rows);
        LongVector decimals = new LongVector(DataType.decimal(18, 4), rows);
        IntVector dates = new IntVector(DataType.DATE, rows);
        BooleanVector booleans = new BooleanVector(rows);
        Int128Vector wide = new Int128Vector(DataType.decimal(38, 6), rows);
        IntVector shorts = new IntVector(DataType.INT16, rows);
        IntVector bytes = new IntVector(DataType.INT8, rows);
        DoubleVector floats = new DoubleVector(DataType.FLOAT32, new double[rows]);
        StringVector strings = new StringVector(rows);
        ColumnVector[] columns = {ints, longs, doubles, decimals, dates, booleans, wide, shorts, bytes, floats, strings};
        for (int r = 0; r < rows; r++) {
            ints.set(r, random.nextInt());
            longs.set(r, random.nextLong());
            doubles.set(r, random.nextDouble() * 1e6 - 5e5);
            decimals.set(r, random.nextLong(-999_999_999_999_999_999L, 999_999_999_999_999_999L));
            dates.set(r, random.nextInt(-50_000, 50_000));
            booleans.set(r, random.nextBoolean());
            // Below 2^126 either way: a DECIMAL(38,6)'s unscaled value (10^38 > 2^126).
            wide.set(r, random.nextLong(-(1L << 62), 1L << 62), random.nextLong());
            shorts.set(r, random.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1));
            bytes.set(r, random.nextInt(Byte.MIN_VALUE, Byte.MAX_VALUE + 1));
            floats.set(r, (float) (random.nextDouble() * 1e6 - 5e5));
            if (nulls && random.nextInt(5) == 0) {
                strings.putNull(r);
            } else {
                strings.put(r, "s" + Long.toString(random.nextLong(), 36).repeat(random.nextInt(4)));
            }
            if (nulls) {
                for (int c = 0; c < columns.length - 1; c++) {
                    if (random.nextInt(5) == 0) {
                        columns[c].setNull(r);
                    }
                }
            }
        }
        if (nulls) {
            for (ColumnVector column : columns) {
                if (!column.mayHaveNulls()) {
                    column.setNull(0);
                }
            }
        }
        return Batch.of(rows, columns);
    }
}
