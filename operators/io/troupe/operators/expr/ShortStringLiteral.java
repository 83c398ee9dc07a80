package io.troupe.operators.expr;

import io.troupe.operators.batch.StringVector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * = and &lt;&gt; of a VARCHAR column against a literal of at most {@link #MAX_BYTES} bytes, the
 * common case of {@code d_day_name = 'Sunday'}: the literal is held as two little-endian words,
 * zero-padded, and each row is compared with two unaligned 8-byte loads, masked to the literal's
 * length, and a length test, without a branch on the data (a byte loop mispredicts on every
 * row when the values vary). A load may read past the row's end into the next rows' bytes,
 * which the mask discards; the rows whose 16 bytes would pass the end of the data array (at most
 * the last few, offsets being ascending) are compared byte by byte instead.
 *
 * <p>Immutable and threadsafe.
 */
final class ShortStringLiteral {

    /** The longest literal held as words. */
    static final int MAX_BYTES = 16;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] bytes;
    private final long lo;
    private final long hi;
    private final long loMask;
    private final long hiMask;

    /** @param bytes the literal's UTF-8, at most {@link #MAX_BYTES} bytes (not modified) */
    ShortStringLiteral(byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("a short string literal has at most " + MAX_BYTES + " bytes, got "
                    + bytes.length);
        }
        this.bytes = bytes;
        this.lo = word(bytes, 0);
        this.hi = word(bytes, 8);
        this.loMask = mask(Math.min(bytes.length, 8));
        this.hiMask = mask(Math.max(0, bytes.length - 8));
    }

    /**
     * Writes the live rows where the value equals the literal ({@code match} 1) or differs (0),
     * not NULL by {@code valid}, to {@code out}; returns their count.
     */
    int select(StringVector v, long[] valid, int match, int[] out, int[] sel, int n) {
        byte[] d = v.data();
        int[] off = v.offsets();
        int safe = wordSafeRows(d, off, sel, n);
        int len = bytes.length;
        int k = 0;
        for (int i = 0; i < safe; i++) {
            int r = sel == null ? i : sel[i];
            int from = off[r];
            out[k] = r;
            k += (differs(d, from, off[r + 1] - from, len) ^ match) & Kernels.bit(valid, r);
        }
        for (int i = safe; i < n; i++) {
            int r = sel == null ? i : sel[i];
            out[k] = r;
            k += (equalAt(d, off[r], off[r + 1]) ? match : match ^ 1) & Kernels.bit(valid, r);
        }
        return k;
    }

    /** Sets {@code o[r]} at the live rows to 1 where the value equals the literal ({@code match} 1) or differs (0). */
    void compare(StringVector v, int match, byte[] o, int[] sel, int n) {
        byte[] d = v.data();
        int[] off = v.offsets();
        int safe = wordSafeRows(d, off, sel, n);
        int len = bytes.length;
        for (int i = 0; i < safe; i++) {
            int r = sel == null ? i : sel[i];
            int from = off[r];
            o[r] = (byte) (differs(d, from, off[r + 1] - from, len) ^ match);
        }
        for (int i = safe; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = (byte) (equalAt(d, off[r], off[r + 1]) ? match : match ^ 1);
        }
    }

    /**
     * 1 when the {@code length} bytes at {@code from} differ from the literal, else 0, in
     * arithmetic only; the second word is not read for a literal of up to 8 bytes (a test the
     * JIT hoists out of the loop).
     */
    private int differs(byte[] d, int from, int length, int len) {
        long x = ((long) LONGS.get(d, from) ^ lo) & loMask;
        long y = hiMask == 0 ? 0 : ((long) LONGS.get(d, from + 8) ^ hi) & hiMask;
        long diff = x | y | (length ^ len);
        return (int) ((diff | -diff) >>> 63);
    }

    /** How many of the first live rows have 16 bytes of {@code d} from their start (offsets ascend). */
    private static int wordSafeRows(byte[] d, int[] off, int[] sel, int n) {
        int safe = n;
        while (safe > 0 && off[sel == null ? safe - 1 : sel[safe - 1]] + 16 > d.length) {
            safe--;
        }
        return safe;
    }

    private boolean equalAt(byte[] d, int from, int to) {
        if (to - from != bytes.length) {
            return false;
        }
        for (int j = 0; j < bytes.length; j++) {
            if (d[from + j] != bytes[j]) {
                return false;
            }
        }
        return true;
    }

    /** Up to 8 bytes of {@code b} from {@code from} as a little-endian word, zero-padded. */
    private static long word(byte[] b, int from) {
        long w = 0;
        for (int j = Math.min(b.length, from + 8) - 1; j >= from; j--) {
            w = (w << 8) | (b[j] & 0xFF);
        }
        return w;
    }

    /** The low {@code count} bytes of a word set. */
    private static long mask(int count) {
        return count == 8 ? -1L : (1L << (8 * count)) - 1;
    }
}
