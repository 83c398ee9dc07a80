package io.troupe.operators.sort;

/**
 * Sorts one run: computes the order of rows {@code 0..n} under a set of {@link NormalisedKeys},
 * as a primitive {@code int[]} of row indexes (no boxing, no {@code Comparator<Integer>}).
 *
 * <p>The first key takes the fast path: its NULL rows are split off to the side they sort on,
 * and the other rows are LSD-radix-sorted on the key's 64-bit words, 8 bits a pass, skipping
 * every pass whose byte is the same in all rows (an INT32 key costs at most 4 passes, a small
 * range fewer). Only rows that tie on that word are then sorted again with the full comparison
 * ({@link NormalisedKeys#compareFrom}) on the remaining keys (or on the whole string, when the
 * first key is a VARCHAR prefix), by a merge sort over the index array.
 *
 * <p>Stateless and threadsafe: each call allocates its own scratch arrays.
 */
public final class RunSorter {

    /** Below this many rows, insertion sort beats the radix passes and the merge sort's recursion. */
    private static final int INSERTION_SORT_ROWS = 24;
    private static final int RADIX_BITS = 8;
    private static final int BUCKETS = 1 << RADIX_BITS;
    private static final int PASSES = Long.SIZE / RADIX_BITS;

    private RunSorter() {
    }

    /** The rows {@code 0..keys.rows()} in sorted order; the order of rows that tie on every key is unspecified. */
    public static int[] sort(NormalisedKeys keys) {
        int n = keys.rows();
        int[] order = new int[n];
        if (n == 0) {
            return order;
        }
        byte[] ranks = keys.nullRanks(0);
        int valueFrom = 0;
        int valueTo = n;
        if (ranks == null) {
            for (int r = 0; r < n; r++) {
                order[r] = r;
            }
        } else {
            int nulls = 0;
            for (int r = 0; r < n; r++) {
                nulls += ranks[r] != NormalisedKeys.VALUE_RANK ? 1 : 0;
            }
            // Every NULL of one key has the same rank: they all go first, or all last.
            boolean nullsFirst = nulls > 0 && firstNullRank(ranks) < NormalisedKeys.VALUE_RANK;
            valueFrom = nullsFirst ? nulls : 0;
            valueTo = valueFrom + (n - nulls);
            int nextValue = valueFrom;
            int nextNull = nullsFirst ? 0 : valueTo;
            for (int r = 0; r < n; r++) {
                if (ranks[r] == NormalisedKeys.VALUE_RANK) {
                    order[nextValue++] = r;
                } else {
                    order[nextNull++] = r;
                }
            }
        }
        int[] scratch = new int[n];
        int m = valueTo - valueFrom;
        long[] first = keys.words(0);
        long[] words = new long[m];
        for (int i = 0; i < m; i++) {
            words[i] = first[order[valueFrom + i]];
        }
        words = radixSort(words, order, valueFrom, m, scratch);

        boolean prefix = keys.isPrefix(0);
        if (prefix || keys.keyCount() > 1) {
            int tieKey = prefix ? 0 : 1;
            int i = 0;
            while (i < m) {
                int j = i + 1;
                while (j < m && words[j] == words[i]) {
                    j++;
                }
                if (j - i > 1) {
                    sortRange(keys, tieKey, order, valueFrom + i, valueFrom + j, scratch);
                }
                i = j;
            }
        }
        if (keys.keyCount() > 1) {
            // The NULLs of the first key tie on it; order them by the others.
            if (valueFrom > 1) {
                sortRange(keys, 1, order, 0, valueFrom, scratch);
            }
            if (n - valueTo > 1) {
                sortRange(keys, 1, order, valueTo, n, scratch);
            }
        }
        return order;
    }

    private static int firstNullRank(byte[] ranks) {
        for (byte rank : ranks) {
            if (rank != NormalisedKeys.VALUE_RANK) {
                return rank;
            }
        }
        return NormalisedKeys.VALUE_RANK;
    }

    /**
     * Sorts {@code words[0..m)} as unsigned longs, carrying {@code rows[from..from+m)} along.
     * Returns the sorted words (this array or a scratch one).
     */
    static long[] radixSort(long[] words, int[] rows, int from, int m, int[] scratch) {
        if (m <= INSERTION_SORT_ROWS) {
            insertionSort(words, rows, from, m);
            return words;
        }
        int[] counts = new int[PASSES * BUCKETS];
        for (int i = 0; i < m; i++) {
            long w = words[i];
            for (int p = 0; p < PASSES; p++) {
                counts[p * BUCKETS + (int) ((w >>> (p * RADIX_BITS)) & (BUCKETS - 1))]++;
            }
        }
        long[] srcWords = words;
        long[] dstWords = null;
        int[] srcRows = new int[m];
        System.arraycopy(rows, from, srcRows, 0, m);
        int[] dstRows = scratch;
        for (int p = 0; p < PASSES; p++) {
            int base = p * BUCKETS;
            int shift = p * RADIX_BITS;
            if (counts[base + (int) ((srcWords[0] >>> shift) & (BUCKETS - 1))] == m) {
                continue;
            }
            int sum = 0;
            for (int b = 0; b < BUCKETS; b++) {
                int c = counts[base + b];
                counts[base + b] = sum;
                sum += c;
            }
            if (dstWords == null) {
                dstWords = new long[m];
            }
            for (int i = 0; i < m; i++) {
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
        System.arraycopy(srcRows, 0, rows, from, m);
        return srcWords;
    }

    private static void insertionSort(long[] words, int[] rows, int from, int m) {
        for (int i = 1; i < m; i++) {
            long w = words[i];
            int r = rows[from + i];
            int j = i - 1;
            while (j >= 0 && Long.compareUnsigned(words[j], w) > 0) {
                words[j + 1] = words[j];
                rows[from + j + 1] = rows[from + j];
                j--;
            }
            words[j + 1] = w;
            rows[from + j + 1] = r;
        }
    }

    /**
     * Sorts {@code order[from..to)} by keys {@code firstKey..} with a merge sort;
     * {@code scratch} is at least {@code to} long.
     */
    static void sortRange(NormalisedKeys keys, int firstKey, int[] order, int from, int to, int[] scratch) {
        if (to - from <= INSERTION_SORT_ROWS) {
            insertionSort(keys, firstKey, order, from, to);
            return;
        }
        System.arraycopy(order, from, scratch, from, to - from);
        mergeSort(keys, firstKey, scratch, order, from, to);
    }

    /** Sorts {@code src[lo..hi)} into {@code dst[lo..hi)}; both hold the same rows on entry. */
    private static void mergeSort(NormalisedKeys keys, int firstKey, int[] src, int[] dst, int lo, int hi) {
        if (hi - lo <= INSERTION_SORT_ROWS) {
            insertionSort(keys, firstKey, dst, lo, hi);
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(keys, firstKey, dst, src, lo, mid);
        mergeSort(keys, firstKey, dst, src, mid, hi);
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

    private static void insertionSort(NormalisedKeys keys, int firstKey, int[] order, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            int row = order[i];
            int j = i - 1;
            while (j >= from && keys.compareFrom(firstKey, order[j], keys, row) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = row;
        }
    }
}
