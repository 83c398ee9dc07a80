package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.Validity;
import io.troupe.operators.types.DataType;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One build-side column across all chunks of a {@link HashJoinTable}, indexed by row id: the
 * chunk vectors with typed views of their arrays, so that gathering by row id and comparing keys
 * are tight loops per type (the type is dispatched once per call, never per row). Also holds the
 * static copy of batch rows into a chunk's vector that build workers use.
 *
 * <p>Immutable once built (after the build phase); any number of probers read it.
 */
final class ColumnChunks {

    /** Strings of up to this many bytes are gathered as two words, longer ones with System.arraycopy. */
    private static final int SHORT_COPY = 16;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final DataType type;
    private final int[][] ints;
    private final long[][] longs;
    /** An INT128 column's low words; its high words are {@link #longs}. */
    private final long[][] lows;
    private final double[][] doubles;
    private final byte[][] booleans;
    private final StringVector[] strings;
    /**
     * VARCHAR: the bytes a gathered row is given room for up front, the chunks' mean plus an
     * eighth, so that gathering allocates once without first summing the rows' lengths.
     */
    private final int bytesPerRow;
    /** Per chunk: its validity bitmap, or null when the chunk holds no NULL in this column. */
    private final long[][] validity;
    /** False when no chunk holds a NULL in this column, so gathering skips the validity pass. */
    private final boolean hasNulls;
    /** For the fast path's key column: the chunks' entries, whose key parts hold the values. */
    private final long[][] keyEntries;
    private final boolean packedEntries;
    /** Rows per chunk as a shift, and the mask of a row's offset in its chunk. */
    private final int shift;
    private final int mask;

    /**
     * @param vectors the column's vector in each chunk, indexed by chunk id
     * @param shift   rows per chunk, as a shift
     */
    ColumnChunks(DataType type, ColumnVector[] vectors, int shift) {
        this.type = type;
        this.shift = shift;
        this.mask = (1 << shift) - 1;
        int n = vectors.length;
        this.validity = new long[n][];
        boolean nulls = false;
        int[][] i32 = null;
        long[][] i64 = null;
        long[][] lo = null;
        double[][] f64 = null;
        byte[][] bool = null;
        StringVector[] str = null;
        switch (type.physical()) {
            case INT -> i32 = new int[n][];
            case LONG -> i64 = new long[n][];
            case INT128 -> {
                i64 = new long[n][];
                lo = new long[n][];
            }
            case DOUBLE -> f64 = new double[n][];
            case BOOLEAN -> bool = new byte[n][];
            case BYTES -> str = new StringVector[n];
        }
        for (int c = 0; c < n; c++) {
            ColumnVector v = vectors[c];
            validity[c] = v.validity();
            nulls |= v.mayHaveNulls();
            if (i32 != null) {
                i32[c] = ((IntVector) v).values();
            } else if (lo != null) {
                i64[c] = ((Int128Vector) v).high();
                lo[c] = ((Int128Vector) v).low();
            } else if (i64 != null) {
                i64[c] = ((LongVector) v).values();
            } else if (f64 != null) {
                f64[c] = ((DoubleVector) v).values();
            } else if (bool != null) {
                bool[c] = ((BooleanVector) v).values();
            } else {
                str[c] = ((StringVector) v).seal();
            }
        }
        this.ints = i32;
        this.longs = i64;
        this.lows = lo;
        this.doubles = f64;
        this.booleans = bool;
        this.strings = str;
        this.bytesPerRow = str == null ? 0 : bytesPerRow(str);
        this.hasNulls = nulls;
        this.keyEntries = null;
        this.packedEntries = false;
    }

    /**
     * The build column that is itself the fast path's key: its values are the key slots of the
     * entries (widened to long), and a row is NULL where its next part says NOT_LINKED. Storing it
     * once saves memory, and gathering it reads the cache line the chain walk just read.
     */
    private ColumnChunks(DataType type, long[][] entries, boolean packed, int shift) {
        this.type = type;
        this.shift = shift;
        this.mask = (1 << shift) - 1;
        this.keyEntries = entries;
        this.packedEntries = packed;
        this.validity = null;
        this.hasNulls = true;
        this.ints = null;
        this.longs = null;
        this.lows = null;
        this.doubles = null;
        this.booleans = null;
        this.strings = null;
        this.bytesPerRow = 0;
    }

