package io.troupe.operators.sort;

import java.util.Arrays;

/**
 * Sorts one run: computes the order of rows {@code 0..n} under a set of {@link NormalisedKeys},
 * as a primitive {@code int[]} of row indexes (no boxing, no {@code Comparator<Integer>}).
 *
 * <p>Most significant key first, one level at a time (an MSD scheme over the normalised words):
 * <ol>
 *   <li>the range's NULLs of the key go to the side they sort on, and sort by the next key;</li>
 *   <li>the other rows' words are gathered next to their row indexes into contiguous scratch
 *       arrays and sorted there: an LSD radix sort, 8 bits a pass, that skips every pass whose
 *       byte is the same in all rows (an INT32 key costs at most 4 passes, a small range fewer),
 *       or for short ranges a merge sort of (word, row) pairs;</li>
 *   <li>each group of rows with equal words sorts by the next key, or, for a VARCHAR key whose
 *       strings go on, by the key's next 7 bytes.</li>
 * </ol>
 * Every level reads the words of its rows once and then works on contiguous arrays, so sorting
 * by a second key does not chase row indexes into a large array at every comparison. Ranges of a
 * few rows, and strings equal in their first {@value #MAX_STRING_CHUNKS} chunks, sort with the
 * full comparison ({@link NormalisedKeys#compareFrom}) instead.
 *
 * <p>Not threadsafe: an instance holds one sort's scratch arrays. {@link #sort} makes its own.
 */
public final class RunSorter {

    /** At most this many rows, insertion sort beats everything else. */
    private static final int INSERTION_SORT_ROWS = 24;
    /** From this many rows on, the radix passes (a 2K-entry histogram each) beat a merge sort. */
    private static final int RADIX_SORT_ROWS = 512;
    /** VARCHAR keys equal in this many 7-byte chunks sort by comparing whole strings. */
    private static final int MAX_STRING_CHUNKS = 4;
    private static final int RADIX_BITS = 8;
    private static final int BUCKETS = 1 << RADIX_BITS;
    private static final int PASSES = Long.SIZE / RADIX_BITS;
    /** Bytes of heap {@link #sort} makes per row: the order it returns and its scratch (two words, a row). */
    public static final int BYTES_PER_ROW = 2 * Integer.BYTES + 2 * Long.BYTES;

    private final NormalisedKeys keys;
    private final int[] order;
    /** Scratch, indexed like {@code order}: a level's words, and the radix and merge sorts' spare arrays. */
    private final long[] words;
    private final long[] spareWords;
    private final int[] spareRows;
    private final int[] counts = new int[PASSES * BUCKETS];

    private RunSorter(NormalisedKeys keys) {
        int n = keys.rows();
        this.keys = keys;
        this.order = new int[n];
        this.words = new long[n];
        this.spareWords = new long[n];
        this.spareRows = new int[n];
        for (int r = 0; r < n; r++) {
            order[r] = r;
        }
    }

    /** The rows {@code 0..keys.rows()} in sorted order; the order of rows that tie on every key is unspecified. */
    public static int[] sort(NormalisedKeys keys) {
        RunSorter sorter = new RunSorter(keys);
        sorter.sortRange(0, keys.rows(), 0, 0);
        return sorter.order;
    }

