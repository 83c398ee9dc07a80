package io.troupe.operators.expr;

/**
 * {@code btrim(s [, characters])}, {@code ltrim} and {@code rtrim}: {@code s} without the longest
 * run at its start, its end or both made only of {@code characters} (a set of code points; a space
 * when left out, as in PostgreSQL and DuckDB: not tabs or newlines). SQL's
 * {@code TRIM([BOTH | LEADING | TRAILING] [characters] FROM s)} lowers to these. A constant set is
 * built once per call; an ASCII character tests two bitmap words ({@link CodePointSet}).
 *
 * <p>Stateless; threadsafe.
 */
final class Trim {

    private Trim() {
    }

    /** The kernel of a trim at the start ({@code left}), the end ({@code right}) or both. */
    static Signature.Kernel kernel(boolean left, boolean right) {
        return (args, type, text) -> {
            byte[] chars = args.size() == 1 ? null : StringFunctions.constant(args.get(1));
            if (args.size() == 1 || chars != null) {
                CodePointSet set = chars == null ? CodePointSet.SPACE : CodePointSet.of(chars, 0, chars.length);
                return StringKernel.text(args, text, (a, r, out) -> trim(a, r, out, set, left, right));
            }
            return StringKernel.text(args, text, (a, r, out) -> trim(a, r, out,
                    CodePointSet.of(a.data(1), a.start(1, r), a.end(1, r)), left, right));
        };
    }

    private static void trim(StringKernel.Args a, int r, TextOut out, CodePointSet set, boolean left, boolean right) {
        byte[] d = a.data(0);
        int p = a.start(0, r);
        int q = a.end(0, r);
        if (left) {
            while (p < q && set.contains(Utf8.decode(d, p))) {
                p = Utf8.next(d, p, q);
            }
        }
        if (right) {
            while (q > p) {
                int last = Utf8.previous(d, q, p);
                if (!set.contains(Utf8.decode(d, last))) {
                    break;
                }
                q = last;
            }
        }
        out.append(d, p, q);
    }
}
