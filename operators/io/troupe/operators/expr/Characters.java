package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The functions that read or map single characters (code points), as PostgreSQL in a UTF-8
 * database computes them:
 * <ul>
 *   <li>{@code ascii(s)}: the code point of the first character, 0 for {@code ''}; INTEGER.</li>
 *   <li>{@code chr(n)}: the character of code point {@code n}. 0, negative numbers, surrogates and
 *       numbers past U+10FFFF fail with PostgreSQL's messages (DuckDB gives a NUL character for 0).</li>
 *   <li>{@code reverse(s)}: the characters in reverse order (DuckDB keeps a grapheme cluster, such
 *       as a letter and its combining accent, together).</li>
 *   <li>{@code initcap(s)}: the first letter of each word upper case, the rest lower case; a word is
 *       a run of letters and digits ({@link Character#isLetterOrDigit}), as PostgreSQL's libc rule.</li>
 *   <li>{@code translate(s, from, to)}: each character of {@code from} replaced by the character at
 *       the same place in {@code to}, or removed where {@code to} is shorter; the first occurrence
 *       in {@code from} counts.</li>
 * </ul>
 * ASCII takes a shortcut in each: a byte is a character, and maps through a table.
 *
 * <p>Stateless; threadsafe.
 */
final class Characters {

    /** Whether an ASCII byte is a letter or digit: initcap's word characters, looked up without branches. */
    private static final boolean[] ALNUM = new boolean[128];

    static {
        for (int b = 0; b < 128; b++) {
            ALNUM[b] = Character.isLetterOrDigit(b);
        }
    }

    private Characters() {
    }

    static final Signature.Kernel ASCII = (args, type, text) -> StringKernel.number(args, DataType.INT32, text,
            (a, r) -> a.start(0, r) == a.end(0, r) ? 0 : Utf8.decode(a.data(0), a.start(0, r)));

    static final Signature.Kernel CHR = (args, type, text) -> StringKernel.text(args, text, (a, r, out) -> {
        long n = a.integer(0, r);
        if (n < 0) {
            throw new DomainException("character number must be positive (" + n + ")");
        }
        if (n == 0) {
            throw new DomainException("null character not permitted (0)");
        }
        if (n > Character.MAX_CODE_POINT) {
            throw new DomainException("requested character too large for encoding: " + n);
        }
        if (n >= Character.MIN_SURROGATE && n <= Character.MAX_SURROGATE) {
            throw new DomainException("requested character not valid for encoding: " + n);
        }
        out.appendCodePoint((int) n);
    });

    static final Signature.Kernel REVERSE = (args, type, text) -> StringKernel.text(args, text, (a, r, out) -> {
        byte[] d = a.data(0);
        int from = a.start(0, r);
        int to = a.end(0, r);
        int base = out.reserve(to - from);
        byte[] o = out.data();
        if (Utf8.isAscii(d, from, to)) {
            for (int p = from, q = base + (to - from) - 1; p < to; p++, q--) {
                o[q] = d[p];
            }
            return;
        }
        // Each character's bytes keep their order; the characters land from the end backwards.
        for (int p = from; p < to; ) {
            int next = Utf8.next(d, p, to);
            System.arraycopy(d, p, o, base + (to - next), next - p);
            p = next;
        }
    });

    static final Signature.Kernel INITCAP = (args, type, text) -> StringKernel.text(args, text, (a, r, out) -> {
        byte[] d = a.data(0);
        int to = a.end(0, r);
        // Each character maps to one of at most 4 bytes, so 4 per input byte is room enough.
        int w = out.reserve(4 * (to - a.start(0, r)));
        byte[] o = out.data();
        boolean inWord = false;
        for (int p = a.start(0, r); p < to; ) {
            int b = d[p];
            if (b >= 0) {
                o[w++] = (inWord ? CaseMapping.LOWER : CaseMapping.UPPER)[b];
                inWord = ALNUM[b];
                p++;
            } else {
                int cp = Utf8.decode(d, p);
                w = Utf8.encode(inWord ? Character.toLowerCase(cp) : Character.toUpperCase(cp), o, w);
                inWord = Character.isLetterOrDigit(cp);
                p = Utf8.next(d, p, to);
            }
        }
        out.truncate(w);
    });

    static final Signature.Kernel TRANSLATE = (args, type, text) -> {
        byte[] from = StringFunctions.constant(args.get(1));
        byte[] to = StringFunctions.constant(args.get(2));
        if (from != null && to != null) {
            Mapping m = new Mapping(from, 0, from.length, to, 0, to.length);
            return StringKernel.text(args, text, (a, r, out) -> m.apply(a.data(0), a.start(0, r), a.end(0, r), out));
        }
        return StringKernel.text(args, text, (a, r, out) -> new Mapping(a.data(1), a.start(1, r), a.end(1, r),
                a.data(2), a.start(2, r), a.end(2, r)).apply(a.data(0), a.start(0, r), a.end(0, r), out));
    };

    /**
     * translate's character map: ASCII through a table, the rest through a hash map. When every ASCII
     * character maps to an ASCII one (none removed), an ASCII row maps byte for byte through {@link
     * #bytes}, without a branch per character.
     */
    private static final class Mapping {

        /** A character that {@code from} does not hold maps to itself. */
        private static final int KEEP = -1;
        /** A character of {@code from} past the end of {@code to} is removed. */
        private static final int DROP = -2;

        private final int[] ascii = new int[128];
        private final Map<Integer, Integer> others = new HashMap<>();
        /** Each ASCII byte's image, or null when one is removed or maps past ASCII. */
        private final byte[] bytes;

        Mapping(byte[] f, int ff, int ft, byte[] t, int tf, int tt) {
            Arrays.fill(ascii, KEEP);
            int q = tf;
            for (int p = ff; p < ft; p = Utf8.next(f, p, ft)) {
                int cp = Utf8.decode(f, p);
                int target = q < tt ? Utf8.decode(t, q) : DROP;
                q = q < tt ? Utf8.next(t, q, tt) : q;
                if (cp < 128) {
                    if (ascii[cp] == KEEP) {
                        ascii[cp] = target;
                    }
                } else {
                    others.putIfAbsent(cp, target);
                }
            }
            byte[] direct = new byte[128];
            for (int b = 0; b < 128 && direct != null; b++) {
                int target = ascii[b] == KEEP ? b : ascii[b];
                direct = target < 0 || target >= 128 ? null : direct;
                if (direct != null) {
                    direct[b] = (byte) target;
                }
            }
            this.bytes = direct;
        }

        void apply(byte[] d, int from, int to, TextOut out) {
            if (bytes != null && Utf8.isAscii(d, from, to)) {
                int w = out.reserve(to - from);
                byte[] o = out.data();
                for (int p = from; p < to; p++) {
                    o[w++] = bytes[d[p]];
                }
                return;
            }
            int w = out.reserve(4 * (to - from));
            byte[] o = out.data();
            for (int p = from; p < to; ) {
                int b = d[p];
                if (b >= 0) {
                    int target = ascii[b];
                    if (target == KEEP) {
                        o[w++] = (byte) b;
                    } else if (target != DROP) {
                        w = Utf8.encode(target, o, w);
                    }
                    p++;
                    continue;
                }
                int next = Utf8.next(d, p, to);
                int target = others.getOrDefault(Utf8.decode(d, p), KEEP);
                if (target == KEEP) {
                    System.arraycopy(d, p, o, w, next - p);
                    w += next - p;
                } else if (target != DROP) {
                    w = Utf8.encode(target, o, w);
                }
                p = next;
            }
            out.truncate(w);
        }
    }
}
