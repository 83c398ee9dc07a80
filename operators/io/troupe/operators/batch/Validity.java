package io.troupe.operators.batch;

import java.util.Arrays;

/** Helpers for validity bitmaps: one bit per row, set = valid (see {@link ColumnVector}). */
public final class Validity {

    private Validity() {
    }

    /** Words needed for {@code rows} bits. */
    public static int words(int rows) {
        return (rows + 63) >>> 6;
    }

    /** A bitmap with every row valid. */
    public static long[] allValid(int rows) {
        long[] bits = new long[Math.max(1, words(rows))];
        Arrays.fill(bits, -1L);
        return bits;
    }

    /**
     * The AND of two bitmaps (a row is valid when valid in both), either of which may be null
     * (all valid). Returns one of the inputs unchanged when the other is null; never modifies them.
     */
    public static long[] and(long[] a, long[] b) {
        if (a == null) {
            return b == null ? null : b.clone();
        }
        if (b == null) {
            return a.clone();
        }
        long[] out = new long[Math.min(a.length, b.length)];
        for (int i = 0; i < out.length; i++) {
            out[i] = a[i] & b[i];
        }
        return out;
    }
}
