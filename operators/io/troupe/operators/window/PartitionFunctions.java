package io.troupe.operators.window;

import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;
import io.troupe.operators.types.TypeId;

/**
 * One window function's column over a sorted part, computed a partition at a time (positions are indexes
 * into the part's sorted order; a partition is positions {@code from..to}, a row's peers
 * {@code peerStart..peerEnd}). How each kind is computed, in O(rows) or O(rows log rows) per partition:
 * <ul>
 *   <li>ranks from the positions and the peer groups;</li>
 *   <li>count, and sum and avg over integers and decimals, from prefix sums over the partition: exact, the sums
 *       128 bits wide (a long low word and a high word, as the hash aggregate's), a frame's sum the difference
 *       of two, which must fit the result type (else an overflow error naming the call);</li>
 *   <li>sum and avg over doubles from a {@link DoubleSumTree} (no subtraction, so NaN and infinities stay
 *       right);</li>
 *   <li>min and max by a monotonic queue: every frame kind here moves both of its bounds forward only, so each
 *       row enters and leaves the queue once;</li>
 *   <li>first_value, last_value, lag and lead as the row whose value they take, gathered at the end.</li>
 * </ul>
 * A frame ({@link WindowFrame}) is cut to the partition; an empty one gives NULL (count: 0).
 *
 * <p>Not threadsafe: part of one reader's {@link WindowPart}.
 */
final class PartitionFunctions {

    /** In {@link #sources}: the value is NULL; below it, {@code -2 - row} is a row of the fallback column. */
    private static final int NULL_SOURCE = -1;
    private static final long MAX_DECIMAL = Decimals.pow10(DataType.MAX_DECIMAL_PRECISION) - 1;

    private final WindowCallSpec call;
    private final WindowFunction function;
    private final ColumnVector value;
    private final ColumnVector fallback;
    private final int[] order;
    /** The computed column, for the functions that compute a number; else null. */
    private final ColumnVector computed;
    /** The row whose value each position takes (value functions), else null. */
    private final int[] sources;

    PartitionFunctions(WindowCallSpec call, ColumnVector[] columns, int[] order) {
        this.call = call;
        this.function = call.function();
        this.value = call.value() < 0 ? null : columns[call.value()];
        this.fallback = call.fallback() < 0 ? null : columns[call.fallback()];
        this.order = order;
        boolean takesRow = switch (function) {
            case MIN, MAX, LAG, LEAD, FIRST_VALUE, LAST_VALUE -> true;
            default -> false;
        };
        this.sources = takesRow ? new int[order.length] : null;
        this.computed = takesRow ? null : ColumnVector.allocate(call.type(), order.length);
    }

