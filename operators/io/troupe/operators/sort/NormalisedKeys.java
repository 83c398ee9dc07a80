package io.troupe.operators.sort;

import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

import java.util.List;

/**
 * The sort keys of a run of rows in a form that compares without looking at types: per key one
 * {@code long} word per row whose <em>unsigned</em> order is the key's order with its direction
 * applied, a NULL rank per row (only for keys that have NULLs), and for VARCHAR keys the strings
 * themselves, because their word holds only a 7-byte prefix.
 *
 * <p>The type is looked at once per key column, in {@link #of}, by a tight loop per type
 * (DuckDB normalises keys the same way, into bytes); comparing two rows is then one monomorphic
 * loop over primitive arrays. Word encodings, each an order-preserving map into unsigned longs:
 * <ul>
 *   <li>INT32, DATE: {@code (v ^ 0x8000_0000) & 0xFFFF_FFFF} (the high bytes stay zero, so a
 *       radix sort skips them);</li>
 *   <li>INT64, DECIMAL (unscaled, one scale per column): {@code v ^ Long.MIN_VALUE};</li>
 *   <li>FLOAT64: the IEEE bits of {@code v + 0.0} (which turns -0.0 into 0.0; the bits of NaN are
 *       canonical), with every bit flipped for negatives and the sign bit for the rest:
 *       {@code Double.compare}'s order (NaN above +Infinity, as in DuckDB), -0.0 equal to 0.0;</li>
 *   <li>BOOLEAN: 0 or 1;</li>
 *   <li>INTERVAL (two words): its length in whole days {@code ^ Long.MIN_VALUE}, then the microseconds past them;
 *       another value of two words: its high word {@code ^ Long.MIN_VALUE}, then its low word;</li>
 *   <li>VARCHAR: the first 7 UTF-8 bytes, big-endian, zero-padded, then a byte that says how
 *       many bytes are left ({@link #stringChunk}): equal words only mean equal prefixes, so ties
 *       go on to the next 7 bytes (in {@link RunSorter}) or compare unsigned bytes in full.</li>
 * </ul>
 * DESC flips every bit of the word. A NULL row has word 0 and rank 0 (NULLS FIRST) or 2
 * (NULLS LAST); a value has rank 1.
 *
 * <p>Immutable once built; may be read by any thread that received it safely.
 */
public final class NormalisedKeys {

    /** The NULL rank of a row that holds a value; NULLs rank 0 (first) or 2 (last). */
    static final byte VALUE_RANK = 1;
    /** String bytes per word; the word's low byte holds the length left (see {@link #stringChunk}). */
    static final int STRING_CHUNK_BYTES = 7;

    private final int rows;
    private final long[][] words;
    /** The index past each key column's words: a column of two words ({@link #wordsOf}) takes two keys. */
    private final int[] columnEnds;
    /** Per key: NULL ranks, or null when the key column has no NULLs. */
    private final byte[][] nullRanks;
    /** Per key: the strings of a VARCHAR key, else null. */
    private final StringVector[] strings;
    private final boolean[] ascending;

    private NormalisedKeys(int rows, long[][] words, int[] columnEnds, byte[][] nullRanks, StringVector[] strings,
                           boolean[] ascending) {
        this.rows = rows;
        this.words = words;
        this.columnEnds = columnEnds;
        this.nullRanks = nullRanks;
        this.strings = strings;
        this.ascending = ascending;
    }

