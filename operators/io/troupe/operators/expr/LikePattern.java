package io.troupe.operators.expr;

import io.troupe.operators.exec.QueryDataException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A compiled LIKE pattern: {@code %} matches any run of characters, {@code _} exactly one
 * character (code point), and the escape character (a backslash unless the call names another, as
 * in PostgreSQL) makes the character after it literal. Compiled once, at bind time, into the
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

    /**
     * {@code pattern} with {@code escape} (a code point, or -1 for none) making the character after
     * it literal; with {@code ignoreCase}, its literal characters lower-cased, to match a value
     * lower-cased the same way (ILIKE).
     *
     * @throws DomainException when the pattern ends with the escape character, as PostgreSQL fails it
     */
    static LikePattern compile(String pattern, int escape, boolean ignoreCase) {
        int[] tokens = new int[4 * pattern.length()];
        int count = 0;
        boolean anyOne = false;
        byte[] utf8 = new byte[4];
        for (int i = 0; i < pattern.length(); ) {
            int cp = pattern.codePointAt(i);
            i += Character.charCount(cp);
            boolean literal = cp == escape;
            if (literal) {
                if (i >= pattern.length()) {
                    throw new DomainException(QueryDataException.Kind.INVALID_ESCAPE,
                            "LIKE pattern must not end with escape character (pattern '" + pattern + "')");
                }
                cp = pattern.codePointAt(i);
                i += Character.charCount(cp);
            }
            if (!literal && cp == '%') {
                if (count == 0 || tokens[count - 1] != ANY_MANY) {
                    tokens[count++] = ANY_MANY; // %% is %
                }
            } else if (!literal && cp == '_') {
                tokens[count++] = ANY_ONE;
                anyOne = true;
            } else {
                int len = Utf8.encode(ignoreCase ? Character.toLowerCase(cp) : cp, utf8, 0);
                for (int k = 0; k < len; k++) {
                    tokens[count++] = utf8[k] & 0xFF;
                }
            }
        }
        tokens = Arrays.copyOf(tokens, count);
        if (anyOne) {
            return new LikePattern(Shape.GENERAL, null, false, false, tokens);
        }
        List<byte[]> segments = new ArrayList<>();
        int start = 0;
        for (int k = 0; k <= count; k++) {
            if (k == count || tokens[k] == ANY_MANY) {
                if (k > start) {
                    byte[] segment = new byte[k - start];
                    for (int j = start; j < k; j++) {
                        segment[j - start] = (byte) tokens[j];
                    }
                    segments.add(segment);
                }
                start = k + 1;
            }
        }
        boolean leading = count > 0 && tokens[0] == ANY_MANY;
        boolean trailing = count > 0 && tokens[count - 1] == ANY_MANY;
        Shape shape;
        if (segments.isEmpty()) {
            shape = count == 0 ? Shape.EXACT : Shape.ANY;
            if (count == 0) {
                segments.add(new byte[0]);
            }
        } else if (segments.size() == 1) {
            shape = leading ? (trailing ? Shape.CONTAINS : Shape.SUFFIX) : (trailing ? Shape.PREFIX : Shape.EXACT);
        } else {
            shape = Shape.SEGMENTS;
        }
        return new LikePattern(shape, segments.toArray(new byte[0][]), leading, trailing, null);
    }

    Shape shape() {
        return shape;
    }

    /** The single literal segment of EXACT, PREFIX, SUFFIX and CONTAINS. */
    byte[] literal() {
        return segments[0];
    }

    /** Whether {@code d[from, to)} matches, whatever the shape (the kernel's loops test the simple shapes inline). */
    boolean test(byte[] d, int from, int to) {
        return switch (shape) {
            case ANY -> true;
            case EXACT -> Arrays.equals(d, from, to, segments[0], 0, segments[0].length);
            case PREFIX -> startsWith(d, from, to, segments[0]);
            case SUFFIX -> endsWith(d, from, to, segments[0]);
            case CONTAINS -> indexOf(d, from, to, segments[0]) >= 0;
            default -> matches(d, from, to);
        };
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
                t = Utf8.next(d, t, to);
                p++;
            } else if (p < tk.length && tk[p] >= 0 && tk[p] == (d[t] & 0xFF)) {
                t++;
                p++;
            } else if (p < tk.length && tk[p] == ANY_MANY) {
                starP = p++;
                starT = t;
            } else if (starP >= 0) {
                p = starP + 1;
                starT = Utf8.next(d, starT, to);
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

    static boolean startsWith(byte[] d, int from, int to, byte[] prefix) {
        return to - from >= prefix.length && Arrays.equals(d, from, from + prefix.length, prefix, 0, prefix.length);
    }

    static boolean endsWith(byte[] d, int from, int to, byte[] suffix) {
        return to - from >= suffix.length && Arrays.equals(d, to - suffix.length, to, suffix, 0, suffix.length);
    }

    /** The first position of {@code needle} in {@code d[from, to)}, or -1. */
    static int indexOf(byte[] d, int from, int to, byte[] needle) {
        return Substrings.indexOf(d, from, to, needle, 0, needle.length);
    }
}