    /** Sorts {@code order[from..to)}, rows that tie on keys before {@code key} (and on its chunks before {@code chunk}). */
    private void sortRange(int from, int to, int key, int chunk) {
        if (to - from < 2 || key == keys.keyCount()) {
            return;
        }
        boolean string = keys.isPrefix(key);
        if (to - from <= INSERTION_SORT_ROWS || (string && chunk >= MAX_STRING_CHUNKS)) {
            sortByComparison(from, to, key);
            return;
        }
        int valueFrom = from;
        int valueTo = to;
        byte[] ranks = chunk == 0 ? keys.nullRanks(key) : null;
        if (ranks != null) {
            int nulls = partitionNulls(ranks, from, to);
            if (nulls > 0) {
                boolean nullsFirst = ranks[order[from]] < NormalisedKeys.VALUE_RANK;
                valueFrom = nullsFirst ? from + nulls : from;
                valueTo = valueFrom + (to - from - nulls);
                int nullFrom = nullsFirst ? from : valueTo;
                sortRange(nullFrom, nullFrom + nulls, key + 1, 0);
            }
        }
        if (string) {
            for (int i = valueFrom; i < valueTo; i++) {
                words[i] = keys.stringWord(key, order[i], chunk);
            }
        } else {
            long[] keyWords = keys.words(key);
            for (int i = valueFrom; i < valueTo; i++) {
                words[i] = keyWords[order[i]];
            }
        }
        sortPairs(valueFrom, valueTo);
        int i = valueFrom;
        while (i < valueTo) {
            long w = words[i];
            int j = i + 1;
            while (j < valueTo && words[j] == w) {
                j++;
            }
            if (j - i > 1) {
                if (string && keys.stringGoesOn(key, w)) {
                    sortRange(i, j, key, chunk + 1);
                } else {
                    sortRange(i, j, key + 1, 0);
                }
            }
            i = j;
        }
    }

    /**
     * Moves the rows of {@code order[from..to)} whose rank is not a value's to the side their
     * rank sorts on (every NULL of one key has the same rank). Returns how many there are.
     */
    private int partitionNulls(byte[] ranks, int from, int to) {
        int nulls = 0;
        byte nullRank = NormalisedKeys.VALUE_RANK;
        for (int i = from; i < to; i++) {
            byte rank = ranks[order[i]];
            if (rank != NormalisedKeys.VALUE_RANK) {
                nulls++;
                nullRank = rank;
            }
        }
        if (nulls == 0) {
            return 0;
        }
        boolean nullsFirst = nullRank < NormalisedKeys.VALUE_RANK;
        int nextNull = nullsFirst ? from : to - nulls;
        int nextValue = nullsFirst ? from + nulls : from;
        System.arraycopy(order, from, spareRows, from, to - from);
        for (int i = from; i < to; i++) {
            int row = spareRows[i];
            if (ranks[row] == NormalisedKeys.VALUE_RANK) {
                order[nextValue++] = row;
            } else {
                order[nextNull++] = row;
            }
        }
        return nulls;
    }

    // ------------------------------------------------------------------ (word, row) pairs

    /** Sorts {@code words[from..to)} as unsigned longs, carrying {@code order[from..to)} along. */
    private void sortPairs(int from, int to) {
        int n = to - from;
        if (n <= INSERTION_SORT_ROWS) {
            insertionSortPairs(words, order, from, to);
        } else if (n < RADIX_SORT_ROWS) {
            System.arraycopy(words, from, spareWords, from, n);
            System.arraycopy(order, from, spareRows, from, n);
            mergeSortPairs(spareWords, spareRows, words, order, from, to);
        } else {
            radixSortPairs(from, to);
        }
    }

    private void radixSortPairs(int from, int to) {
        int n = to - from;
        Arrays.fill(counts, 0);
        for (int i = from; i < to; i++) {
            long w = words[i];
            for (int p = 0; p < PASSES; p++) {
                counts[p * BUCKETS + (int) ((w >>> (p * RADIX_BITS)) & (BUCKETS - 1))]++;
            }
        }
        long[] srcWords = words;
        int[] srcRows = order;
        long[] dstWords = spareWords;
        int[] dstRows = spareRows;
        for (int p = 0; p < PASSES; p++) {
            int base = p * BUCKETS;
            int shift = p * RADIX_BITS;
            if (counts[base + (int) ((srcWords[from] >>> shift) & (BUCKETS - 1))] == n) {
                continue;
            }
            int sum = from;
            for (int b = 0; b < BUCKETS; b++) {
                int c = counts[base + b];
                counts[base + b] = sum;
                sum += c;
            }
            for (int i = from; i < to; i++) {
                long w = srcWords[i];
                int slot = counts[base + (int) ((w >>> shift) & (BUCKETS - 1))]++;
                dstWords[slot] = w;
                dstRows[slot] = srcRows[i];
            }
            long[] tw = srcWords;
            srcWords = dstWords;
            dstWords = tw;
            int[] tr = srcRows;
            srcRows = dstRows;
            dstRows = tr;
        }
        if (srcWords != words) {
            System.arraycopy(srcWords, from, words, from, n);
            System.arraycopy(srcRows, from, order, from, n);
        }
    }

