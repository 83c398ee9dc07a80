package io.troupe.operators.types;

/**
 * Checks that bytes are well-formed UTF-8, as a VARCHAR must be: shortest forms only, no surrogates, no code
 * point past U+10FFFF (RFC 3629). For readers of files whose text is not known to be UTF-8 (delimited files,
 * Parquet's BINARY without an annotation). Stateless.
 */
public final class Utf8 {

    private Utf8() {
    }

    /** True when {@code b[from .. to)} is well-formed UTF-8. */
    public static boolean isValid(byte[] b, int from, int to) {
        int p = from;
        while (p < to && b[p] >= 0) {
            p++;
        }
        while (p < to) {
            int c = b[p] & 0xFF;
            if (c < 0x80) {
                p++;
                continue;
            }
            int need;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                min = 0x10000;
            } else {
                return false;
            }
            if (p + need >= to) {
                return false;
            }
            int cp = c & (0x3F >> need);
            for (int i = 1; i <= need; i++) {
                int cc = b[p + i] & 0xFF;
                if ((cc & 0xC0) != 0x80) {
                    return false;
                }
                cp = (cp << 6) | (cc & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return false;
            }
            p += need + 1;
        }
        return true;
    }
}