    private static int bytesPerRow(StringVector[] chunks) {
        long bytes = 0;
        long rows = 0;
        for (StringVector v : chunks) {
            bytes += v.offsets()[v.capacity()] - v.offsets()[0];
            rows += v.capacity();
        }
        long mean = rows == 0 ? 0 : (bytes + rows - 1) / rows;
        return (int) Math.min(Integer.MAX_VALUE / 4, mean + mean / 8 + 1);
    }

    /** A view of the fast path's key column over the entries of every chunk (indexed by chunk id). */
    static ColumnChunks ofKeyEntries(DataType type, long[][] entries, boolean packed, int shift) {
        if (!type.isIntBacked() && !type.isLongBacked()) {
            throw new IllegalArgumentException("only an int or long key lives in the entries: " + type);
        }
        return new ColumnChunks(type, entries, packed, shift);
    }

    DataType type() {
        return type;
    }

    // ------------------------------------------------------------------ build: copy rows in

    /**
     * Copies the batch's live rows {@code from .. from+count-1} of {@code src} into {@code dst}
     * at rows {@code dstRow ..}, values and NULLs. {@code dst} is a chunk vector of the same type,
     * written in ascending row order (which a {@link StringVector} requires).
     */
    static void append(ColumnVector src, Batch batch, int from, int count, ColumnVector dst, int dstRow) {
        int[] sel = batch.selection();
        if (src instanceof StringVector s) {
            StringVector d = (StringVector) dst;
            byte[] data = s.data();
            for (int j = 0; j < count; j++) {
                int r = sel == null ? from + j : sel[from + j];
                if (s.isNull(r)) {
                    d.putNull(dstRow + j);
                } else {
                    d.put(dstRow + j, data, s.start(r), s.length(r));
                }
            }
            return;
        }
        if (src instanceof IntVector s) {
            int[] sv = s.values();
            int[] dv = ((IntVector) dst).values();
            if (sel == null) {
                System.arraycopy(sv, from, dv, dstRow, count);
            } else {
                for (int j = 0; j < count; j++) {
                    dv[dstRow + j] = sv[sel[from + j]];
                }
            }
        } else if (src instanceof LongVector s) {
            long[] sv = s.values();
            long[] dv = ((LongVector) dst).values();
            if (sel == null) {
                System.arraycopy(sv, from, dv, dstRow, count);
            } else {
                for (int j = 0; j < count; j++) {
                    dv[dstRow + j] = sv[sel[from + j]];
                }
            }
        } else if (src instanceof DoubleVector s) {
            double[] sv = s.values();
            double[] dv = ((DoubleVector) dst).values();
            for (int j = 0; j < count; j++) {
                dv[dstRow + j] = sv[sel == null ? from + j : sel[from + j]];
            }
        } else if (src instanceof Int128Vector s) {
            Int128Vector d = (Int128Vector) dst;
            for (int j = 0; j < count; j++) {
                int r = sel == null ? from + j : sel[from + j];
                d.set(dstRow + j, s.high(r), s.low(r));
            }
        } else {
            byte[] sv = ((BooleanVector) src).values();
            byte[] dv = ((BooleanVector) dst).values();
            for (int j = 0; j < count; j++) {
                dv[dstRow + j] = sv[sel == null ? from + j : sel[from + j]];
            }
        }
        if (src.mayHaveNulls()) {
            for (int j = 0; j < count; j++) {
                if (src.isNull(sel == null ? from + j : sel[from + j])) {
                    dst.setNull(dstRow + j);
                }
            }
        }
    }

    // ------------------------------------------------------------------ probe: gather rows out

