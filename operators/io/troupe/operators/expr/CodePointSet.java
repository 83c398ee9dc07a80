package io.troupe.operators.expr;

import java.util.Arrays;

/**
 * The characters of a string as a set, for {@code btrim}'s characters: ASCII in two bitmap words,
 * the rest in a sorted array, so that the common case (spaces, punctuation) is a shift and a mask.
 *
 * <p>Immutable and threadsafe.
 */
final class CodePointSet {

    /** The set of {@code ' '} alone: trim's default. */
    static final CodePointSet SPACE = of(new byte[] {' '}, 0, 1);

    private final long low;
    private final long high;
    private final int[] others;

    private CodePointSet(long low, long high, int[] others) {
        this.low = low;
        this.high = high;
        this.others = others;
    }

    /** The characters of {@code d[from, to)}. */
    static CodePointSet of(byte[] d, int from, int to) {
        long low = 0;
        long high = 0;
        int[] others = new int[0];
        int count = 0;
        for (int p = from; p < to; p = Utf8.next(d, p, to)) {
            int cp = Utf8.decode(d, p);
            if (cp < 64) {
                low |= 1L << cp;
            } else if (cp < 128) {
                high |= 1L << cp;
            } else {
                if (count == others.length) {
                    others = Arrays.copyOf(others, Math.max(4, 2 * count));
                }
                others[count++] = cp;
            }
        }
        others = Arrays.copyOf(others, count);
        Arrays.sort(others);
        return new CodePointSet(low, high, others);
    }

    boolean contains(int cp) {
        if (cp < 128) {
            return ((cp < 64 ? low : high) & (1L << cp)) != 0;
        }
        return others.length > 0 && Arrays.binarySearch(others, cp) >= 0;
    }
}