    /** Computes positions {@code from..to}, one partition. */
    void compute(int from, int to, int[] peerStart, int[] peerEnd) {
        switch (function) {
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE -> rank(from, to, peerStart, peerEnd);
            case LAG, LEAD -> shift(from, to);
            default -> {
                int[] starts = new int[to - from];
                int[] ends = new int[to - from];
                frames(from, to, peerStart, peerEnd, starts, ends);
                switch (function) {
                    case COUNT_STAR, COUNT -> count(from, to, starts, ends);
                    case SUM, AVG -> {
                        if (value.type().id() == TypeId.FLOAT64) {
                            doubleSum(from, to, starts, ends);
                        } else {
                            longSum(from, to, starts, ends);
                        }
                    }
                    case MIN, MAX -> extreme(from, to, starts, ends);
                    case FIRST_VALUE, LAST_VALUE -> {
                        for (int pos = from; pos < to; pos++) {
                            int s = starts[pos - from];
                            int e = ends[pos - from];
                            int at = function == WindowFunction.FIRST_VALUE ? s : e - 1;
                            sources[pos] = s >= e ? NULL_SOURCE : order[at];
                        }
                    }
                    default -> throw new AssertionError(function);
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

    private void shift(int from, int to) {
        long offset = call.offset();
        for (int pos = from; pos < to; pos++) {
            boolean inside = function == WindowFunction.LAG ? offset <= pos - from : offset < to - pos;
            if (inside) {
                sources[pos] = order[(int) (function == WindowFunction.LAG ? pos - offset : pos + offset)];
            } else {
                sources[pos] = fallback == null ? NULL_SOURCE : -2 - order[pos];
            }
        }
    }

    /**
     * Each position's frame, {@code starts[i]..ends[i]} for position {@code from + i}, cut to the partition: an
     * offset (an unbounded one included) counted from the position, a RANGE frame's CURRENT ROW from its peers.
     */
    private void frames(int from, int to, int[] peerStart, int[] peerEnd, int[] starts, int[] ends) {
        WindowFrame frame = call.frame();
        boolean peersStart = !frame.rows() && frame.start() == WindowFrame.CURRENT_ROW;
        boolean peersEnd = !frame.rows() && frame.end() == WindowFrame.CURRENT_ROW;
        for (int pos = from; pos < to; pos++) {
            starts[pos - from] = peersStart ? peerStart[pos] : clamp(pos, frame.start(), from, to);
            ends[pos - from] = peersEnd ? peerEnd[pos] : clamp(pos, frame.end(), from - 1, to - 1) + 1;
        }
    }

    /** {@code pos + delta} within {@code low..high}, without overflow. */
    private static int clamp(int pos, long delta, int low, int high) {
        if (delta <= (long) low - pos) {
            return low;
        }
        if (delta >= (long) high - pos) {
            return high;
        }
        return (int) (pos + delta);
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

    private void count(int from, int to, int[] starts, int[] ends) {
        int[] counts = prefixCounts(from, to);
        for (int pos = from; pos < to; pos++) {
            int s = starts[pos - from];
            int e = Math.max(s, ends[pos - from]);
            setLong(pos, counts[e - from] - counts[s - from]);
        }
    }

    private void longSum(int from, int to, int[] starts, int[] ends) {
        int rows = to - from;
        int[] counts = prefixCounts(from, to);
        long[] lows = new long[rows + 1];
        long[] highs = new long[rows + 1];
        for (int i = 0; i < rows; i++) {
            int row = order[from + i];
            long x = value.isNull(row) ? 0 : longAt(value, row);
            lows[i + 1] = lows[i] + x;
            highs[i + 1] = highs[i] + (x >> 63) + (Long.compareUnsigned(lows[i + 1], lows[i]) < 0 ? 1 : 0);
        }
        boolean decimal = value.type().id() == TypeId.DECIMAL;
        for (int pos = from; pos < to; pos++) {
            int s = starts[pos - from] - from;
            int e = Math.max(s, ends[pos - from] - from);
            long n = counts[e] - counts[s];
            if (n == 0) {
                computed.setNull(pos);
                continue;
            }
            long low = lows[e] - lows[s];
            long high = highs[e] - highs[s] - (Long.compareUnsigned(lows[e], lows[s]) < 0 ? 1 : 0);
            boolean fitsLong = high == (low >> 63);
            if (function == WindowFunction.AVG) {
                double sum = fitsLong ? low : high * 0x1p64 + ((double) (low >>> 1) * 2.0 + (low & 1));
                setDouble(pos, sum / n / Decimals.pow10(decimal ? value.type().scale() : 0));
            } else if (!fitsLong || decimal && (low > MAX_DECIMAL || low < -MAX_DECIMAL)) {
                throw new QueryDataException(QueryDataException.Kind.OVERFLOW,
                        "overflow in " + call.text() + ": the sum does not fit " + call.type());
            } else {
                setLong(pos, low);
            }
        }
    }

    private void doubleSum(int from, int to, int[] starts, int[] ends) {
        int[] counts = prefixCounts(from, to);
        double[] values = new double[to - from];
        for (int i = 0; i < values.length; i++) {
            int row = order[from + i];
            values[i] = value.isNull(row) ? 0.0 : ((DoubleVector) value).get(row);
        }
        DoubleSumTree tree = new DoubleSumTree(values);
        for (int pos = from; pos < to; pos++) {
            int s = starts[pos - from] - from;
            int e = Math.max(s, ends[pos - from] - from);
            long n = counts[e] - counts[s];
            if (n == 0) {
                computed.setNull(pos);
            } else {
                double sum = tree.sum(s, e);
                setDouble(pos, function == WindowFunction.AVG ? sum / n : sum);
            }
        }
    }

    /**
     * min or max of each frame by a monotonic queue of positions whose values get worse from head to tail: the
     * head is the frame's answer. Frames here never move back, so each position is added and dropped once.
     */
    private void extreme(int from, int to, int[] starts, int[] ends) {
        int sign = function == WindowFunction.MIN ? 1 : -1;
        int[] queue = new int[to - from];
        int head = 0;
        int tail = 0;
        int next = from;
        for (int pos = from; pos < to; pos++) {
            int s = starts[pos - from];
            int e = ends[pos - from];
            for (; next < e; next++) {
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
            sources[pos] = tail > head && s < e ? order[queue[head]] : NULL_SOURCE;
        }
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
        }
        StringVector s = (StringVector) v;
        return s.compare(a, s, b);
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