    /**
     * A new dense vector holding the rows {@code ids[0..count)} in that order; an id below zero
     * stands for no row (an unmatched probe row of a LEFT or FULL join) and gives NULL.
     *
     * @param withMissing whether {@code ids} may hold ids below zero
     */
    ColumnVector gather(int[] ids, int count, boolean withMissing) {
        if (keyEntries != null) {
            return gatherKeys(ids, count);
        }
        if (strings != null) {
            return gatherStrings(ids, count, withMissing);
        }
        ColumnVector out = ColumnVector.allocate(type, count);
        if (lows != null) {
            Int128Vector dst = (Int128Vector) out;
            for (int i = 0; i < count; i++) {
                int id = ids[i];
                if (id >= 0) {
                    dst.set(i, longs[id >>> shift][id & mask], lows[id >>> shift][id & mask]);
                }
            }
        } else if (ints != null) {
            int[] dst = ((IntVector) out).values();
            for (int i = 0; i < count; i++) {
                int id = ids[i];
                if (id >= 0) {
                    dst[i] = ints[id >>> shift][id & mask];
                }
            }
        } else if (longs != null) {
            long[] dst = ((LongVector) out).values();
            for (int i = 0; i < count; i++) {
                int id = ids[i];
                if (id >= 0) {
                    dst[i] = longs[id >>> shift][id & mask];
                }
            }
        } else if (doubles != null) {
            double[] dst = ((DoubleVector) out).values();
            for (int i = 0; i < count; i++) {
                int id = ids[i];
                if (id >= 0) {
                    dst[i] = doubles[id >>> shift][id & mask];
                }
            }
        } else {
            byte[] dst = ((BooleanVector) out).values();
            for (int i = 0; i < count; i++) {
                int id = ids[i];
                if (id >= 0) {
                    dst[i] = booleans[id >>> shift][id & mask];
                }
            }
        }
        if (hasNulls || withMissing) {
            gatherValidity(ids, count, out);
        }
        return out;
    }

    private ColumnVector gatherKeys(int[] ids, int count) {
        ColumnVector out = ColumnVector.allocate(type, count);
        int[] ints32 = out instanceof IntVector v ? v.values() : null;
        long[] ints64 = out instanceof LongVector v ? v.values() : null;
        long[] bits = null;
        for (int i = 0; i < count; i++) {
            int id = ids[i];
            long value = 0;
            boolean isNull = id < 0;
            if (!isNull) {
                long[] e = keyEntries[id >>> shift];
                int o = id & mask;
                value = HashJoinTable.stored(e, o, packedEntries);
                isNull = HashJoinTable.next(e, o, packedEntries) == HashJoinTable.NOT_LINKED;
            }
            if (ints32 != null) {
                ints32[i] = (int) value;
            } else {
                ints64[i] = value;
            }
            if (isNull) {
                if (bits == null) {
                    bits = Validity.allValid(count);
                }
                bits[i >>> 6] &= ~(1L << i);
            }
        }
        out.setValidity(bits);
        return out;
    }

