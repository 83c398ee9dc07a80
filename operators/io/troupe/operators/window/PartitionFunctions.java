package io.troupe.operators.window;

import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.Int128;
import io.troupe.operators.types.PhysicalType;
import io.troupe.operators.types.TypeId;

/**
 * One window function's column over a sorted part, computed a partition at a time (positions are indexes
 * into the part's sorted order; a partition is positions {@code from..to}, a row's peers
 * {@code peerStart..peerEnd}), each framed function over its frames ({@link PartitionFrames}: at most two runs of
 * positions and the current row). How each kind is computed, in O(rows) or O(rows log rows) per partition:
 * <ul>
 *   <li>ranks from the positions and the peer groups;</li>
 *   <li>count, and sum and avg over integers and decimals, from prefix sums over the partition: exact, the sums
 *       128 bits wide (a long low word and a high word, as the hash aggregate's), a run's sum the difference
 *       of two, the frame's sum the sum of its runs, which must fit the result type (else an overflow error naming
 *       the call);</li>
 *   <li>sum and avg over doubles from a {@link DoubleSumTree} (no subtraction, so NaN and infinities stay
 *       right);</li>
 *   <li>min and max by a monotonic queue per run: every frame's runs move forward only, so each row enters and
 *       leaves a queue once;</li>
 *   <li>first_value, last_value, nth_value, lag and lead as the row whose value they take, gathered at the end;
 *       with IGNORE NULLS counting only the rows whose value is not NULL (PostgreSQL's rule: lag and lead with
 *       offset 0 take the current row's value, NULL or not).</li>
 * </ul>
 * An empty frame gives NULL (count: 0).
 *
 * <p>Not threadsafe: part of one reader's {@link WindowPart}.
 */
final class PartitionFunctions {

    /** In {@link #sources}: the value is NULL; below it, {@code -2 - row} is a row of the fallback column. */
    private static final int NULL_SOURCE = -1;

    private final WindowCallSpec call;
    private final WindowFunction function;
    private final ColumnVector value;
    private final ColumnVector fallback;
    private final int[] order;
    /** The frames of a framed function (shared with the calls of the same frame), else null. */
    private final PartitionFrames frames;
    /** The computed column, for the functions that compute a number; else null. */
    private final ColumnVector computed;
    /** The row whose value each position takes (value functions), else null. */
    private final int[] sources;
    /**
     * Of the partition being computed: its non-NULL values (all rows for count(*)) before each position,
     * {@code counted[pos - from]}.
     */
    private int[] counted;
    /** Of the partition being computed, under IGNORE NULLS: its positions whose value is not NULL, in order. */
    private int[] present;
    /** A 128-bit sum being added up: low word, high word. */
    private long sumLow;
    private long sumHigh;

    PartitionFunctions(WindowCallSpec call, ColumnVector[] columns, int[] order, PartitionFrames frames) {
        this.call = call;
        this.frames = frames;
        this.function = call.function();
        this.value = call.value() < 0 ? null : columns[call.value()];
        this.fallback = call.fallback() < 0 ? null : columns[call.fallback()];
        this.order = order;
        boolean takesRow = switch (function) {
            case MIN, MAX, LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> true;
            default -> false;
        };
        this.sources = takesRow ? new int[order.length] : null;
        this.computed = takesRow ? null : ColumnVector.allocate(call.type(), order.length);
    }

    /** Computes positions {@code from..to}, one partition, whose frames are computed. */
    void compute(int from, int to, int[] peerStart, int[] peerEnd) {
        counted = function.takesValue() || function == WindowFunction.COUNT_STAR ? prefixCounts(from, to) : null;
        present = call.ignoreNulls() ? present(from, to) : null;
        switch (function) {
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE -> rank(from, to, peerStart, peerEnd);
            case LAG, LEAD -> shift(from, to);
            case COUNT_STAR, COUNT -> count(from, to);
            case SUM, AVG -> {
                if (value.type().physical() == PhysicalType.DOUBLE) {
                    doubleSum(from, to);
                } else {
                    longSum(from, to);
                }
            }
            case MIN, MAX -> extreme(from, to);
            case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> {
                for (int pos = from; pos < to; pos++) {
                    int at = function == WindowFunction.LAST_VALUE ? last(pos, from) : nth(pos, from,
                            function == WindowFunction.FIRST_VALUE ? 1 : call.offset());
                    sources[pos] = at < 0 ? NULL_SOURCE : order[at];
                }
            }
        }
    }

