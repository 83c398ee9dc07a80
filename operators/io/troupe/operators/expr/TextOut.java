package io.troupe.operators.expr;

import io.troupe.operators.batch.StringVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * The VARCHAR result of a string kernel, written row by row in ascending order into one growing
 * byte array: {@link #start} a row, append its bytes, {@link #end} it; rows never started (not
 * live, or NULL) are empty, as {@link StringVector} wants them. {@link #finish} hands the arrays to
 * a vector without copying.
 *
 * <p>Not threadsafe: one per evaluation.
 */
final class TextOut {

    /**
     * The most bytes one value may have, as PostgreSQL's 1 GB limit on a text value: a function
     * asked for more ({@code repeat}, {@code lpad}) fails with "requested length too large".
     */
    static final int MAX_BYTES = (1 << 30) - 1;

    private byte[] data;
    private final int[] offsets;
    private int pos;
    /** Rows whose end offset is written. */
    private int done;

    TextOut(int rows, int initialBytes) {
        this.data = new byte[Math.max(16, initialBytes)];
        this.offsets = new int[rows + 1];
    }

    /** Begins {@code row}, after every row started before it. */
    void start(int row) {
        Arrays.fill(offsets, done + 1, row + 1, pos);
        done = row;
    }

    /** Ends the row begun last. */
    void end() {
        offsets[++done] = pos;
    }

    void append(byte[] src, int from, int to) {
        int len = to - from;
        ensure(len);
        System.arraycopy(src, from, data, pos, len);
        pos += len;
    }

    /**
     * {@code src[from, to)} {@code times} times ({@link #checkLength checked} by the caller): one copy,
     * then what is written copied onto the rest, doubling it each time.
     */
    void appendRepeated(byte[] src, int from, int to, long times) {
        int len = to - from;
        if (times <= 0 || len == 0) {
            return;
        }
        int total = (int) (times * len);
        int at = reserve(total);
        System.arraycopy(src, from, data, at, len);
        for (int filled = len; filled < total; filled *= 2) {
            System.arraycopy(data, at, data, at + filled, Math.min(filled, total - filled));
        }
    }

    void append(byte b) {
        ensure(1);
        data[pos++] = b;
    }

    void appendCodePoint(int cp) {
        ensure(4);
        pos = Utf8.encode(cp, data, pos);
    }

    /** The characters {@code [start, end)} of {@code s}, as UTF-8. */
    void appendChars(CharSequence s, int start, int end) {
        for (int i = start; i < end; ) {
            int cp = Character.codePointAt(s, i);
            appendCodePoint(cp);
            i += Character.charCount(cp);
        }
    }

    /**
     * Room for {@code len} bytes that the caller writes itself into {@link #data()} from the
     * returned position on; they count as written.
     */
    int reserve(int len) {
        ensure(len);
        int at = pos;
        pos += len;
        return at;
    }

    /** Gives back the reserved bytes from {@code end} on: the row ends there. */
    void truncate(int end) {
        pos = end;
    }

    /** The array being written; valid until the next append. */
    byte[] data() {
        return data;
    }

    /** The bytes of the row begun last, so far. */
    int rowLength() {
        return pos - offsets[done];
    }

    /** The vector of every row written; the rows after the last started are empty. */
    StringVector finish() {
        return finish(DataType.VARCHAR);
    }

    /** As {@link #finish()}, a vector of {@code type}: VARCHAR, or BLOB where the bytes are a BLOB's. */
    StringVector finish(DataType type) {
        Arrays.fill(offsets, done + 1, offsets.length, pos);
        return new StringVector(type, data, offsets);
    }

    /**
     * Fails a value longer than {@link #MAX_BYTES} (the function's name and values are added by the
     * kernel that catches it).
     */
    static void checkLength(long bytes) {
        if (bytes > MAX_BYTES) {
            throw new DomainException(QueryDataException.Kind.OVERFLOW,
                    "requested length too large (" + bytes + " bytes)");
        }
    }

    private void ensure(int len) {
        if (pos + len > data.length) {
            long need = (long) pos + len;
            if (need > Integer.MAX_VALUE - 16) {
                throw new DomainException(QueryDataException.Kind.OVERFLOW,
                        "requested length too large (" + need + " bytes in one batch)");
            }
            data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, 2L * data.length)));
        }
    }
}
