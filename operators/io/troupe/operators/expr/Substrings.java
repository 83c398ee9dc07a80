package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * The functions that find or cut out parts of a string, in characters (code points) as PostgreSQL
 * counts them, searching the UTF-8 bytes in place (a valid needle matches a valid haystack only at
 * character boundaries, so a byte search is exact):
 * <ul>
 *   <li>{@code left(s, n)}, {@code right(s, n)}: the first (last) {@code n} characters; a negative
 *       {@code n} is all but the last (first) {@code |n|}.</li>
 *   <li>{@code strpos(s, sub)}: where {@code sub} first occurs, from 1; 0 when it does not; 1 for
 *       an empty {@code sub}. BIGINT, as DuckDB's. SQL's {@code POSITION(sub IN s)} lowers to it.</li>
 *   <li>{@code split_part(s, delimiter, n)}: field {@code n} of {@code s} split at each
 *       {@code delimiter}, from 1, or from the end for a negative {@code n} (PostgreSQL 14); past
 *       the last field, {@code ''}. As PostgreSQL: {@code n = 0} fails, an empty delimiter makes
 *       {@code s} one field, an empty {@code s} has none (DuckDB: '' for 0, and an empty delimiter
 *       splits into characters).</li>
 *   <li>{@code starts_with(s, prefix)}, {@code ends_with(s, suffix)}: BOOLEAN.</li>
 *   <li>{@code replace(s, from, to)}: every {@code from}, left to right and not overlapping,
 *       replaced by {@code to}; an empty {@code from} replaces nothing.</li>
 * </ul>
 *
 * <p>Stateless; threadsafe.
 */
final class Substrings {

    private Substrings() {
    }

    static Signature.Kernel left(boolean left) {
        return (args, type, text) -> StringKernel.text(args, text, (a, r, out) -> {
            byte[] d = a.data(0);
            int from = a.start(0, r);
            int to = a.end(0, r);
            long n = a.integer(1, r);
            if (left) {
                out.append(d, from, n >= 0 ? Utf8.advance(d, from, to, n) : Utf8.retreat(d, to, from, magnitude(n)));
            } else {
                out.append(d, n >= 0 ? Utf8.retreat(d, to, from, n) : Utf8.advance(d, from, to, magnitude(n)), to);
            }
        });
    }

    static final Signature.Kernel STRPOS = (args, type, text) -> StringKernel.number(args, DataType.INT64, text,
            (a, r) -> {
                byte[] d = a.data(0);
                int from = a.start(0, r);
                int at = indexOf(d, from, a.end(0, r), a.data(1), a.start(1, r), a.end(1, r));
                return at < 0 ? 0 : 1 + Utf8.count(d, from, at);
            });

    static final Signature.Kernel STARTS_WITH = (args, type, text) -> StringKernel.predicate(args, text, (a, r) -> {
        int len = a.end(1, r) - a.start(1, r);
        int from = a.start(0, r);
        return a.end(0, r) - from >= len
                && Arrays.equals(a.data(0), from, from + len, a.data(1), a.start(1, r), a.end(1, r));
    });

    static final Signature.Kernel ENDS_WITH = (args, type, text) -> StringKernel.predicate(args, text, (a, r) -> {
        int len = a.end(1, r) - a.start(1, r);
        int to = a.end(0, r);
        return to - a.start(0, r) >= len
                && Arrays.equals(a.data(0), to - len, to, a.data(1), a.start(1, r), a.end(1, r));
    });

    static final Signature.Kernel REPLACE = (args, type, text) -> StringKernel.text(args, text, (a, r, out) -> {
        byte[] d = a.data(0);
        int p = a.start(0, r);
        int to = a.end(0, r);
        byte[] f = a.data(1);
        int ff = a.start(1, r);
        int ft = a.end(1, r);
        if (ff < ft) {
            for (int at = indexOf(d, p, to, f, ff, ft); at >= 0; at = indexOf(d, p, to, f, ff, ft)) {
                out.append(d, p, at);
                out.append(a.data(2), a.start(2, r), a.end(2, r));
                p = at + (ft - ff);
            }
        }
        out.append(d, p, to);
    });

    static final Signature.Kernel SPLIT_PART = (args, type, text) -> StringKernel.text(args, text, (a, r, out) -> {
        long n = a.integer(2, r);
        if (n == 0) {
            throw new DomainException("field position must not be zero");
        }
        byte[] d = a.data(0);
        int from = a.start(0, r);
        int to = a.end(0, r);
        byte[] sep = a.data(1);
        int sf = a.start(1, r);
        int st = a.end(1, r);
        if (from == to) {
            return;
        }
        if (sf == st) {
            if (n == 1 || n == -1) {
                out.append(d, from, to);
            }
            return;
        }
        if (n < 0) {
            long fields = 1;
            for (int at = indexOf(d, from, to, sep, sf, st); at >= 0; at = indexOf(d, at + st - sf, to, sep, sf, st)) {
                fields++;
            }
            n = fields + n + 1;
            if (n <= 0) {
                return;
            }
        }
        int p = from;
        for (long k = 1; k < n; k++) {
            int at = indexOf(d, p, to, sep, sf, st);
            if (at < 0) {
                return;
            }
            p = at + (st - sf);
        }
        int at = indexOf(d, p, to, sep, sf, st);
        out.append(d, p, at < 0 ? to : at);
    });

    /** {@code |n|} for a negative {@code n}, as a count that {@code Long.MIN_VALUE} cannot turn negative. */
    private static long magnitude(long n) {
        return n == Long.MIN_VALUE ? Long.MAX_VALUE : -n;
    }

    /** The first position of {@code needle[nf, nt)} in {@code d[from, to)}, or -1; {@code from} for an empty needle. */
    static int indexOf(byte[] d, int from, int to, byte[] needle, int nf, int nt) {
        int n = nt - nf;
        if (n == 0) {
            return from;
        }
        byte first = needle[nf];
        for (int i = from, last = to - n; i <= last; i++) {
            if (d[i] == first && Arrays.equals(d, i + 1, i + n, needle, nf + 1, nt)) {
                return i;
            }
        }
        return -1;
    }
}
