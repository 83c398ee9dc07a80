package io.troupe.operators.sort;

import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;

import java.util.List;

/**
 * Bulk column copies a sort needs: concatenating a worker's batches into one run, and gathering
 * output rows from several runs at once. Each dispatches on the vector type once, then copies in
 * a tight loop over primitive arrays.
 *
 * <p>Stateless and threadsafe.
 */
public final class Columns {

    private Columns() {
    }

    /**
     * One dense vector holding rows {@code 0..rows[i]} of each {@code parts[i]} in turn.
     *
     * @param type the type of every part (used when there are no parts)
     */
    public static ColumnVector concat(DataType type, List<ColumnVector> parts, int[] rows, int total) {
        ColumnVector out;
        if (type.isIntBacked()) {
            int[] dst = new int[total];
            int at = 0;
            for (int i = 0; i < parts.size(); i++) {
                System.arraycopy(((IntVector) parts.get(i)).values(), 0, dst, at, rows[i]);
                at += rows[i];
            }
            out = new IntVector(type, dst);
        } else if (type.isLongBacked()) {
            long[] dst = new long[total];
            int at = 0;
            for (int i = 0; i < parts.size(); i++) {
                System.arraycopy(((LongVector) parts.get(i)).values(), 0, dst, at, rows[i]);
                at += rows[i];
            }
            out = new LongVector(type, dst);
        } else if (type.physical() == PhysicalType.INT128) {
            long[] high = new long[total];
            long[] low = new long[total];
            int at = 0;
            for (int i = 0; i < parts.size(); i++) {
                Int128Vector part = (Int128Vector) parts.get(i);
                System.arraycopy(part.high(), 0, high, at, rows[i]);
                System.arraycopy(part.low(), 0, low, at, rows[i]);
                at += rows[i];
            }
            out = new Int128Vector(type, high, low);
        } else if (type.physical() == PhysicalType.DOUBLE) {
            double[] dst = new double[total];
            int at = 0;
            for (int i = 0; i < parts.size(); i++) {
                System.arraycopy(((DoubleVector) parts.get(i)).values(), 0, dst, at, rows[i]);
                at += rows[i];
            }
            out = new DoubleVector(type, dst);
        } else if (type.equals(DataType.BOOLEAN)) {
            byte[] dst = new byte[total];
            int at = 0;
            for (int i = 0; i < parts.size(); i++) {
                System.arraycopy(((BooleanVector) parts.get(i)).values(), 0, dst, at, rows[i]);
                at += rows[i];
            }
            out = new BooleanVector(dst);
        } else {
            out = concatStrings(parts, rows, total);
        }
        out.setValidity(concatValidity(parts, rows, total));
        return out;
    }

