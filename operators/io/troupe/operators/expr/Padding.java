package io.troupe.operators.expr;

/**
 * {@code lpad(s, n [, fill])}, {@code rpad(s, n [, fill])} and {@code repeat(s, n)}, as PostgreSQL
 * computes them, in characters (code points):
 * <ul>
 *   <li>lpad, rpad: {@code s} padded to {@code n} characters on the left (right) with {@code fill}
 *       repeated (a space when left out); an {@code s} longer than {@code n} is cut to its first
 *       {@code n} characters; a negative {@code n} is 0; an empty {@code fill} leaves {@code s} as it
 *       is (DuckDB fails that).</li>
 *   <li>repeat: {@code s} {@code n} times; {@code n <= 0} gives {@code ''}.</li>
 * </ul>
 * A result past {@link TextOut#MAX_BYTES} fails with "requested length too large".
 *
 * <p>Stateless; threadsafe.
 */
final class Padding {

    private static final byte[] SPACE = {' '};

    private Padding() {
    }

    /** The kernel of lpad ({@code left}) or rpad, with or without a fill argument. */
    static Signature.Kernel kernel(boolean left) {
        return (args, type, text) -> StringKernel.text(args, text, (a, r, out) -> pad(a, r, out, left));
    }

    static final Signature.Kernel REPEAT = (args, type, text) -> StringKernel.text(args, text, Padding::repeat);

    private static void pad(StringKernel.Args a, int r, TextOut out, boolean left) {
        byte[] d = a.data(0);
        int from = a.start(0, r);
        int to = a.end(0, r);
        long n = Math.max(0, a.integer(1, r));
        int chars = Utf8.count(d, from, to);
        byte[] f = SPACE;
        int ff = 0;
        int ft = 1;
        if (a.count() == 3) {
            f = a.data(2);
            ff = a.start(2, r);
            ft = a.end(2, r);
        }
        if (chars >= n || ff == ft) {
            out.append(d, from, chars >= n ? Utf8.advance(d, from, to, n) : to);
            return;
        }
        long missing = n - chars;
        TextOut.checkLength(missing);
        int fillChars = Utf8.count(f, ff, ft);
        int partEnd = Utf8.advance(f, ff, ft, missing % fillChars);
        TextOut.checkLength(missing / fillChars * (ft - ff) + (partEnd - ff) + (to - from));
        if (!left) {
            out.append(d, from, to);
        }
        out.appendRepeated(f, ff, ft, missing / fillChars);
        out.append(f, ff, partEnd);
        if (left) {
            out.append(d, from, to);
        }
    }

    private static void repeat(StringKernel.Args a, int r, TextOut out) {
        byte[] d = a.data(0);
        int from = a.start(0, r);
        int to = a.end(0, r);
        long n = a.integer(1, r);
        if (n <= 0 || from == to) {
            return;
        }
        TextOut.checkLength(n > TextOut.MAX_BYTES ? n : n * (to - from));
        out.appendRepeated(d, from, to, n);
    }
}
