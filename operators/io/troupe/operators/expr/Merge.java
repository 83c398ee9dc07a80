package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;

/**
 * Assembles one result vector from several part vectors of the same type, each supplying some
 * of the rows: the output of CASE (one part per branch) and COALESCE (one per argument).
 * {@code which[r]} names the part of live row {@code r}, or is negative for NULL. One pass over
 * the live rows in ascending order, so VARCHAR output is written in row order.
 *
 * <p>Stateless; threadsafe.
 */
final class Merge {

    private Merge() {
    }

    static ColumnVector assemble(DataType type, Batch batch, ColumnVector[] parts, int[] which) {
        int rows = batch.rowCount();
        int n = batch.size();
        int[] sel = batch.selection();
        long[][] valids = new long[parts.length][];
        for (int k = 0; k < parts.length; k++) {
            valids[k] = parts[k] == null ? null : parts[k].validity();
        }
        long[] valid = null;
        ColumnVector out;
        switch (type.physical()) {
            case INT -> {
                int[][] src = new int[parts.length][];
                for (int k = 0; k < parts.length; k++) {
                    src[k] = parts[k] == null ? null : ((IntVector) parts[k]).values();
                }
                int[] o = new int[rows];
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    int k = which[r];
                    if (k < 0 || !Kernels.isValid(valids[k], r)) {
                        valid = Kernels.setNull(valid, rows, r);
                    } else {
                        o[r] = src[k][r];
                    }
                }
                out = new IntVector(type, o);
            }
            case LONG -> {
                long[][] src = new long[parts.length][];
                for (int k = 0; k < parts.length; k++) {
                    src[k] = parts[k] == null ? null : ((LongVector) parts[k]).values();
                }
                long[] o = new long[rows];
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    int k = which[r];
                    if (k < 0 || !Kernels.isValid(valids[k], r)) {
                        valid = Kernels.setNull(valid, rows, r);
                    } else {
                        o[r] = src[k][r];
                    }
                }
                out = new LongVector(type, o);
            }
            case DOUBLE -> {
                double[][] src = new double[parts.length][];
                for (int k = 0; k < parts.length; k++) {
                    src[k] = parts[k] == null ? null : ((DoubleVector) parts[k]).values();
                }
                double[] o = new double[rows];
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    int k = which[r];
                    if (k < 0 || !Kernels.isValid(valids[k], r)) {
                        valid = Kernels.setNull(valid, rows, r);
                    } else {
                        o[r] = src[k][r];
                    }
                }
                out = new DoubleVector(type, o);
            }
            case BOOLEAN -> {
                byte[][] src = new byte[parts.length][];
                for (int k = 0; k < parts.length; k++) {
                    src[k] = parts[k] == null ? null : ((BooleanVector) parts[k]).values();
                }
                byte[] o = new byte[rows];
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    int k = which[r];
                    if (k < 0 || !Kernels.isValid(valids[k], r)) {
                        valid = Kernels.setNull(valid, rows, r);
                    } else {
                        o[r] = src[k][r];
                    }
                }
                out = new BooleanVector(o);
            }
            case INT128 -> {
                Int128Vector[] src = new Int128Vector[parts.length];
                for (int k = 0; k < parts.length; k++) {
                    src[k] = (Int128Vector) parts[k];
                }
                Int128Vector o = new Int128Vector(type, rows);
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    int k = which[r];
                    if (k < 0 || !Kernels.isValid(valids[k], r)) {
                        valid = Kernels.setNull(valid, rows, r);
                    } else {
                        o.set(r, src[k].high(r), src[k].low(r));
                    }
                }
                out = o;
            }
            default -> {
                StringVector[] src = new StringVector[parts.length];
                int bytes = 0;
                for (int k = 0; k < parts.length; k++) {
                    src[k] = (StringVector) parts[k];
                    bytes = src[k] == null ? bytes : Math.max(bytes, src[k].offsets()[src[k].capacity()]);
                }
                StringVector o = new StringVector(type, rows, Math.max(16, bytes));
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    int k = which[r];
                    if (k < 0 || !Kernels.isValid(valids[k], r)) {
                        valid = Kernels.setNull(valid, rows, r);
                    } else {
                        StringVector s = src[k];
                        o.put(r, s.data(), s.start(r), s.length(r));
                    }
                }
                out = o.seal();
            }
        }
        out.setValidity(valid);
        return out;
    }
}