    /** The column of every position computed so far. */
    ColumnVector result() {
        if (sources == null) {
            return computed;
        }
        VectorBuilder out = new VectorBuilder(call.type(), sources.length);
        for (int source : sources) {
            if (source >= 0) {
                out.appendFrom(value, source);
            } else if (source == NULL_SOURCE) {
                out.appendNull();
            } else {
                out.appendFrom(fallback, -2 - source);
            }
        }
        return out.build();
    }

    private void rank(int from, int to, int[] peerStart, int[] peerEnd) {
        int rows = to - from;
        long dense = 0;
        for (int pos = from; pos < to; pos++) {
            if (peerStart[pos] == pos) {
                dense++;
            }
            long rank = peerStart[pos] - from + 1;
            switch (function) {
                case ROW_NUMBER -> setLong(pos, pos - from + 1);
                case RANK -> setLong(pos, rank);
                case DENSE_RANK -> setLong(pos, dense);
                case PERCENT_RANK -> setDouble(pos, rows == 1 ? 0.0 : (double) (rank - 1) / (rows - 1));
                case CUME_DIST -> setDouble(pos, (double) (peerEnd[pos] - from) / rows);
                default -> setLong(pos, ntile(pos - from, rows, call.offset()));
            }
        }
    }

    /** The bucket, 1..buckets, of row {@code r} of {@code rows}: the first {@code rows % buckets} hold one more. */
    static long ntile(long r, long rows, long buckets) {
        long size = rows / buckets;
        long larger = rows % buckets;
        long inLarger = larger * (size + 1);
        return r < inLarger ? r / (size + 1) + 1 : (r - inLarger) / size + larger + 1;
    }

    /**
     * lag and lead: the row {@code offset} rows away, or with IGNORE NULLS the {@code offset}-th row away whose
     * value is not NULL; where there is none, the fallback at the current row (else NULL).
     */
    private void shift(int from, int to) {
        long offset = call.offset();
        boolean lag = function == WindowFunction.LAG;
        for (int pos = from; pos < to; pos++) {
            int at;
            if (present == null || offset == 0) {
                boolean inside = lag ? offset <= pos - from : offset < to - pos;
                at = inside ? (int) (lag ? pos - offset : pos + offset) : -1;
            } else {
                long index = offset > present.length ? -1
                        : lag ? counted[pos - from] - offset : counted[pos + 1 - from] + offset - 1;
                at = index >= 0 && index < present.length ? present[(int) index] : -1;
            }
            if (at >= 0) {
                sources[pos] = order[at];
            } else {
                sources[pos] = fallback == null ? NULL_SOURCE : -2 - order[pos];
            }
        }
    }

    /**
     * The position of the {@code n}-th row (from 1) of the frame of {@code pos}, counting with IGNORE NULLS only
     * the rows whose value is not NULL; -1 when the frame has fewer.
     */
    private int nth(int pos, int from, long n) {
        int start = frames.start(pos);
        int cutStart = frames.cutStart(pos);
        long before = rows(start, cutStart, from);
        if (n <= before) {
            return nthIn(start, n, from);
        }
        n -= before;
        if (frames.keepsCurrent(pos) && counts(pos)) {
            if (n == 1) {
                return pos;
            }
            n--;
        }
        int cutEnd = frames.cutEnd(pos);
        return n <= rows(cutEnd, frames.end(pos), from) ? nthIn(cutEnd, n, from) : -1;
    }

    /** The position of the last row of the frame of {@code pos} (with IGNORE NULLS, whose value is not NULL). */
    private int last(int pos, int from) {
        int cutEnd = frames.cutEnd(pos);
        int end = frames.end(pos);
        if (rows(cutEnd, end, from) > 0) {
            return nthIn(cutEnd, rows(cutEnd, end, from), from);
        }
        if (frames.keepsCurrent(pos) && counts(pos)) {
            return pos;
        }
        int start = frames.start(pos);
        long before = rows(start, frames.cutStart(pos), from);
        return before > 0 ? nthIn(start, before, from) : -1;
    }

    /** Rows of positions {@code a..b} that nth and last count: all, or with IGNORE NULLS the non-NULL ones. */
    private long rows(int a, int b, int from) {
        return present == null ? b - a : counted[b - from] - counted[a - from];
    }

    /** The {@code n}-th counted row from position {@code a}, which {@link #rows} says is there. */
    private int nthIn(int a, long n, int from) {
        return present == null ? (int) (a + n - 1) : present[(int) (counted[a - from] + n - 1)];
    }

