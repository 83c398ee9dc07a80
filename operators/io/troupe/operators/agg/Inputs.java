package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.Int128;

/**
 * Gathers an aggregate's argument into dense arrays indexed by live row (entry i belongs to the
 * batch's i-th live row), so that the update loops of the aggregate states are one tight loop
 * over primitive arrays, whatever the vector class and the selection. Dispatch is once per batch.
 *
 * <p>Stateless; the scratch arrays passed in belong to the caller (one worker).
 */
final class Inputs {

    private Inputs() {
    }

    /** {@code scratch} when it holds {@code n} entries, else a larger array. */
    static long[] room(long[] scratch, int n) {
        return scratch != null && scratch.length >= n ? scratch : new long[Math.max(n, 64)];
    }

    static double[] room(double[] scratch, int n) {
        return scratch != null && scratch.length >= n ? scratch : new double[Math.max(n, 64)];
    }

    static byte[] room(byte[] scratch, int n) {
        return scratch != null && scratch.length >= n ? scratch : new byte[Math.max(n, 64)];
    }

    static int[] room(int[] scratch, int n) {
        return scratch != null && scratch.length >= n ? scratch : new int[Math.max(n, 64)];
    }

    /**
     * The live values of an INT32, DATE, INT64, DECIMAL (unscaled) or BOOLEAN (0/1) vector as
     * longs; values at NULL rows are unspecified. For a dense batch (no selection) an INT64 or
     * DECIMAL vector's own array is returned, not copied (several aggregates often read one
     * column, as the arms of CASE that share it): read the result, never write it, and never keep
     * it as the next call's scratch.
     */
    static long[] longs(ColumnVector v, Batch batch, long[] scratch) {
        int n = batch.size();
        if (v instanceof LongVector lv && batch.selection() == null) {
            return lv.values();
        }
        long[] out = room(scratch, n);
        if (v instanceof IntVector iv) {
            int[] values = iv.values();
            for (int i = 0; i < n; i++) {
                out[i] = values[batch.row(i)];
            }
        } else if (v instanceof LongVector lv) {
            long[] values = lv.values();
            for (int i = 0; i < n; i++) {
                out[i] = values[batch.row(i)];
            }
        } else if (v instanceof BooleanVector bv) {
            byte[] values = bv.values();
            for (int i = 0; i < n; i++) {
                out[i] = values[batch.row(i)];
            }
        } else {
            throw new IllegalArgumentException("not an integer-backed vector: " + v.type());
        }
        return out;
    }

    /**
     * The live values of a FLOAT64 vector; values at NULL rows are unspecified. As {@link #longs},
     * a dense batch's own array.
     */
    static double[] doubles(ColumnVector v, Batch batch, double[] scratch) {
        int n = batch.size();
        if (v instanceof DoubleVector dv && batch.selection() == null) {
            return dv.values();
        }
        double[] out = room(scratch, n);
        if (v instanceof DoubleVector dv) {
            double[] values = dv.values();
            for (int i = 0; i < n; i++) {
                out[i] = values[batch.row(i)];
            }
        } else {
            throw new IllegalArgumentException("not a FLOAT64 vector: " + v.type());
        }
        return out;
    }

    /**
     * The live values of an exact number's vector (an integer, or a DECIMAL of any precision) as doubles, each its
     * unscaled value over {@code unit} (ten to its scale), into {@code scratch}; values at NULL rows are unspecified.
     */
    static double[] exact(ColumnVector v, double unit, Batch batch, double[] scratch) {
        int n = batch.size();
        double[] out = room(scratch, n);
        if (v instanceof IntVector iv) {
            int[] values = iv.values();
            for (int i = 0; i < n; i++) {
                out[i] = values[batch.row(i)] / unit;
            }
        } else if (v instanceof LongVector lv) {
            long[] values = lv.values();
            for (int i = 0; i < n; i++) {
                out[i] = values[batch.row(i)] / unit;
            }
        } else if (v instanceof Int128Vector wide) {
            for (int i = 0; i < n; i++) {
                int r = batch.row(i);
                out[i] = Int128.toDouble(wide.high(r), wide.low(r)) / unit;
            }
        } else {
            throw new IllegalArgumentException("not an exact number's vector: " + v.type());
        }
        return out;
    }

