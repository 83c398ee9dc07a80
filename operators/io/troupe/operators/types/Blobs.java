package io.troupe.operators.types;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * BLOB values' text, as PostgreSQL's {@code bytea} reads and writes it. Written in the hex form, {@code \x} and two
 * lower-case digits a byte ({@code \x01ff}); read in either of its forms: the hex form ({@code \x0102}, white space
 * allowed between bytes) or the escape form, where {@code \\} is a backslash, {@code \ooo} a byte in octal and any
 * other character its UTF-8 bytes (so {@code CAST('abc' AS BLOB)} is the bytes of {@code abc}, as in DuckDB).
 * DuckDB prints {@code \x01\xFF} escapes instead, and reads {@code \x01} as one byte; Troupe follows PostgreSQL.
 * Stateless; threadsafe.
 */
public final class Blobs {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Blobs() {
    }

    /** {@code bytes[from..to)} in the hex form. */
    public static String text(byte[] bytes, int from, int to) {
        StringBuilder out = new StringBuilder(2 + 2 * (to - from)).append("\\x");
        for (int i = from; i < to; i++) {
            out.append(HEX[(bytes[i] >> 4) & 0xF]).append(HEX[bytes[i] & 0xF]);
        }
        return out.toString();
    }

    /** {@code bytes} in the hex form. */
    public static String text(byte[] bytes) {
        return text(bytes, 0, bytes.length);
    }

    /** The bytes {@code text} spells in either form; an {@link IllegalArgumentException} naming what is wrong. */
    public static byte[] parse(CharSequence text) {
        if (text.length() >= 2 && text.charAt(0) == '\\' && text.charAt(1) == 'x') {
            return parseHex(text, 2);
        }
        return parseEscape(text);
    }

    /** The bytes of {@code text} in the escape form: {@code \\} a backslash, {@code \ooo} a byte, the rest UTF-8. */
    public static byte[] parseEscape(CharSequence text) {
        int n = text.length();
        ByteArrayOutputStream out = new ByteArrayOutputStream(n);
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                int end = Character.isHighSurrogate(c) && i + 1 < n ? i + 2 : i + 1;
                byte[] utf8 = text.subSequence(i, end).toString().getBytes(StandardCharsets.UTF_8);
                out.write(utf8, 0, utf8.length);
                i = end - 1;
            } else if (i + 1 < n && text.charAt(i + 1) == '\\') {
                out.write('\\');
                i++;
            } else if (i + 3 < n && isOctal(text.charAt(i + 1), '3') && isOctal(text.charAt(i + 2), '7')
                    && isOctal(text.charAt(i + 3), '7')) {
                out.write((text.charAt(i + 1) - '0') << 6 | (text.charAt(i + 2) - '0') << 3 | text.charAt(i + 3) - '0');
                i += 3;
            } else {
                throw new IllegalArgumentException("invalid input syntax for type bytea: \"" + text + "\"");
            }
        }
        return out.toByteArray();
    }

    /** Hex digits from {@code at}, two a byte, white space between bytes; PostgreSQL's errors otherwise. */
    public static byte[] parseHex(CharSequence text, int at) {
        int n = text.length();
        ByteArrayOutputStream out = new ByteArrayOutputStream((n - at) / 2);
        for (int i = at; i < n; i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                continue;
            }
            int hi = digit(c);
            if (i + 1 >= n) {
                throw new IllegalArgumentException("invalid hexadecimal data: odd number of digits in \"" + text
                        + "\"");
            }
            int lo = digit(text.charAt(++i));
            out.write(hi << 4 | lo);
        }
        return out.toByteArray();
    }

    private static int digit(char c) {
        int d = c < 128 ? Character.digit(c, 16) : -1;
        if (d < 0) {
            throw new IllegalArgumentException("invalid hexadecimal digit: \"" + c + "\"");
        }
        return d;
    }

    private static boolean isOctal(char c, char max) {
        return c >= '0' && c <= max;
    }
}
