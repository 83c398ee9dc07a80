package io.troupe.operators.agg;

import java.util.Arrays;

/**
 * A quantile sketch (Karnin, Lang and Liberty, "Optimal Quantile Approximation in Streams", 2016) of words
 * ({@link ValueLog#word}), in one {@code long[]} block of fixed size, so that approx_quantile's state per group is
 * bounded and never reallocates. Items sit in levels; an item of level h stands for 2^h values. When the sketch holds
 * as many items as its levels' capacities allow, the lowest level at its capacity is compacted: sorted, and every
 * other item (starting at a random first or second) moves up a level, which keeps the total weight and moves each
 * value's rank by at most its weight. Capacities shrink by 2/3 a level down from {@value #K} at the top, so the
 * sketch holds at most {@link #CAPACITY} items (about 3 K) whatever it has seen, and a quantile's rank is off by
 * about 1.65% of the values at most, with 99% confidence (DataSketches' KLL at K = 200, whose layout this follows;
 * the first or second item is drawn here by a xorshift generator per sketch, so a sketch is reproducible).
 *
 * <pre>
 *   block: [ levels | random | bound 0 .. bound MAX_LEVELS | free ... | level 0 | level 1 | ... | level top ]
 *   level h holds items[bound h .. bound h+1); the free space is items[0 .. bound 0)
 * </pre>
 *
 * <p>Stateless; each block is owned by one thread at a time.
 */
final class KllSketch {

    /** The top level's capacity. */
    static final int K = 200;
    /** Levels a sketch can reach: 2^64 values need fewer. */
    private static final int MAX_LEVELS = 64;
    private static final int LEVELS = 0;
    private static final int RANDOM = 1;
    private static final int BOUNDS = 2;
    private static final int ITEMS = BOUNDS + MAX_LEVELS + 1;
    /** Per number of levels, each level's capacity, and their sum: the items at which the sketch compacts. */
    private static final int[][] CAPACITIES = new int[MAX_LEVELS + 1][];
    private static final int[] MAX_ITEMS = new int[MAX_LEVELS + 1];

    static {
        for (int levels = 1; levels <= MAX_LEVELS; levels++) {
            CAPACITIES[levels] = new int[levels];
            for (int h = 0; h < levels; h++) {
                CAPACITIES[levels][h] = Math.max(2, (int) Math.ceil(K * Math.pow(2.0 / 3, levels - 1 - h)));
                MAX_ITEMS[levels] += CAPACITIES[levels][h];
            }
        }
    }

    /** The most items a sketch of any number of levels holds before it compacts. */
    static final int CAPACITY = MAX_ITEMS[MAX_LEVELS];
    /** The longs of a block. */
    static final int BLOCK = ITEMS + CAPACITY;

    private KllSketch() {
    }

    /** A new, empty sketch of one level. */
    static long[] create() {
        long[] block = new long[BLOCK];
        block[LEVELS] = 1;
        block[RANDOM] = 0x9E3779B97F4A7C15L;
        block[BOUNDS] = CAPACITY;
        block[BOUNDS + 1] = CAPACITY;
        return block;
    }

    private static int levels(long[] b) {
        return (int) b[LEVELS];
    }

    private static int bound(long[] b, int h) {
        return (int) b[BOUNDS + h];
    }

    private static int size(long[] b) {
        return b.length - ITEMS - bound(b, 0);
    }

    static void add(long[] b, long word) {
        int free = bound(b, 0);
        b[ITEMS + free - 1] = word;
        b[BOUNDS] = free - 1;
        if (size(b) >= MAX_ITEMS[levels(b)]) {
            compress(b);
        }
    }

    /** Compacts the lowest level at its capacity, adding a level above when that is the top one. */
    private static void compress(long[] b) {
        int levels = levels(b);
        for (int h = 0; h < levels; h++) {
            if (bound(b, h + 1) - bound(b, h) >= CAPACITIES[levels][h]) {
                if (h == levels - 1) {
                    b[LEVELS] = levels + 1;
                    b[BOUNDS + levels + 1] = b.length - ITEMS;
                }
                compact(b, h);
                return;
            }
        }
        throw new IllegalStateException("a full sketch has a level at its capacity");
    }