    /** Whether nth and last count the row at {@code pos}. */
    private boolean counts(int pos) {
        return present == null || !value.isNull(order[pos]);
    }

    /** The positions of {@code from..to} whose value is not NULL, in order. */
    private int[] present(int from, int to) {
        int[] out = new int[counted[to - from]];
        int n = 0;
        for (int pos = from; pos < to; pos++) {
            if (!value.isNull(order[pos])) {
                out[n++] = pos;
            }
        }
        return out;
    }

    /** Non-NULL values (all rows for count(*)) up to each position of the partition. */
    private int[] prefixCounts(int from, int to) {
        int[] counts = new int[to - from + 1];
        for (int pos = from; pos < to; pos++) {
            boolean counted = value == null || !value.isNull(order[pos]);
            counts[pos - from + 1] = counts[pos - from] + (counted ? 1 : 0);
        }
        return counts;
    }

    /** The counted rows (non-NULL values; all for count(*)) of the frame of {@code pos}. */
    private long frameCount(int pos, int from) {
        int[] c = counted;
        long n = c[frames.cutStart(pos) - from] - c[frames.start(pos) - from]
                + c[frames.end(pos) - from] - c[frames.cutEnd(pos) - from];
        return n + (frames.keepsCurrent(pos) && c[pos + 1 - from] > c[pos - from] ? 1 : 0);
    }

    private void count(int from, int to) {
        for (int pos = from; pos < to; pos++) {
            setLong(pos, frameCount(pos, from));
        }
    }

    private void longSum(int from, int to) {
        int rows = to - from;
        long[] lows = new long[rows + 1];
        long[] highs = new long[rows + 1];
        for (int i = 0; i < rows; i++) {
            int row = order[from + i];
            boolean none = value.isNull(row);
            if (!Int128.add(highs[i], lows[i], none ? 0 : highAt(value, row), none ? 0 : lowAt(value, row), highs,
                    lows, i + 1)) {
                throw overflow();
            }
        }
        boolean decimal = value.type().id() == TypeId.DECIMAL;
        for (int pos = from; pos < to; pos++) {
            long n = frameCount(pos, from);
            if (n == 0) {
                computed.setNull(pos);
                continue;
            }
            sumLow = 0;
            sumHigh = 0;
            addRun(lows, highs, frames.start(pos) - from, frames.cutStart(pos) - from);
            addRun(lows, highs, frames.cutEnd(pos) - from, frames.end(pos) - from);
            if (frames.keepsCurrent(pos) && !value.isNull(order[pos])) {
                add(lowAt(value, order[pos]), highAt(value, order[pos]));
            }
            long low = sumLow;
            long high = sumHigh;
            if (function == WindowFunction.AVG) {
                double sum = Int128.toDouble(high, low);
                setDouble(pos, sum / n / Decimals.pow10Double(decimal ? value.type().scale() : 0));
            } else if (decimal ? Int128.hasMoreDigits(high, low, call.type().precision()) : !Int128.isLong(high, low)) {
                throw overflow();
            } else if (computed instanceof Int128Vector wide) {
                wide.set(pos, high, low);
            } else {
                setLong(pos, low);
            }
        }
    }

    private QueryDataException overflow() {
        return new QueryDataException(QueryDataException.Kind.OVERFLOW,
                "overflow in " + call.text() + ": the sum does not fit " + call.type());
    }

    /** Adds the 128-bit sum of relative positions {@code a..b}, the difference of two prefix sums, to the sum. */
    private void addRun(long[] lows, long[] highs, int a, int b) {
        add(lows[b] - lows[a], highs[b] - highs[a] - (Long.compareUnsigned(lows[b], lows[a]) < 0 ? 1 : 0));
    }

    private void add(long low, long high) {
        long sum = sumLow + low;
        sumHigh += high + (Long.compareUnsigned(sum, sumLow) < 0 ? 1 : 0);
        sumLow = sum;
    }

    private void doubleSum(int from, int to) {
        double[] values = new double[to - from];
        for (int i = 0; i < values.length; i++) {
            int row = order[from + i];
            values[i] = value.isNull(row) ? 0.0 : ((DoubleVector) value).get(row);
        }
        DoubleSumTree tree = new DoubleSumTree(values);
        for (int pos = from; pos < to; pos++) {
            long n = frameCount(pos, from);
            if (n == 0) {
                computed.setNull(pos);
                continue;
            }
            double sum = tree.sum(frames.start(pos) - from, frames.cutStart(pos) - from);
            if (frames.keepsCurrent(pos)) {
                sum += values[pos - from];
            }
            sum += tree.sum(frames.cutEnd(pos) - from, frames.end(pos) - from);
            setDouble(pos, function == WindowFunction.AVG ? sum / n : sum);
        }
    }

