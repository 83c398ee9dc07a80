package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

/**
 * Helpers shared by the expression kernels: validity bitmaps, runtime errors, row subsets.
 *
 * <h2>Loop shape</h2>
 * Every kernel loops over the live rows as
 * <pre>{@code
 * int[] sel = batch.selection();
 * for (int i = 0; i < n; i++) {
 *     int r = sel == null ? i : sel[i];
 *     long y = right == null ? constant : right[r];   // column op literal, or column op column
 *     ...
 * }
 * }</pre>
 * The tests of {@code sel} and {@code right} are loop-invariant: C2 unswitches the loop into one
 * copy per case, so each shape runs as its own tight loop (measured: the same speed as separate
 * hand-written loops, and the dense copy still vectorises) while the source keeps one loop.
 *
 * <p>Kernels that can fail (overflow, division by zero, a bad cast) skip NULL rows, whose value
 * slots hold anything; the rest compute NULL rows too and let the validity bitmap hide them.
 *
 * <p>Stateless; threadsafe.
 */
final class Kernels {

    private Kernels() {
    }

    /** The validity of a result that is NULL where either input is (a new bitmap, or null). */
    static long[] and(ColumnVector a, ColumnVector b) {
        return Validity.and(a.validity(), b.validity());
    }

    /** A copy of {@code v}'s validity, or null when every row is valid. */
    static long[] copy(ColumnVector v) {
        long[] bits = v.validity();
        return bits == null ? null : bits.clone();
    }

    /** A bitmap of {@code rows} NULLs. */
    static long[] allNull(int rows) {
        return new long[Math.max(1, Validity.words(rows))];
    }

    /** True when {@code row} is valid in {@code bits} (null: all valid). */
    static boolean isValid(long[] bits, int row) {
        return bits == null || (bits[row >>> 6] & (1L << row)) != 0;
    }

    /** Bit {@code row} of {@code bits} as 1 (valid) or 0 (NULL); 1 when {@code bits} is null. Branch-free. */
    static int bit(long[] bits, int row) {
        return bits == null ? 1 : (int) (bits[row >>> 6] >>> row) & 1;
    }

    /** The live rows where {@code mask} is TRUE, into {@code out}; returns their count. See {@link Expression#select}. */
    static int select(BooleanVector mask, Batch batch, int[] out) {
        byte[] v = mask.values();
        long[] valid = mask.validity();
        int n = batch.size();
        int[] sel = batch.selection();
        int k = 0;
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            out[k] = r;
            k += v[r] & bit(valid, r);
        }
        return k;
    }

    /** Clears bit {@code row}, allocating an all-valid bitmap for {@code rows} first when needed. */
    static long[] setNull(long[] bits, int rows, int row) {
        long[] out = bits == null ? Validity.allValid(rows) : bits;
        out[row >>> 6] &= ~(1L << row);
        return out;
    }

    static QueryFailedException divisionByZero(String text) {
        return new QueryDataException(QueryDataException.Kind.DIVISION_BY_ZERO, "division by zero in " + text);
    }

    static QueryFailedException overflow(String text, DataType type) {
        // SMALLINT and TINYINT in PostgreSQL's words, as their names in Troupe (INT16, INT8) mean little to SQL.
        boolean small = type.id() == TypeId.INT16 || type.id() == TypeId.INT8;
        return new QueryDataException(QueryDataException.Kind.OVERFLOW, "overflow in " + text + ": "
                + (small ? type.sqlName().toLowerCase(java.util.Locale.ROOT) + " out of range"
                : "the result does not fit " + type));
    }

    /** A dense identity selection 0..n-1, for narrowing a batch that had none. */
    static int[] liveRows(Batch batch) {
        int n = batch.size();
        int[] sel = batch.selection();
        int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            rows[i] = sel == null ? i : sel[i];
        }
        return rows;
    }
}
