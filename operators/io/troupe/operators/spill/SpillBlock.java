package io.troupe.operators.spill;

import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.DataType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The layout of one block of a spill file: the dense rows of one batch, column after column, as
 * their arrays are in memory, so that writing and reading are bulk copies.
 *
 * <pre>
 *   block   := length:int32  rows:int32  column*          length counts the bytes after itself
 *   column  := hasNulls:int8 [validity:int64 * words(rows)] values
 *   values  := INT32, DATE      int32  * rows
 *              INT64, DECIMAL   int64  * rows
 *              FLOAT64          float64 * rows
 *              BOOLEAN          int8   * rows
 *              VARCHAR          bytes:int32  end:int32 * rows  utf8 * bytes    (end offsets; the first row starts at 0)
 * </pre>
 * Native byte order: a spill file lives and dies with the process that wrote it. The schema is not
 * in the file: its {@link SpillFile} knows it.
 *
 * <p>Stateless; threadsafe.
 */
final class SpillBlock {

    static final int HEADER_BYTES = 2 * Integer.BYTES;

    private SpillBlock() {
    }

    /** Bytes the block of {@code columns} (dense, {@code rows} rows) takes, header included. */
    static long encodedBytes(ColumnVector[] columns, int rows) {
        long bytes = HEADER_BYTES;
        for (ColumnVector v : columns) {
            bytes += 1 + (v.mayHaveNulls() ? (long) Validity.words(rows) * Long.BYTES : 0);
            bytes += switch (v.type().physical()) {
                case INT -> (long) rows * Integer.BYTES;
                case LONG, DOUBLE -> (long) rows * Long.BYTES;
                case BOOLEAN -> rows;
                case BYTES -> Integer.BYTES + (long) rows * Integer.BYTES + stringBytes((StringVector) v, rows);
                case INT128 -> 2L * rows * Long.BYTES;
            };
        }
        return bytes;
    }

    /** Writes the block of dense {@code columns} into {@code out}, which has room for {@link #encodedBytes}. */
    static void encode(ColumnVector[] columns, int rows, ByteBuffer out) {
        int start = out.position();
        out.putInt(0).putInt(rows);
        for (ColumnVector v : columns) {
            long[] validity = v.validity();
            out.put((byte) (validity == null ? 0 : 1));
            if (validity != null) {
                out.asLongBuffer().put(validity, 0, Validity.words(rows));
                skip(out, Validity.words(rows) * Long.BYTES);
            }
            switch (v.type().physical()) {
                case INT -> {
                    out.asIntBuffer().put(((IntVector) v).values(), 0, rows);
                    skip(out, rows * Integer.BYTES);
                }
                case LONG -> {
                    out.asLongBuffer().put(((LongVector) v).values(), 0, rows);
                    skip(out, rows * Long.BYTES);
                }
                case DOUBLE -> {
                    out.asDoubleBuffer().put(((DoubleVector) v).values(), 0, rows);
                    skip(out, rows * Double.BYTES);
                }
                case BOOLEAN -> out.put(((BooleanVector) v).values(), 0, rows);
                case BYTES -> encodeStrings((StringVector) v, rows, out);
                case INT128 -> {
                    out.asLongBuffer().put(((Int128Vector) v).high(), 0, rows);
                    skip(out, rows * Long.BYTES);
                    out.asLongBuffer().put(((Int128Vector) v).low(), 0, rows);
                    skip(out, rows * Long.BYTES);
                }
            }
        }
        out.putInt(start, out.position() - start - Integer.BYTES);
    }

    /** Reads the block body (after its length) from {@code in} into dense vectors of {@code types}. */
    static ColumnVector[] decode(DataType[] types, ByteBuffer in, int[] rowsOut) {
        int rows = in.getInt();
        rowsOut[0] = rows;
        ColumnVector[] columns = new ColumnVector[types.length];
        for (int c = 0; c < types.length; c++) {
            long[] validity = null;
            if (in.get() != 0) {
                validity = new long[Validity.words(rows)];
                in.asLongBuffer().get(validity);
                skip(in, validity.length * Long.BYTES);
            }
            ColumnVector v = switch (types[c].physical()) {
                case INT -> {
                    int[] values = new int[rows];
                    in.asIntBuffer().get(values);
                    skip(in, rows * Integer.BYTES);
                    yield new IntVector(types[c], values);
                }
                case LONG -> {
                    long[] values = new long[rows];
                    in.asLongBuffer().get(values);
                    skip(in, rows * Long.BYTES);
                    yield new LongVector(types[c], values);
                }
                case DOUBLE -> {
                    double[] values = new double[rows];
                    in.asDoubleBuffer().get(values);
                    skip(in, rows * Double.BYTES);
                    yield new DoubleVector(types[c], values);
                }
                case BOOLEAN -> {
                    byte[] values = new byte[rows];
                    in.get(values);
                    yield new BooleanVector(values);
                }
                case BYTES -> decodeStrings(types[c], rows, in);
                case INT128 -> {
                    long[] high = new long[rows];
                    in.asLongBuffer().get(high);
                    skip(in, rows * Long.BYTES);
                    long[] low = new long[rows];
                    in.asLongBuffer().get(low);
                    skip(in, rows * Long.BYTES);
                    yield new Int128Vector(types[c], high, low);
                }
            };
            if (validity != null) {
                v.setValidity(validity);
            }
            columns[c] = v;
        }
        return columns;
    }

    private static long stringBytes(StringVector v, int rows) {
        int[] offsets = v.offsets();
        return offsets[rows] - offsets[0];
    }

    private static void encodeStrings(StringVector v, int rows, ByteBuffer out) {
        int[] offsets = v.offsets();
        int base = offsets[0];
        out.putInt(offsets[rows] - base);
        for (int r = 1; r <= rows; r++) {
            out.putInt(offsets[r] - base);
        }
        out.put(v.data(), base, offsets[rows] - base);
    }

    private static StringVector decodeStrings(DataType type, int rows, ByteBuffer in) {
        byte[] data = new byte[in.getInt()];
        int[] offsets = new int[rows + 1];
        in.asIntBuffer().get(offsets, 1, rows);
        skip(in, rows * Integer.BYTES);
        in.get(data);
        return new StringVector(type, data, offsets);
    }

    private static void skip(ByteBuffer buffer, int bytes) {
        buffer.position(buffer.position() + bytes);
    }

    /** A heap buffer in the order blocks are written in. */
    static ByteBuffer buffer(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder());
    }
}