    /**
     * Normalises rows {@code 0..rows} of the key vectors (dense, one per key of {@code keys}). A key of two
     * words ({@link Int128Vector}) normalises into two keys of the same direction, its high word first; an
     * INTERVAL's two are its length in whole days and the microseconds past them ({@link Interval#sortDays}), so
     * that intervals order by their length as PostgreSQL orders them.
     */
    public static NormalisedKeys of(ColumnVector[] vectors, OrderKey[] keys, int rows) {
        int n = 0;
        for (ColumnVector v : vectors) {
            n += wordsOf(v.type());
        }
        long[][] words = new long[n][];
        byte[][] nullRanks = new byte[n][];
        StringVector[] strings = new StringVector[n];
        boolean[] ascending = new boolean[n];
        int[] columnEnds = new int[keys.length];
        int k = 0;
        for (int key = 0; key < keys.length; key++) {
            ColumnVector v = vectors[key];
            int first = k;
            if (v instanceof Int128Vector wide) {
                long[] hi = new long[rows];
                long[] lo = new long[rows];
                encode128(wide, hi, lo, rows);
                words[k++] = hi;
                words[k++] = lo;
            } else {
                long[] w = new long[rows];
                encode(v, w, rows);
                if (v instanceof StringVector s) {
                    strings[k] = s;
                }
                words[k++] = w;
            }
            for (int j = first; j < k; j++) {
                long[] w = words[j];
                ascending[j] = keys[key].ascending();
                if (!ascending[j]) {
                    for (int r = 0; r < rows; r++) {
                        w[r] = ~w[r];
                    }
                }
                if (v.mayHaveNulls()) {
                    nullRanks[j] = ranks(v, w, rows, keys[key].nullsFirst());
                }
            }
            columnEnds[key] = k;
        }
        return new NormalisedKeys(rows, words, columnEnds, nullRanks, strings, ascending);
    }

    /** Words a key of {@code type} normalises into: two for a key of two words, else one. */
    static int wordsOf(DataType type) {
        return type.physical() == PhysicalType.INT128 ? 2 : 1;
    }

    /** Bytes of heap {@link #of} makes per row for {@code keys} at most: a word and a NULL rank per word. */
    public static long bytesPerRow(List<OrderKey> keys) {
        long words = 0;
        for (OrderKey k : keys) {
            words += k.expression().type() == null ? 1 : wordsOf(k.expression().type());
        }
        return words * BYTES_PER_ROW_AND_KEY;
    }

    /** An INT128 key as two unsigned-ordered words: a signed 128-bit number's, or an INTERVAL's length's. */
    private static void encode128(Int128Vector v, long[] hi, long[] lo, int rows) {
        long[] high = v.high();
        long[] low = v.low();
        boolean interval = v.type().id() == TypeId.INTERVAL;
        for (int r = 0; r < rows; r++) {
            hi[r] = (interval ? Interval.sortDays(high[r], low[r]) : high[r]) ^ Long.MIN_VALUE;
            lo[r] = interval ? Interval.sortMicros(low[r]) : low[r];
        }
    }

    private static void encode(ColumnVector v, long[] w, int rows) {
        if (v instanceof IntVector iv) {
            int[] values = iv.values();
            for (int r = 0; r < rows; r++) {
                w[r] = (values[r] ^ Integer.MIN_VALUE) & 0xFFFF_FFFFL;
            }
        } else if (v instanceof LongVector lv) {
            long[] values = lv.values();
            for (int r = 0; r < rows; r++) {
                w[r] = values[r] ^ Long.MIN_VALUE;
            }
        } else if (v instanceof DoubleVector dv) {
            double[] values = dv.values();
            for (int r = 0; r < rows; r++) {
                long bits = Double.doubleToLongBits(values[r] + 0.0);
                w[r] = bits ^ ((bits >> 63) | Long.MIN_VALUE);
            }
        } else if (v instanceof BooleanVector bv) {
            byte[] values = bv.values();
            for (int r = 0; r < rows; r++) {
                w[r] = values[r];
            }
        } else {
            StringVector sv = (StringVector) v;
            byte[] data = sv.data();
            int[] offsets = sv.offsets();
            for (int r = 0; r < rows; r++) {
                w[r] = stringChunk(data, offsets[r], offsets[r + 1], 0);
            }
        }
    }

    /**
     * Chunk {@code chunk} of a UTF-8 string {@code data[start..end)} as an unsigned-ordered word:
     * bytes {@code 7*chunk .. 7*chunk+7} big-endian in the high 7 bytes (zero-padded), and in the
     * low byte how many bytes the string has from the chunk's start on, capped at 8. Between two
     * strings equal before the chunk, a smaller word is a smaller string (a string that ends
     * sorts before one that goes on, even with zero bytes); equal words with a low byte of 8 say
     * "equal so far, both go on", with less than 8 "equal strings".
     */
    static long stringChunk(byte[] data, int start, int end, int chunk) {
        int from = start + STRING_CHUNK_BYTES * chunk;
        int left = Math.max(0, end - from);
        int len = Math.min(STRING_CHUNK_BYTES, left);
        long word = 0;
        for (int i = 0; i < len; i++) {
            word |= (data[from + i] & 0xFFL) << (56 - 8 * i);
        }
        return word | Math.min(left, STRING_CHUNK_BYTES + 1);
    }