    private StringVector gatherStrings(int[] ids, int count, boolean withMissing) {
        // Written straight into finished arrays, sized from bytesPerRow and grown when a batch's
        // strings are longer. A string of up to 16 bytes moves as two 8-byte words, whatever its
        // length (a byte loop's exit mispredicts when lengths vary, and a call to
        // System.arraycopy per row costs more than the copy): the words may carry bytes past its
        // end, which the next string overwrites or the slack at the end of data absorbs.
        byte[] data = new byte[(int) Math.min(Integer.MAX_VALUE - 8, (long) count * bytesPerRow + SHORT_COPY)];
        int[] offsets = new int[count + 1];
        int end = 0;
        for (int i = 0; i < count; i++) {
            int id = ids[i];
            if (id >= 0) {
                StringVector s = strings[id >>> shift];
                int[] so = s.offsets();
                int o = id & mask;
                int from = so[o];
                int len = so[o + 1] - from;
                byte[] sd = s.data();
                if (end + Math.max(len, SHORT_COPY) > data.length) {
                    data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 8,
                            Math.max(2L * data.length, (long) end + len + SHORT_COPY)));
                }
                if (len <= SHORT_COPY && from + SHORT_COPY <= sd.length) {
                    LONGS.set(data, end, (long) LONGS.get(sd, from));
                    LONGS.set(data, end + 8, (long) LONGS.get(sd, from + 8));
                } else {
                    System.arraycopy(sd, from, data, end, len);
                }
                end += len;
            }
            offsets[i + 1] = end;
        }
        StringVector out = new StringVector(type, data, offsets);
        if (hasNulls || withMissing) {
            gatherValidity(ids, count, out);
        }
        return out;
    }

    private void gatherValidity(int[] ids, int count, ColumnVector out) {
        long[] bits = null;
        for (int i = 0; i < count; i++) {
            int id = ids[i];
            boolean isNull;
            if (id < 0) {
                isNull = true;
            } else {
                long[] v = validity[id >>> shift];
                int o = id & mask;
                isNull = v != null && (v[o >>> 6] & (1L << o)) == 0;
            }
            if (isNull) {
                if (bits == null) {
                    bits = Validity.allValid(count);
                }
                bits[i >>> 6] &= ~(1L << i);
            }
        }
        if (bits != null) {
            out.setValidity(bits);
        }
    }

    // ------------------------------------------------------------------ probe: compare keys

    /**
     * Keeps the candidate pairs whose key in this column equals the probe key, compacting
     * {@code leftRows} and {@code ids} in place (order kept); returns how many remain. Neither side
     * is NULL here: NULL keys are never linked, nor probed. Doubles compare as SQL does (-0.0
     * equals 0.0) and NaN equals NaN, as in DuckDB.
     *
     * @param left     the probe batch's key vector (physical rows)
     * @param leftRows physical probe rows of the candidates
     * @param ids      build row ids of the candidates
     */
    int retainEqual(ColumnVector left, int[] leftRows, int[] ids, int count) {
        int kept = 0;
        if (lows != null) {
            Int128Vector lv = (Int128Vector) left;
            for (int j = 0; j < count; j++) {
                int id = ids[j];
                int r = leftRows[j];
                if (lv.equalAt(r, longs[id >>> shift][id & mask], lows[id >>> shift][id & mask])) {
                    leftRows[kept] = r;
                    ids[kept++] = id;
                }
            }
        } else if (ints != null) {
            int[] lv = ((IntVector) left).values();
            for (int j = 0; j < count; j++) {
                int id = ids[j];
                int r = leftRows[j];
                if (lv[r] == ints[id >>> shift][id & mask]) {
                    leftRows[kept] = r;
                    ids[kept++] = id;
                }
            }
        } else if (longs != null) {
            long[] lv = ((LongVector) left).values();
            for (int j = 0; j < count; j++) {
                int id = ids[j];
                int r = leftRows[j];
                if (lv[r] == longs[id >>> shift][id & mask]) {
                    leftRows[kept] = r;
                    ids[kept++] = id;
                }
            }
        } else if (doubles != null) {
            double[] lv = ((DoubleVector) left).values();
            for (int j = 0; j < count; j++) {
                int id = ids[j];
                int r = leftRows[j];
                double a = lv[r];
                double b = doubles[id >>> shift][id & mask];
                if (a == b || (a != a && b != b)) {
                    leftRows[kept] = r;
                    ids[kept++] = id;
                }
            }
        } else if (booleans != null) {
            byte[] lv = ((BooleanVector) left).values();
            for (int j = 0; j < count; j++) {
                int id = ids[j];
                int r = leftRows[j];
                if (lv[r] == booleans[id >>> shift][id & mask]) {
                    leftRows[kept] = r;
                    ids[kept++] = id;
                }
            }
        } else {
            StringVector lv = (StringVector) left;
            for (int j = 0; j < count; j++) {
                int id = ids[j];
                int r = leftRows[j];
                if (lv.equals(r, strings[id >>> shift], id & mask)) {
                    leftRows[kept] = r;
                    ids[kept++] = id;
                }
            }
        }
        return kept;
    }
}