    /**
     * min or max of each frame: the better of its runs' (each by {@link #best}) and, under EXCLUDE TIES, the
     * current row.
     */
    private void extreme(int from, int to) {
        int[] before = best(from, to, false);
        int[] after = call.frame().exclusion() == WindowFrame.Exclusion.NO_OTHERS ? null : best(from, to, true);
        for (int pos = from; pos < to; pos++) {
            int at = before[pos - from];
            if (after != null) {
                at = better(at, after[pos - from]);
            }
            if (frames.keepsCurrent(pos) && !value.isNull(order[pos])) {
                at = better(at, pos);
            }
            sources[pos] = at < 0 ? NULL_SOURCE : order[at];
        }
    }

    /** Of two positions whose value is not NULL (or -1: none), the one with the smaller (min) or larger value. */
    private int better(int a, int b) {
        if (a < 0 || b < 0) {
            return Math.max(a, b);
        }
        int c = compare(value, order[a], order[b]);
        return (function == WindowFunction.MIN ? c <= 0 : c >= 0) ? a : b;
    }

    /**
     * The position of the min or max non-NULL value of one run of each frame, {@code start..cutStart} or (after)
     * {@code cutEnd..end}, or -1, by a monotonic queue of positions whose values get worse from head to tail: the
     * head is the run's answer. Runs never move back, so each position is added and dropped once.
     */
    private int[] best(int from, int to, boolean after) {
        int sign = function == WindowFunction.MIN ? 1 : -1;
        int[] out = new int[to - from];
        int[] queue = new int[to - from];
        int head = 0;
        int tail = 0;
        int next = from;
        for (int pos = from; pos < to; pos++) {
            int s = after ? frames.cutEnd(pos) : frames.start(pos);
            int e = after ? frames.end(pos) : frames.cutStart(pos);
            assert pos == from || s >= (after ? frames.cutEnd(pos - 1) : frames.start(pos - 1))
                    && e >= (after ? frames.end(pos - 1) : frames.cutStart(pos - 1)) : "a run moved back at " + pos;
            for (next = Math.max(next, s); next < e; next++) {
                int row = order[next];
                if (value.isNull(row)) {
                    continue;
                }
                while (tail > head && sign * compare(value, order[queue[tail - 1]], row) > 0) {
                    tail--;
                }
                queue[tail++] = next;
            }
            while (tail > head && queue[head] < s) {
                head++;
            }
            out[pos - from] = tail > head && s < e ? queue[head] : -1;
        }
        return out;
    }

    /** Orders the non-NULL values at rows {@code a} and {@code b} of {@code v} (doubles as Double.compare). */
    private static int compare(ColumnVector v, int a, int b) {
        if (v instanceof IntVector iv) {
            return Integer.compare(iv.get(a), iv.get(b));
        } else if (v instanceof LongVector lv) {
            return Long.compare(lv.get(a), lv.get(b));
        } else if (v instanceof DoubleVector dv) {
            return Double.compare(dv.get(a), dv.get(b));
        } else if (v instanceof BooleanVector bv) {
            return Boolean.compare(bv.get(a), bv.get(b));
        } else if (v instanceof Int128Vector wide) {
            return wide.compare(a, wide, b);
        }
        StringVector s = (StringVector) v;
        return s.compare(a, s, b);
    }

    /** The high word of an exact value: a wide DECIMAL's own, else the sign of {@link #lowAt}. */
    private static long highAt(ColumnVector v, int row) {
        return v instanceof Int128Vector wide ? wide.high(row) : lowAt(v, row) >> 63;
    }

    /** The low word of an exact value: a wide DECIMAL's own, else the value. */
    private static long lowAt(ColumnVector v, int row) {
        return v instanceof Int128Vector wide ? wide.low(row) : longAt(v, row);
    }

    private static long longAt(ColumnVector v, int row) {
        return v instanceof IntVector iv ? iv.get(row) : ((LongVector) v).get(row);
    }

    private void setLong(int pos, long v) {
        ((LongVector) computed).set(pos, v);
    }

    private void setDouble(int pos, double v) {
        ((DoubleVector) computed).set(pos, v);
    }
}