    private static StringVector concatStrings(List<ColumnVector> parts, int[] rows, int total) {
        long bytes = 0;
        for (int i = 0; i < parts.size(); i++) {
            StringVector s = (StringVector) parts.get(i);
            bytes += s.start(rows[i]) - s.start(0);
        }
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a sort run holds more than 2 GiB of VARCHAR data: " + bytes + " bytes");
        }
        byte[] data = new byte[(int) bytes];
        int[] offsets = new int[total + 1];
        int at = 0;
        int row = 0;
        for (int i = 0; i < parts.size(); i++) {
            StringVector s = (StringVector) parts.get(i);
            int[] src = s.offsets();
            int base = src[0];
            int len = src[rows[i]] - base;
            System.arraycopy(s.data(), base, data, at, len);
            for (int r = 0; r < rows[i]; r++) {
                offsets[row++] = at + src[r] - base;
            }
            at += len;
        }
        offsets[total] = at;
        return new StringVector(parts.get(0).type(), data, offsets);
    }

    private static long[] concatValidity(List<ColumnVector> parts, int[] rows, int total) {
        long[] bits = null;
        int at = 0;
        for (int i = 0; i < parts.size(); i++) {
            ColumnVector part = parts.get(i);
            if (part.mayHaveNulls()) {
                if (bits == null) {
                    bits = Validity.allValid(total);
                }
                for (int r = 0; r < rows[i]; r++) {
                    if (part.isNull(r)) {
                        int row = at + r;
                        bits[row >>> 6] &= ~(1L << row);
                    }
                }
            }
            at += rows[i];
        }
        return bits;
    }

    /**
     * A dense vector of {@code count} rows: row {@code i} is row {@code rows[from + i]} of
     * {@code sources[runs[from + i]]}. All sources have the type of {@code sources[0]}.
     */
    public static ColumnVector gather(ColumnVector[] sources, int[] runs, int[] rows, int from, int count) {
        ColumnVector first = sources[0];
        ColumnVector out;
        if (first instanceof IntVector) {
            int[][] src = new int[sources.length][];
            for (int s = 0; s < sources.length; s++) {
                src[s] = ((IntVector) sources[s]).values();
            }
            int[] dst = new int[count];
            for (int i = 0; i < count; i++) {
                dst[i] = src[runs[from + i]][rows[from + i]];
            }
            out = new IntVector(first.type(), dst);
        } else if (first instanceof LongVector) {
            long[][] src = new long[sources.length][];
            for (int s = 0; s < sources.length; s++) {
                src[s] = ((LongVector) sources[s]).values();
            }
            long[] dst = new long[count];
            for (int i = 0; i < count; i++) {
                dst[i] = src[runs[from + i]][rows[from + i]];
            }
            out = new LongVector(first.type(), dst);
        } else if (first instanceof DoubleVector) {
            double[][] src = new double[sources.length][];
            for (int s = 0; s < sources.length; s++) {
                src[s] = ((DoubleVector) sources[s]).values();
            }
            double[] dst = new double[count];
            for (int i = 0; i < count; i++) {
                dst[i] = src[runs[from + i]][rows[from + i]];
            }
            out = new DoubleVector(first.type(), dst);
        } else if (first instanceof Int128Vector) {
            Int128Vector out128 = new Int128Vector(first.type(), count);
            for (int i = 0; i < count; i++) {
                Int128Vector s = (Int128Vector) sources[runs[from + i]];
                out128.set(i, s.high(rows[from + i]), s.low(rows[from + i]));
            }
            out = out128;
        } else if (first instanceof BooleanVector) {
            byte[][] src = new byte[sources.length][];
            for (int s = 0; s < sources.length; s++) {
                src[s] = ((BooleanVector) sources[s]).values();
            }
            byte[] dst = new byte[count];
            for (int i = 0; i < count; i++) {
                dst[i] = src[runs[from + i]][rows[from + i]];
            }
            out = new BooleanVector(dst);
        } else {
            out = gatherStrings(sources, runs, rows, from, count);
        }
        boolean nulls = false;
        for (ColumnVector s : sources) {
            nulls |= s.mayHaveNulls();
        }
        if (nulls) {
            for (int i = 0; i < count; i++) {
                if (sources[runs[from + i]].isNull(rows[from + i])) {
                    out.setNull(i);
                }
            }
        }
        return out;
    }

    private static StringVector gatherStrings(ColumnVector[] sources, int[] runs, int[] rows, int from, int count) {
        StringVector[] src = new StringVector[sources.length];
        for (int s = 0; s < sources.length; s++) {
            src[s] = (StringVector) sources[s];
        }
        int bytes = 0;
        for (int i = 0; i < count; i++) {
            bytes += src[runs[from + i]].length(rows[from + i]);
        }
        byte[] data = new byte[bytes];
        int[] offsets = new int[count + 1];
        int at = 0;
        for (int i = 0; i < count; i++) {
            StringVector s = src[runs[from + i]];
            int r = rows[from + i];
            int len = s.length(r);
            System.arraycopy(s.data(), s.start(r), data, at, len);
            at += len;
            offsets[i + 1] = at;
        }
        return new StringVector(sources[0].type(), data, offsets);
    }
}
