package io.troupe.operators.table;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits delimited text into records and fields without decoding it: a batch of records becomes
 * the byte ranges of its fields in one buffer, which {@link DelimitedFileLoader} then converts
 * column by column. Reads the input in large blocks into one {@code byte[]}; a record that does not
 * fit in what is left of the buffer is moved to the front and scanned again after the next read
 * (the buffer doubles when one record is larger than all of it).
 *
 * <p>Field {@code c} of record {@code r} of the current batch is {@code buffer()[start .. end)}
 * with {@code start = starts()[r * width + c]}; an {@code end} of {@link #NULL} marks a NULL (an
 * unquoted field equal to the null string). Quoted fields come without their quotes and with
 * {@code ""} already collapsed to {@code "} (in place: the text only gets shorter). The ranges hold
 * until the next call to {@link #nextBatch}.
 *
 * <p>A blank line is a record of one empty field, or skipped where the format says so and a record has more than
 * one field.
 *
 * <p>A malformed record (wrong number of fields, an unterminated quote, text after a closing quote)
 * ends the batch before it and is kept as {@link #failure()}, so that the caller converts and
 * reports any error on an earlier line first.
 *
 * <p>Not threadsafe: one load owns it.
 */
final class RecordTokenizer {

    /** The {@code end} of a NULL field. */
    static final int NULL = -1;

    /** What a malformed record did wrong; {@link #failure()} holds the details. */
    enum Failure {
        FIELD_COUNT,
        NO_TRAILING_DELIMITER,
        UNTERMINATED_QUOTE,
        TEXT_AFTER_QUOTE,
        RECORD_TOO_LONG
    }

    /** The outcome of scanning one record. */
    private enum Scan {
        COMPLETE,
        /** A blank line that the format skips. */
        SKIPPED,
        NEED_MORE,
        MALFORMED
    }

    /** A malformed record: what, where, and the field that showed it (-1 for the record). */
    record Malformed(Failure failure, long line, int column, int fieldsFound, String text) {
    }

    private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    /** Bytes read per block; large enough that a read costs little next to parsing what it brings. */
    static final int INITIAL_BUFFER_BYTES = 1 << 20;
    /** One record may not exceed this: it bounds the memory an unterminated quote can take. */
    static final int MAX_RECORD_BYTES = 64 << 20;

    private final InputStream in;
    private final byte delimiter;
    private final int quote;
    private final byte[] nullBytes;
    private final boolean trailingDelimiter;
    private final boolean skipBlankLines;
    private final int width;
    private final int[] starts;
    private final int[] ends;
    private final long[] lines;
    /** Fields of the record being scanned that hold "" escapes, collapsed once the record is complete. */
    private final int[] escapedSlots;
    private int escapedCount;

    private byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    /** Whether the start of the input was checked for a UTF-8 byte order mark (which is skipped). */
    private boolean bomChecked;
    /** The 1-based line on which the next record starts. */
    private long line = 1;
    private int rows;
    private Malformed failure;

    RecordTokenizer(InputStream in, DelimitedFormat format, int width, int maxRows) {
        this(in, format, width, maxRows, INITIAL_BUFFER_BYTES);
    }

    // visible for testing: a tiny buffer makes every record straddle a read
    RecordTokenizer(InputStream in, DelimitedFormat format, int width, int maxRows, int bufferBytes) {
        this.in = in;
        this.delimiter = format.delimiter();
        this.quote = format.quote();
        this.nullBytes = format.nullBytes();
        this.trailingDelimiter = format.trailingDelimiter();
        this.skipBlankLines = format.skipBlankLines() && width > 1;
        this.width = width;
        // one slot row more than maxRows: the header, and the fields a malformed record shows before it fails
        this.starts = new int[(maxRows + 1) * width];
        this.ends = new int[(maxRows + 1) * width];
        this.lines = new long[maxRows];
        this.escapedSlots = new int[width];
        this.buf = new byte[Math.max(bufferBytes, UTF8_BOM.length)];
    }

    byte[] buffer() {
        return buf;
    }

    int[] starts() {
        return starts;
    }

    int[] ends() {
        return ends;
    }

    /** The line each record of the batch starts on. */
    long[] lines() {
        return lines;
    }

    /** The malformed record that ended the last batch, or null. */
    Malformed failure() {
        return failure;
    }

    /** Skips one record whatever its fields (a header line). */
    void skipRecord() throws IOException {
        scanRecords(1, false);
    }

    /**
     * Scans up to {@code maxRows} records into the field slots.
     *
     * @return the records scanned; 0 at the end of the input or when the first record is malformed
     */
    int nextBatch(int maxRows) throws IOException {
        assert maxRows <= lines.length : "maxRows=" + maxRows;
        if (failure != null) {
            return 0;
        }
        return scanRecords(maxRows, true);
    }

    private int scanRecords(int maxRows, boolean checked) throws IOException {
        rows = 0;
        final int slotRow = checked ? -1 : lines.length;
        while (rows < maxRows) {
            if (pos == limit) {
                if (eof) {
                    break;
                }
                if (rows > 0) {
                    // the caller converts what is scanned before fill() moves the buffer
                    break;
                }
                fill();
                continue;
            }
            Scan scan = scanRecord(checked ? rows : slotRow, checked);
            if (scan == Scan.MALFORMED) {
                break;
            }
            if (scan == Scan.SKIPPED) {
                continue;
            }
            if (scan == Scan.NEED_MORE) {
                if (rows > 0) {
                    break;
                }
                fill();
                continue;
            }
            if (!checked) {
                return 0;
            }
            rows++;
        }
        return rows;
    }

    /**
     * Scans the record at {@link #pos} into slot row {@code row}. On COMPLETE, {@link #pos} and
     * {@link #line} move past it; on NEED_MORE nothing moves; on MALFORMED {@link #failure} is set.
     */
    private Scan scanRecord(int row, boolean checked) {
        final byte[] b = buf;
        final int lim = limit;
        final byte delim = delimiter;
        final int q = quote;
        final int base = row * width;
        final int recordStart = pos;
        int p = pos;
        int fields = 0;
        int newlinesInQuotes = 0;
        boolean lastEmptyUnquoted = false;
        escapedCount = 0;
        while (true) {
            int fieldStart;
            int fieldEnd;
            boolean quoted = q != DelimitedFormat.NO_QUOTE && p < lim && b[p] == q;
            boolean escaped = false;
            if (quoted) {
                int open = p;
                p++;
                fieldStart = p;
                while (true) {
                    if (p >= lim) {
                        if (!eof) {
                            return needMore(recordStart, fields);
                        }
                        return malformed(Failure.UNTERMINATED_QUOTE, fields, fields, open, lim);
                    }
                    byte c = b[p];
                    if (c == q) {
                        if (p + 1 >= lim && !eof) {
                            return needMore(recordStart, fields);
                        }
                        if (p + 1 < lim && b[p + 1] == q) {
                            escaped = true;
                            p += 2;
                            continue;
                        }
                        fieldEnd = p;
                        p++;
                        break;
                    }
                    if (c == '\n') {
                        newlinesInQuotes++;
                    }
                    p++;
                }
                if (p >= lim && !eof) {
                    return needMore(recordStart, fields);
                }
                if (p < lim && b[p] == '\r') {
                    if (p + 1 >= lim && !eof) {
                        return needMore(recordStart, fields);
                    }
                    if (p + 1 >= lim || b[p + 1] == '\n') {
                        // \r\n, or a last \r: the line ends here
                        p++;
                    }
                }
                if (p < lim && b[p] != delim && b[p] != '\n') {
                    return malformed(Failure.TEXT_AFTER_QUOTE, fields, fields, open, endOfLine(p));
                }
            } else {
                fieldStart = p;
                while (p < lim && b[p] != delim && b[p] != '\n') {
                    p++;
                }
                if (p >= lim && !eof) {
                    return needMore(recordStart, fields);
                }
                fieldEnd = p;
                if ((p >= lim || b[p] == '\n') && fieldEnd > fieldStart && b[fieldEnd - 1] == '\r') {
                    fieldEnd--;
                }
            }
            if (fields < width) {
                int slot = base + fields;
                starts[slot] = fieldStart;
                ends[slot] = !quoted && isNullText(b, fieldStart, fieldEnd) ? NULL : fieldEnd;
                if (escaped) {
                    escapedSlots[escapedCount++] = slot;
                }
            }
            lastEmptyUnquoted = !quoted && fieldEnd == fieldStart;
            fields++;
            if (p < lim && b[p] == delim) {
                p++;
                continue;
            }
            // end of the record: at a line break or at the end of the input
            int recordEnd = p > recordStart && b[p - 1] == '\r' ? p - 1 : p;
            if (p < lim) {
                p++;
            }
            return complete(row, recordStart, recordEnd, p, fields, lastEmptyUnquoted, newlinesInQuotes, checked);
        }
    }

    private Scan complete(int row, int recordStart, int recordEnd, int next, int fields, boolean lastEmptyUnquoted,
                          int newlinesInQuotes, boolean checked) {
        if (skipBlankLines && fields == 1 && recordEnd == recordStart) {
            line++;
            pos = next;
            return Scan.SKIPPED;
        }
        if (checked) {
            int found = fields;
            boolean trailing = false;
            if (trailingDelimiter && fields > 1 && lastEmptyUnquoted) {
                found--;
                trailing = true;
            }
            if (found != width) {
                return malformed(Failure.FIELD_COUNT, found < width ? found : -1, found, recordStart, recordEnd);
            }
            if (trailingDelimiter && !trailing) {
                return malformed(Failure.NO_TRAILING_DELIMITER, -1, found, recordStart, recordEnd);
            }
            lines[row] = line;
            for (int i = 0; i < escapedCount; i++) {
                collapseQuotes(escapedSlots[i]);
            }
        }
        line += 1 + newlinesInQuotes;
        pos = next;
        return Scan.COMPLETE;
    }

    private Scan needMore(int recordStart, int fields) {
        pos = recordStart;
        if (limit - recordStart >= MAX_RECORD_BYTES) {
            return malformed(Failure.RECORD_TOO_LONG, -1, fields, recordStart, limit);
        }
        return Scan.NEED_MORE;
    }

    private Scan malformed(Failure what, int column, int fieldsFound, int textStart, int textEnd) {
        int end = Math.min(textEnd, limit);
        failure = new Malformed(what, line, column, fieldsFound, DelimitedFileLoader.excerpt(buf, textStart, end));
        return Scan.MALFORMED;
    }

    /** The position of the line break (or the end of the buffered input) at or after {@code p}. */
    private int endOfLine(int p) {
        int q = p;
        while (q < limit && buf[q] != '\n') {
            q++;
        }
        return q;
    }

    private boolean isNullText(byte[] b, int from, int to) {
        int n = to - from;
        if (n != nullBytes.length) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (b[from + i] != nullBytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** Rewrites a quoted field's "" as " in place and moves its end. */
    private void collapseQuotes(int slot) {
        int r = starts[slot];
        int w = r;
        int end = ends[slot];
        while (r < end) {
            byte c = buf[r];
            buf[w++] = c;
            r += c == quote ? 2 : 1;
        }
        ends[slot] = w;
    }

    /**
     * Moves the unscanned bytes to the front of the buffer (doubling it when they fill it) and
     * reads until the buffer is full or the input ends. Always progresses: reads a byte or sets eof.
     */
    private void fill() throws IOException {
        assert !eof : "fill after the end of input";
        int unscanned = limit - pos;
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, unscanned);
        } else if (unscanned == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        pos = 0;
        limit = unscanned;
        while (limit < buf.length) {
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) {
                eof = true;
                break;
            }
            limit += n;
        }
        if (!bomChecked) {
            // the first fill: the buffer is full (and larger than a mark) or holds the whole input
            bomChecked = true;
            if (limit >= UTF8_BOM.length && Arrays.equals(buf, 0, UTF8_BOM.length, UTF8_BOM, 0, UTF8_BOM.length)) {
                pos = UTF8_BOM.length;
            }
        }
    }
}
