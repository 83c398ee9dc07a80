package io.troupe.operators.expr;

/**
 * Code points in UTF-8 bytes, read in place: the string kernels count, step and compare characters
 * on a {@code StringVector}'s bytes without decoding rows into Java strings. A character is a code
 * point, as PostgreSQL and {@code length} count it; a byte that continues a sequence
 * ({@code 10xxxxxx}) never starts one, so stepping needs only the lead bytes. Input is valid UTF-8
 * (Troupe's strings are), so no method checks it.
 *
 * <p>Stateless; threadsafe.
 */
final class Utf8 {

    private Utf8() {
    }

    /** True for a byte that continues a multi-byte sequence. */
    static boolean isContinuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /** True when {@code d[from, to)} is all ASCII, where a byte is a character. */
    static boolean isAscii(byte[] d, int from, int to) {
        int bits = 0;
        for (int i = from; i < to; i++) {
            bits |= d[i];
        }
        return bits >= 0;
    }

    /** The characters in {@code d[from, to)}. */
    static int count(byte[] d, int from, int to) {
        int count = 0;
        for (int i = from; i < to; i++) {
            count += isContinuation(d[i]) ? 0 : 1;
        }
        return count;
    }

    /** The position after the character at {@code p} ({@code p < to}). */
    static int next(byte[] d, int p, int to) {
        p++;
        while (p < to && isContinuation(d[p])) {
            p++;
        }
        return p;
    }

    /** The position of the character that ends at {@code p} ({@code p > from}). */
    static int previous(byte[] d, int p, int from) {
        p--;
        while (p > from && isContinuation(d[p])) {
            p--;
        }
        return p;
    }

    /** The position {@code count} characters after {@code p}, or {@code to} when there are fewer. */
    static int advance(byte[] d, int p, int to, long count) {
        for (long k = 0; k < count && p < to; k++) {
            p = next(d, p, to);
        }
        return p;
    }

    /** The position {@code count} characters before {@code p}, or {@code from} when there are fewer. */
    static int retreat(byte[] d, int p, int from, long count) {
        for (long k = 0; k < count && p > from; k++) {
            p = previous(d, p, from);
        }
        return p;
    }

    /** The code point that starts at {@code p}. */
    static int decode(byte[] d, int p) {
        int b = d[p];
        if (b >= 0) {
            return b;
        }
        if ((b & 0xE0) == 0xC0) {
            return (b & 0x1F) << 6 | d[p + 1] & 0x3F;
        }
        if ((b & 0xF0) == 0xE0) {
            return (b & 0x0F) << 12 | (d[p + 1] & 0x3F) << 6 | d[p + 2] & 0x3F;
        }
        return (b & 0x07) << 18 | (d[p + 1] & 0x3F) << 12 | (d[p + 2] & 0x3F) << 6 | d[p + 3] & 0x3F;
    }

    /** The bytes code point {@code cp} takes. */
    static int size(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }

    /** Writes {@code cp} at {@code buf[pos]} (room for 4 bytes); returns the position after it. */
    static int encode(int cp, byte[] buf, int pos) {
        if (cp < 0x80) {
            buf[pos++] = (byte) cp;
        } else if (cp < 0x800) {
            buf[pos++] = (byte) (0xC0 | (cp >> 6));
            buf[pos++] = (byte) (0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            buf[pos++] = (byte) (0xE0 | (cp >> 12));
            buf[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            buf[pos++] = (byte) (0x80 | (cp & 0x3F));
        } else {
            buf[pos++] = (byte) (0xF0 | (cp >> 18));
            buf[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            buf[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            buf[pos++] = (byte) (0x80 | (cp & 0x3F));
        }
        return pos;
    }
}