    /**
     * The positions i of the live rows (entry i of the dense arrays) where {@code v} holds a value,
     * ascending, into {@code out} (room for {@code batch.size()}); returns how many. Without a
     * selection the validity bitmap is read a word at a time and only its set bits are visited,
     * so a sparse argument (as {@code CASE WHEN c THEN x END}) costs its valid rows, and the update
     * loops that follow take no branch on validity per row.
     */
    static int validRows(ColumnVector v, Batch batch, int[] out) {
        int n = batch.size();
        long[] bits = v.validity();
        int[] sel = batch.selection();
        if (bits == null) {
            for (int i = 0; i < n; i++) {
                out[i] = i;
            }
            return n;
        }
        int k = 0;
        if (sel == null) {
            int words = Validity.words(n);
            for (int w = 0; w < words; w++) {
                long word = bits[w];
                if (w == words - 1 && (n & 63) != 0) {
                    word &= (1L << n) - 1; // bits past the batch's rows
                }
                while (word != 0) {
                    out[k++] = (w << 6) + Long.numberOfTrailingZeros(word);
                    word &= word - 1;
                }
            }
            return k;
        }
        for (int i = 0; i < n; i++) {
            int r = sel[i];
            out[k] = i;
            k += (int) (bits[r >>> 6] >>> r) & 1;
        }
        return k;
    }

    /** A validity bitmap for rows 0..count-1 from flags {@code set[from..from+count)}; null when all are set. */
    static long[] validity(byte[] set, int from, int count) {
        long[] bits = null;
        for (int k = 0; k < count; k++) {
            if (set[from + k] == 0) {
                if (bits == null) {
                    bits = Validity.allValid(count);
                }
                bits[k >>> 6] &= ~(1L << k);
            }
        }
        return bits;
    }

    /** As {@link #validity(byte[], int, int)}, valid where {@code counts[g] >= least}. */
    static long[] validityOfCounts(long[] counts, int from, int count, long least) {
        long[] bits = null;
        for (int k = 0; k < count; k++) {
            if (counts[from + k] < least) {
                if (bits == null) {
                    bits = Validity.allValid(count);
                }
                bits[k >>> 6] &= ~(1L << k);
            }
        }
        return bits;
    }

    /** {@code values[groups[k]]} for k below {@code count}. */
    static long[] gather(long[] values, int[] groups, int count) {
        long[] out = new long[count];
        for (int k = 0; k < count; k++) {
            out[k] = values[groups[k]];
        }
        return out;
    }

    static double[] gather(double[] values, int[] groups, int count) {
        double[] out = new double[count];
        for (int k = 0; k < count; k++) {
            out[k] = values[groups[k]];
        }
        return out;
    }

    /** A validity bitmap for {@code count} rows, valid where {@code set[groups[k]]} is set; null when all are. */
    static long[] validity(byte[] set, int[] groups, int count) {
        long[] bits = null;
        for (int k = 0; k < count; k++) {
            if (set[groups[k]] == 0) {
                if (bits == null) {
                    bits = Validity.allValid(count);
                }
                bits[k >>> 6] &= ~(1L << k);
            }
        }
        return bits;
    }

    /** The group ids {@code from .. from+count-1}, in order. */
    static int[] range(int from, int count) {
        int[] groups = new int[count];
        for (int k = 0; k < count; k++) {
            groups[k] = from + k;
        }
        return groups;
    }

    /**
     * The bytes of the live values of {@code v} when it is a VARCHAR vector, 0 otherwise: at most
     * what storing each of them once takes (the memory bound of a string heap before a batch).
     */
    static long stringBytes(ColumnVector v, Batch batch) {
        if (!(v instanceof StringVector sv)) {
            return 0;
        }
        int[] offsets = sv.offsets();
        int n = batch.size();
        int[] sel = batch.selection();
        if (sel == null) {
            return offsets[n] - offsets[0];
        }
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            bytes += offsets[sel[i] + 1] - offsets[sel[i]];
        }
        return bytes;
    }
}