    private static byte[] ranks(ColumnVector v, long[] w, int rows, boolean nullsFirst) {
        byte nullRank = (byte) (nullsFirst ? 0 : 2);
        byte[] ranks = new byte[rows];
        for (int r = 0; r < rows; r++) {
            if (v.isNull(r)) {
                ranks[r] = nullRank;
                // A NULL slot holds an unspecified value: give it one word, so ties stay ties.
                w[r] = 0;
            } else {
                ranks[r] = VALUE_RANK;
            }
        }
        return ranks;
    }

    /**
     * Bytes of heap {@link #of} makes per row and key at most (a word and a NULL rank): what a sort
     * reserves for the keys of the rows it buffers before it normalises them.
     */
    public static final int BYTES_PER_ROW_AND_KEY = Long.BYTES + 1;

    /** Bytes of heap these keys' arrays hold (words and NULL ranks; the strings are the run's own). */
    long sizeInBytes() {
        long bytes = 0;
        for (int k = 0; k < words.length; k++) {
            bytes += (long) words[k].length * Long.BYTES + (nullRanks[k] == null ? 0 : nullRanks[k].length);
        }
        return bytes;
    }

    /** Rows normalised. */
    public int rows() {
        return rows;
    }

    /** Keys per row. */
    public int keyCount() {
        return words.length;
    }

    /** The words of key {@code k} (unsigned order; do not modify). */
    long[] words(int k) {
        return words[k];
    }

    /** The NULL ranks of key {@code k}, or null when it has no NULLs (do not modify). */
    byte[] nullRanks(int k) {
        return nullRanks[k];
    }

    /** True when equal words of key {@code k} do not imply equal keys (VARCHAR prefixes). */
    boolean isPrefix(int k) {
        return strings[k] != null;
    }

    /** The word of chunk {@code chunk} of VARCHAR key {@code k} at {@code row}, direction applied. */
    long stringWord(int k, int row, int chunk) {
        StringVector s = strings[k];
        int[] offsets = s.offsets();
        long word = stringChunk(s.data(), offsets[row], offsets[row + 1], chunk);
        return ascending[k] ? word : ~word;
    }

    /** True when rows of VARCHAR key {@code k} whose chunk is {@code word} may differ in a later chunk. */
    boolean stringGoesOn(int k, long word) {
        long plain = ascending[k] ? word : ~word;
        return (plain & 0xFF) > STRING_CHUNK_BYTES;
    }

    /** Orders row {@code a} of these keys against row {@code b} of {@code other} (the same key types). */
    public int compare(int a, NormalisedKeys other, int b) {
        return compareFrom(0, a, other, b);
    }

    /**
     * Orders row {@code a} against row {@code b} of {@code other} on keys {@code first..}: negative
     * when {@code a} sorts first, zero when they tie on those keys.
     */
    int compareFrom(int first, int a, NormalisedKeys other, int b) {
        return compareKeys(first, words.length, a, other, b);
    }

    /**
     * Orders rows {@code a} and {@code b} of these keys on the first {@code columns} key columns only (all the words
     * of each): zero when they tie on those (a window's rows of one partition, or peers).
     */
    public int compareFirst(int columns, int a, int b) {
        return compareKeys(0, columns == 0 ? 0 : columnEnds[columns - 1], a, this, b);
    }

    private int compareKeys(int first, int end, int a, NormalisedKeys other, int b) {
        for (int k = first; k < end; k++) {
            byte[] ra = nullRanks[k];
            byte[] rb = other.nullRanks[k];
            int rankA = ra == null ? VALUE_RANK : ra[a];
            int rankB = rb == null ? VALUE_RANK : rb[b];
            if (rankA != rankB) {
                return rankA - rankB;
            }
            if (rankA != VALUE_RANK) {
                continue;
            }
            long wa = words[k][a];
            long wb = other.words[k][b];
            if (wa != wb) {
                return Long.compareUnsigned(wa, wb);
            }
            StringVector s = strings[k];
            if (s != null) {
                int c = s.compare(a, other.strings[k], b);
                if (c != 0) {
                    return ascending[k] ? c : -c;
                }
            }
        }
        return 0;
    }
}
