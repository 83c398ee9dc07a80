package io.troupe.operators.table;

import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.ValueText;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;

/**
 * Writes a {@link Table} as the TPC generators' '|'-separated text ({@link DelimitedFormat#tpc()}):
 * one line per row, every field followed by '|', NULL as an empty field, decimals with exactly
 * their scale's digits, dates as yyyy-mm-dd, text as its UTF-8 bytes, nothing quoted. So
 * {@link DelimitedFileLoader} with that format reads back the same rows. A text value that this
 * format cannot hold (an empty string, which would read back as NULL, or one containing '|' or a
 * line break) is an error naming the table, row and column.
 *
 * <p>Stateless and threadsafe; each call writes through its own buffer.
 */
public final class DelimitedFileWriter {

    private static final int BUFFER_BYTES = 1 << 16;

    private DelimitedFileWriter() {
    }

    /** Writes {@code table} to {@code file}, replacing it. */
    public static void write(Table table, Path file) {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(table, out, file.toString());
        } catch (IOException e) {
            throw new TroupeException(TroupeException.Category.QUERY, "cannot write " + file + ": " + e, e);
        }
    }

    /** Writes {@code table} to {@code out} (left open); {@code where} names it in errors. */
    public static void write(Table table, OutputStream out, String where) throws IOException {
        Buffer buffer = new Buffer(out);
        long row = 0;
        int columns = table.schema().size();
        for (Batch batch : table.chunks()) {
            for (int r = 0; r < batch.size(); r++) {
                row++;
                for (int c = 0; c < columns; c++) {
                    ColumnVector v = batch.column(c);
                    if (!v.isNull(r)) {
                        appendValue(buffer, v, r, table, row, c, where);
                    }
                    buffer.put((byte) '|');
                }
                buffer.put((byte) '\n');
            }
        }
        buffer.flush();
    }

    private static void appendValue(Buffer buffer, ColumnVector v, int r, Table table, long row, int c, String where)
            throws IOException {
        DataType type = v.type();
        switch (type.id()) {
            case INT32, INT16, INT8 -> buffer.putLong(((IntVector) v).get(r));
            case INT64 -> buffer.putLong(((LongVector) v).get(r));
            case DECIMAL -> {
                if (v instanceof Int128Vector wide) {
                    buffer.putAscii(((BigDecimal) wide.getObject(r)).toPlainString());
                } else {
                    buffer.putDecimal(((LongVector) v).get(r), type.scale());
                }
            }
            case DATE -> buffer.putDate(((IntVector) v).get(r));
            case FLOAT64 -> buffer.putAscii(Double.toString(((DoubleVector) v).get(r)));
            // The float's shortest text, which reads back as the same float.
            case FLOAT32 -> buffer.putAscii(Float.toString((float) ((DoubleVector) v).get(r)));
            case BOOLEAN -> buffer.putAscii(((BooleanVector) v).get(r) ? "true" : "false");
            // An instant in UTC, with its offset, so that the file reads back as the same instant anywhere.
            case TIMESTAMP, TIMESTAMP_TZ, TIME, INTERVAL, UUID, BLOB ->
                    buffer.putAscii(ValueText.of(v.getObject(r), ZoneOffset.UTC));
            case VARCHAR -> {
                StringVector s = (StringVector) v;
                int start = s.start(r);
                int length = s.length(r);
                byte[] data = s.data();
                for (int i = start; i < start + length; i++) {
                    if (data[i] == '|' || data[i] == '\n' || data[i] == '\r') {
                        throw unwritable(table, row, c, where, "contains '|' or a line break");
                    }
                }
                if (length == 0) {
                    throw unwritable(table, row, c, where, "is empty (it would read back as NULL)");
                }
                buffer.put(data, start, length);
            }
        }
    }

    private static TroupeException unwritable(Table table, long row, int c, String where, String why) {
        return new TroupeException(TroupeException.Category.QUERY, "cannot write table " + table.name() + " to "
                + where + ": row " + row + ", column " + table.schema().field(c).name() + ": the text " + why);
    }

    /** A byte buffer in front of the stream: fields are small, so one write per 64 KiB. */
    private static final class Buffer {
        private final OutputStream out;
        private final byte[] bytes = new byte[BUFFER_BYTES];
        private int size;

        Buffer(OutputStream out) {
            this.out = out;
        }

        void put(byte b) throws IOException {
            if (size == bytes.length) {
                flush();
            }
            bytes[size++] = b;
        }

        void put(byte[] src, int from, int length) throws IOException {
            if (length > bytes.length - size) {
                flush();
                if (length > bytes.length) {
                    out.write(src, from, length);
                    return;
                }
            }
            System.arraycopy(src, from, bytes, size, length);
            size += length;
        }

        /** Appends {@code value} in decimal, without making a String. */
        void putLong(long value) throws IOException {
            if (value == Long.MIN_VALUE) {
                putAscii(Long.toString(value));
                return;
            }
            if (value < 0) {
                put((byte) '-');
                value = -value;
            }
            putDigits(value, 1);
        }

        /** Appends {@code unscaled} / 10^scale with exactly {@code scale} fractional digits. */
        void putDecimal(long unscaled, int scale) throws IOException {
            if (scale == 0) {
                putLong(unscaled);
                return;
            }
            if (unscaled < 0) {
                put((byte) '-');
            }
            long pow = Decimals.pow10(scale);
            long whole = Math.abs(unscaled / pow);
            long fraction = Math.abs(unscaled % pow);
            putDigits(whole, 1);
            put((byte) '.');
            putDigits(fraction, scale);
        }

        /** Appends days since 1970-01-01 as yyyy-mm-dd. */
        void putDate(int days) throws IOException {
            int year = Dates.year(days);
            if (year < 0 || year > 9999) {
                putAscii(Dates.toLocalDate(days).toString());
                return;
            }
            putDigits(year, 4);
            put((byte) '-');
            putDigits(Dates.month(days), 2);
            put((byte) '-');
            putDigits(Dates.dayOfMonth(days), 2);
        }

        /** Appends the non-negative {@code value} with at least {@code width} digits (zero-padded). */
        private void putDigits(long value, int width) throws IOException {
            if (bytes.length - size < 20 + width) {
                flush();
            }
            int digits = 1;
            for (long v = value / 10; v != 0; v /= 10) {
                digits++;
            }
            int n = Math.max(digits, width);
            int end = size + n;
            for (int i = end - 1; i >= size; i--) {
                bytes[i] = (byte) ('0' + value % 10);
                value /= 10;
            }
            size = end;
        }

        void putAscii(String text) throws IOException {
            byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
            put(b, 0, b.length);
        }

        void flush() throws IOException {
            out.write(bytes, 0, size);
            size = 0;
        }
    }
}