    /** Moves every other item of level h (sorted) up a level; an odd one out stays. Frees half the level. */
    private static void compact(long[] b, int h) {
        int start = ITEMS + bound(b, h);
        int end = ITEMS + bound(b, h + 1);
        int leftover = (end - start) % 2;
        Arrays.sort(b, start + leftover, end);
        int half = (end - start - leftover) / 2;
        long random = b[RANDOM];
        random ^= random << 13;
        random ^= random >>> 7;
        random ^= random << 17;
        b[RANDOM] = random;
        int offset = (int) (random & 1);
        // Level h+1 starts at end: the chosen items go just before it, read from below where they are written.
        for (int i = half - 1; i >= 0; i--) {
            b[end - half + i] = b[start + leftover + offset + 2 * i];
        }
        b[BOUNDS + h + 1] = end - half - ITEMS;
        int gap = end - start - leftover - half;
        int from = ITEMS + bound(b, 0);
        System.arraycopy(b, from, b, from + gap, start + leftover - from);
        for (int l = 0; l <= h; l++) {
            b[BOUNDS + l] += gap;
        }
    }

    /** Merges sketch {@code from} into {@code into}. */
    static void merge(long[] into, long[] from) {
        int levels = Math.max(levels(into), levels(from));
        long[] both = new long[ITEMS + size(into) + size(from)];
        both[LEVELS] = levels;
        both[RANDOM] = into[RANDOM];
        int at = ITEMS;
        for (int h = 0; h < levels; h++) {
            both[BOUNDS + h] = at - ITEMS;
            at = copyLevel(into, h, both, at);
            at = copyLevel(from, h, both, at);
        }
        both[BOUNDS + levels] = at - ITEMS;
        while (size(both) >= MAX_ITEMS[levels(both)]) {
            compress(both);
        }
        levels = levels(both);
        int shift = into.length - both.length;
        Arrays.fill(into, BOUNDS, ITEMS, 0);
        into[LEVELS] = levels;
        into[RANDOM] = both[RANDOM];
        for (int h = 0; h <= levels; h++) {
            into[BOUNDS + h] = both[BOUNDS + h] + shift;
        }
        int first = ITEMS + bound(both, 0);
        System.arraycopy(both, first, into, first + shift, both.length - first);
    }

    private static int copyLevel(long[] b, int h, long[] to, int at) {
        if (h >= levels(b)) {
            return at;
        }
        int n = bound(b, h + 1) - bound(b, h);
        System.arraycopy(b, ITEMS + bound(b, h), to, at, n);
        return at + n;
    }

    /** The values the sketch stands for: the sum of its items' weights. */
    static long weight(long[] b) {
        long weight = 0;
        for (int h = 0; h < levels(b); h++) {
            weight += (long) (bound(b, h + 1) - bound(b, h)) << h;
        }
        return weight;
    }

    /**
     * The item at rank {@code rank} (from 1) of the values, ascending: the first whose items up to it weigh at least
     * {@code rank}.
     */
    static long itemAt(long[] b, long rank) {
        int n = size(b);
        int first = ITEMS + bound(b, 0);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = first + i;
        }
        EntrySort.sort(order, n, (x, y) -> Long.compare(b[x], b[y]));
        long seen = 0;
        for (int i = 0; i < n; i++) {
            seen += 1L << levelOf(b, order[i] - ITEMS);
            if (seen >= rank) {
                return b[order[i]];
            }
        }
        return b[order[n - 1]];
    }

    private static int levelOf(long[] b, int index) {
        int h = 0;
        while (index >= bound(b, h + 1)) {
            h++;
        }
        return h;
    }

    /** Writes the levels' sizes and items (not the free space). */
    static void write(long[] b, PartialBytes.Writer out) {
        int levels = levels(b);
        out.number(levels);
        out.number(b[RANDOM]);
        for (int h = 0; h < levels; h++) {
            out.number(bound(b, h + 1) - bound(b, h));
        }
        for (int i = ITEMS + bound(b, 0); i < b.length; i++) {
            out.number(b[i]);
        }
    }

    static long[] read(PartialBytes.Reader in) {
        long[] b = new long[BLOCK];
        int levels = (int) in.number();
        b[LEVELS] = levels;
        b[RANDOM] = in.number();
        int[] sizes = new int[levels];
        int total = 0;
        for (int h = 0; h < levels; h++) {
            sizes[h] = (int) in.number();
            total += sizes[h];
        }
        int at = CAPACITY - total;
        for (int h = 0; h < levels; h++) {
            b[BOUNDS + h] = at;
            at += sizes[h];
        }
        b[BOUNDS + levels] = CAPACITY;
        for (int i = ITEMS + CAPACITY - total; i < BLOCK; i++) {
            b[i] = in.number();
        }
        return b;
    }
}
