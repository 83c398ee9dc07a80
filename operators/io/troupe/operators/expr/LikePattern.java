package io.troupe.operators.expr;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A compiled LIKE pattern: {@code %} matches any run of characters, {@code _} exactly one
 * character (code point); there is no escape character. Compiled once, at bind time, into the
 * cheapest matcher that fits ({@link Shape}); matching reads UTF-8 bytes in place and allocates
 * nothing.
 *
 * <p>Matching literal text byte by byte is exact for UTF-8: a valid needle can only match a
 * valid haystack at code point boundaries. Only {@code _} needs to know where a code point ends.
 *
 * <p>Immutable and threadsafe.
 */
final class LikePattern {

    /** How a pattern matches, cheapest first. */
    enum Shape {
        /** Only {@code %}: anything matches. */
        ANY,
        /** No wildcard: byte equality. */
        EXACT,
        /** {@code abc%} */
        PREFIX,
        /** {@code %abc} */
        SUFFIX,
        /** {@code %abc%} */
        CONTAINS,
        /** Several literal segments and {@code %}, no {@code _}: each segment at its leftmost place. */
        SEGMENTS,
        /** With {@code _}: a backtracking matcher over tokens. */
        GENERAL
    }

    /** Token of a {@link Shape#GENERAL} pattern: one byte of text (0..255), or a wildcard. */
    private static final int ANY_ONE = -1;
    private static final int ANY_MANY = -2;

    private final Shape shape;
    /** The literal segments between {@code %}s, in order (EXACT to SEGMENTS). */
    private final byte[][] segments;
    /** Whether the pattern starts / ends with {@code %} (SEGMENTS). */
    private final boolean leadingAny;
    private final boolean trailingAny;
    /** The tokens of a GENERAL pattern. */
    private final int[] tokens;

    private LikePattern(Shape shape, byte[][] segments, boolean leadingAny, boolean trailingAny, int[] tokens) {
        this.shape = shape;
        this.segments = segments;
        this.leadingAny = leadingAny;
        this.trailingAny = trailingAny;
        this.tokens = tokens;
    }

    static LikePattern compile(String pattern) {
        if (pattern.indexOf('_') >= 0) {
            byte[] utf8 = pattern.getBytes(StandardCharsets.UTF_8);
            int[] tokens = new int[utf8.length];
            int count = 0;
            for (byte b : utf8) {
                int token = b == '%' ? ANY_MANY : b == '_' ? ANY_ONE : b & 0xFF;
                if (token == ANY_MANY && count > 0 && tokens[count - 1] == ANY_MANY) {
                    continue; // %% is %
                }
                tokens[count++] = token;
            }
            return new LikePattern(Shape.GENERAL, null, false, false, Arrays.copyOf(tokens, count));
        }
        List<byte[]> parts = new ArrayList<>();
        for (String part : pattern.split("%", -1)) {
            if (!part.isEmpty()) {
                parts.add(part.getBytes(StandardCharsets.UTF_8));
            }
        }
        byte[][] segments = parts.toArray(new byte[0][]);
        boolean leading = pattern.startsWith("%");
        boolean trailing = pattern.endsWith("%");
        Shape shape;
        if (segments.length == 0) {
            shape = pattern.isEmpty() ? Shape.EXACT : Shape.ANY;
            segments = pattern.isEmpty() ? new byte[][] {new byte[0]} : segments;
        } else if (segments.length == 1) {
            shape = leading ? (trailing ? Shape.CONTAINS : Shape.SUFFIX) : (trailing ? Shape.PREFIX : Shape.EXACT);
        } else {
            shape = Shape.SEGMENTS;
        }
        return new LikePattern(shape, segments, leading, trailing, null);
    }

    Shape shape() {
        return shape;
    }

    /** The single literal segment of EXACT, PREFIX, SUFFIX and CONTAINS. */
    byte[] literal() {
        return segments[0];
    }

    /** Whether {@code d[from, to)} matches a SEGMENTS or GENERAL pattern. */
    boolean matches(byte[] d, int from, int to) {
        return shape == Shape.GENERAL ? matchTokens(d, from, to) : matchSegments(d, from, to);
    }

    private boolean matchSegments(byte[] d, int from, int to) {
        int pos = from;
        int first = 0;
        int last = segments.length;
        if (!leadingAny) {
            if (!startsWith(d, pos, to, segments[0])) {
                return false;
            }
            pos += segments[0].length;
            first = 1;
        }
        if (!trailingAny) {
            last--;
        }
        for (int k = first; k < last; k++) {
            int at = indexOf(d, pos, to, segments[k]);
            if (at < 0) {
                return false;
            }
            pos = at + segments[k].length;
        }
        if (!trailingAny) {
            byte[] tail = segments[segments.length - 1];
            return to - pos >= tail.length && startsWith(d, to - tail.length, to, tail);
        }
        return true;
    }

    /** Wildcard matching with backtracking to the last {@code %} only: enough, since {@code %} absorbs any run. */
    private boolean matchTokens(byte[] d, int from, int to) {
        int p = 0;
        int t = from;
        int starP = -1;
        int starT = -1;
        int[] tk = tokens;
        while (t < to) {
            if (p < tk.length && tk[p] == ANY_ONE) {
                t = nextCodePoint(d, t, to);
                p++;
            } else if (p < tk.length && tk[p] >= 0 && tk[p] == (d[t] & 0xFF)) {
                t++;
                p++;
            } else if (p < tk.length && tk[p] == ANY_MANY) {
                starP = p++;
                starT = t;
            } else if (starP >= 0) {
                p = starP + 1;
                starT = nextCodePoint(d, starT, to);
                t = starT;
            } else {
                return false;
            }
        }
        while (p < tk.length && tk[p] == ANY_MANY) {
            p++;
        }
        return p == tk.length;
    }

    private static int nextCodePoint(byte[] d, int t, int to) {
        t++;
        while (t < to && (d[t] & 0xC0) == 0x80) {
            t++;
        }
        return t;
    }

    static boolean startsWith(byte[] d, int from, int to, byte[] prefix) {
        return to - from >= prefix.length && Arrays.equals(d, from, from + prefix.length, prefix, 0, prefix.length);
    }

    static boolean endsWith(byte[] d, int from, int to, byte[] suffix) {
        return to - from >= suffix.length && Arrays.equals(d, to - suffix.length, to, suffix, 0, suffix.length);
    }

    /** The first position of {@code needle} in {@code d[from, to)}, or -1. */
    static int indexOf(byte[] d, int from, int to, byte[] needle) {
        int n = needle.length;
        if (n == 0) {
            return from;
        }
        byte first = needle[0];
        for (int i = from, last = to - n; i <= last; i++) {
            if (d[i] == first && Arrays.equals(d, i + 1, i + n, needle, 1, n)) {
                return i;
            }
        }
        return -1;
    }
}