    /** Sorts pairs {@code src[lo..hi)} into {@code dst[lo..hi)}; both hold the same pairs on entry. */
    private static void mergeSortPairs(long[] srcWords, int[] srcRows, long[] dstWords, int[] dstRows, int lo, int hi) {
        if (hi - lo <= INSERTION_SORT_ROWS) {
            insertionSortPairs(dstWords, dstRows, lo, hi);
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSortPairs(dstWords, dstRows, srcWords, srcRows, lo, mid);
        mergeSortPairs(dstWords, dstRows, srcWords, srcRows, mid, hi);
        int p = lo;
        int q = mid;
        for (int i = lo; i < hi; i++) {
            if (q >= hi || (p < mid && Long.compareUnsigned(srcWords[p], srcWords[q]) <= 0)) {
                dstWords[i] = srcWords[p];
                dstRows[i] = srcRows[p++];
            } else {
                dstWords[i] = srcWords[q];
                dstRows[i] = srcRows[q++];
            }
        }
    }

    private static void insertionSortPairs(long[] words, int[] rows, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            long w = words[i];
            int r = rows[i];
            int j = i - 1;
            while (j >= from && Long.compareUnsigned(words[j], w) > 0) {
                words[j + 1] = words[j];
                rows[j + 1] = rows[j];
                j--;
            }
            words[j + 1] = w;
            rows[j + 1] = r;
        }
    }

    // ------------------------------------------------------------------ full comparison

    /** Sorts {@code order[from..to)} by keys {@code firstKey..} with the full row comparison. */
    private void sortByComparison(int from, int to, int firstKey) {
        if (to - from <= INSERTION_SORT_ROWS) {
            insertionSort(order, from, to, firstKey);
            return;
        }
        System.arraycopy(order, from, spareRows, from, to - from);
        mergeSort(spareRows, order, from, to, firstKey);
    }

    /** Sorts {@code src[lo..hi)} into {@code dst[lo..hi)}; both hold the same rows on entry. */
    private void mergeSort(int[] src, int[] dst, int lo, int hi, int firstKey) {
        if (hi - lo <= INSERTION_SORT_ROWS) {
            insertionSort(dst, lo, hi, firstKey);
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(dst, src, lo, mid, firstKey);
        mergeSort(dst, src, mid, hi, firstKey);
        if (keys.compareFrom(firstKey, src[mid - 1], keys, src[mid]) <= 0) {
            System.arraycopy(src, lo, dst, lo, hi - lo);
            return;
        }
        int p = lo;
        int q = mid;
        for (int i = lo; i < hi; i++) {
            if (q >= hi || (p < mid && keys.compareFrom(firstKey, src[p], keys, src[q]) <= 0)) {
                dst[i] = src[p++];
            } else {
                dst[i] = src[q++];
            }
        }
    }

    private void insertionSort(int[] rows, int from, int to, int firstKey) {
        for (int i = from + 1; i < to; i++) {
            int row = rows[i];
            int j = i - 1;
            while (j >= from && keys.compareFrom(firstKey, rows[j], keys, row) > 0) {
                rows[j + 1] = rows[j];
                j--;
            }
            rows[j + 1] = row;
        }
    }
}
