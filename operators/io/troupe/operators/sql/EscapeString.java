package io.troupe.operators.sql;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * PostgreSQL's escape string constant, {@code E'...'}, read into the text it stands for: {@code \b \f \n \r \t}, an
 * octal byte {@code \o}, {@code \oo} or {@code \ooo}, a hexadecimal byte {@code \xh} or {@code \xhh}, a code point
 * <code>&#92;uXXXX</code> or <code>&#92;UXXXXXXXX</code>, a doubled quote, and a backslash before any other character being that
 * character. The bytes a constant spells must be UTF-8, as in a PostgreSQL database of that encoding. Stateless.
 */
final class EscapeString {

    /** What is wrong with a constant, and at which character of it (0 being the E). */
    static final class Malformed extends Exception {
        private final int at;

        Malformed(String message, int at) {
            super(message, null, false, false);
            this.at = at;
        }

        int at() {
            return at;
        }
    }

    private EscapeString() {
    }

    /** The text of {@code constant}, written {@code E'...'} with its quotes. */
    static String read(String constant) throws Malformed {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(constant.length());
        int end = constant.length() - 1;
        int i = 2;
        while (i < end) {
            char c = constant.charAt(i);
            if (c == '\'') {
                bytes.write('\'');
                i += 2;
            } else if (c != '\\') {
                int codePoint = constant.codePointAt(i);
                utf8(codePoint, bytes);
                i += Character.charCount(codePoint);
            } else {
                i = escape(constant, i, end, bytes);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new Malformed("invalid byte sequence for encoding \"UTF8\" in " + constant, 0);
        }
    }

    /** Reads the escape at {@code i} (a backslash) into {@code bytes}; the index after it. */
    private static int escape(String constant, int i, int end, ByteArrayOutputStream bytes) throws Malformed {
        if (i + 1 >= end) {
            throw new Malformed("unterminated quoted string at or near \"" + constant + "\"", 0);
        }
        char e = constant.charAt(i + 1);
        switch (e) {
            case 'b' -> bytes.write('\b');
            case 'f' -> bytes.write('\f');
            case 'n' -> bytes.write('\n');
            case 'r' -> bytes.write('\r');
            case 't' -> bytes.write('\t');
            case 'x' -> {
                int digits = digits(constant, i + 2, Math.min(end, i + 4), 16);
                if (digits == 0) {
                    bytes.write('x');
                    return i + 2;
                }
                writeByte(Integer.parseInt(constant.substring(i + 2, i + 2 + digits), 16), constant, i, bytes);
                return i + 2 + digits;
            }
            case 'u', 'U' -> {
                int length = e == 'u' ? 4 : 8;
                if (digits(constant, i + 2, Math.min(end, i + 2 + length), 16) != length) {
                    throw new Malformed("invalid Unicode escape: \\" + e + " takes " + length
                            + " hexadecimal digits", i);
                }
                long codePoint = Long.parseLong(constant.substring(i + 2, i + 2 + length), 16);
                if (codePoint == 0 || codePoint > Character.MAX_CODE_POINT
                        || codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
                    throw new Malformed("invalid Unicode escape value \\" + constant.substring(i + 1, i + 2 + length),
                            i);
                }
                utf8((int) codePoint, bytes);
                return i + 2 + length;
            }
            default -> {
                int digits = digits(constant, i + 1, Math.min(end, i + 4), 8);
                if (digits > 0) {
                    writeByte(Integer.parseInt(constant.substring(i + 1, i + 1 + digits), 8) & 0xFF, constant, i,
                            bytes);
                    return i + 1 + digits;
                }
                int codePoint = constant.codePointAt(i + 1);
                utf8(codePoint, bytes);
                return i + 1 + Character.charCount(codePoint);
            }
        }
        return i + 2;
    }

    /** Writes the byte {@code value}, refusing 0 as PostgreSQL refuses a zero byte in text. */
    private static void writeByte(int value, String constant, int at, ByteArrayOutputStream bytes) throws Malformed {
        if (value == 0) {
            throw new Malformed("invalid byte sequence for encoding \"UTF8\": 0x00 in " + constant, at);
        }
        bytes.write(value);
    }

    /** How many ASCII digits of {@code radix} stand in {@code [from, to)} of {@code text} from {@code from} on. */
    private static int digits(String text, int from, int to, int radix) {
        int n = 0;
        while (from + n < to && text.charAt(from + n) < 128 && Character.digit(text.charAt(from + n), radix) >= 0) {
            n++;
        }
        return n;
    }

    private static void utf8(int codePoint, ByteArrayOutputStream bytes) {
        bytes.writeBytes(new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8));
    }
}
