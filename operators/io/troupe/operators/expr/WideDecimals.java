package io.troupe.operators.expr;

import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.Int128;

/**
 * Reads exact numbers of every width (INT32, INT64, DECIMAL in a long or in two, BOOLEAN as 0 or 1) as the two
 * words of a signed 128-bit integer ({@link Int128}), so that the kernels of the wide decimals
 * ({@link WideDecimalCast}, {@link WideDecimalArithmetic}) have one loop over one shape of operand.
 *
 * <p>Stateless; threadsafe.
 */
final class WideDecimals {

    private WideDecimals() {
    }

    /** The live rows' values of {@code v} into {@code high} and {@code low} at their physical rows. */
    static void widen(ColumnVector v, int[] sel, int n, long[] high, long[] low) {
        if (v instanceof Int128Vector w) {
            long[] h = w.high();
            long[] l = w.low();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                high[r] = h[r];
                low[r] = l[r];
            }
        } else if (v instanceof LongVector lv) {
            long[] a = lv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                high[r] = a[r] >> 63;
                low[r] = a[r];
            }
        } else if (v instanceof IntVector iv) {
            int[] a = iv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                high[r] = a[r] >> 31;
                low[r] = a[r];
            }
        } else if (v instanceof BooleanVector bv) {
            byte[] a = bv.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                high[r] = 0;
                low[r] = a[r];
            }
        } else {
            throw new IllegalArgumentException("not an exact number: " + v.type());
        }
    }
}
