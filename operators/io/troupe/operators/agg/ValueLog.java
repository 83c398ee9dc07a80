package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.PhysicalType;

import java.util.Arrays;

/**
 * Every value each group was given, for the aggregates that need them all (median, the percentiles, mode,
 * string_agg): an append-only log of entries in primitive arrays, each entry one value and, for string_agg, its
 * ORDER BY keys (the columns), chained per group ({@code next}, from the group's head to its tail), so that a
 * group's entries are found without an index, another log's groups are appended through their chains, and readers
 * on several threads only read. No object per group or per entry.
 *
 * <pre>
 *   per group:  head | tail | count | bytes (of its strings)
 *   per entry:  next | per column: word (a number) or start, length (a string in heap) | NULL flag (keys only)
 * </pre>
 *
 * <p>A number is kept as a <i>word</i>, a long whose signed order is the value's: INT32, DATE, INT64, DECIMAL
 * (unscaled), the times (microseconds) and BOOLEAN as they are, a FLOAT64 by its bits with the negatives' flipped ({@link #word(double)}:
 * -0.0 is 0.0, NaN sorts above infinity, as in DuckDB), so that a column of numbers sorts with
 * {@link Arrays#sort(long[])}. Strings are UTF-8 in one heap, compared as unsigned bytes (code point order).
 *
 * <p>Memory: {@link #bytesFor} is what the arrays take once they hold more entries and string bytes, plus the
 * scratch that sorting the largest group takes at output; the state reserves it before it appends.
 *
 * <p>Not threadsafe until its aggregation is finished (see {@link AggregateState}); then read-only.
 */
final class ValueLog {

    /** Per column: whether it holds strings (else words), and whether it may hold NULLs (an ORDER BY key). */
    private final boolean[] strings;
    private final boolean[] nullable;
    private final String owner;
    private int[] heads = new int[0];
    private int[] tails = new int[0];
    private int[] counts = new int[0];
    private long[] groupBytes = new long[0];
    private int entries;
    private int[] next = new int[0];
    private final long[][] words;
    private final int[][] starts;
    private final int[][] lengths;
    private final byte[][] nulls;
    private byte[] heap = new byte[0];
    private int heapUsed;
    /** The most entries one group holds: what sorting a group at output may take. */
    private int largest;

    /**
     * @param types    the columns' types: the value's, then any ORDER BY keys'
     * @param nullable per column, whether it may hold NULLs
     * @param owner    the aggregate, as errors name it
     */
    ValueLog(DataType[] types, boolean[] nullable, String owner) {
        int columns = types.length;
        this.strings = new boolean[columns];
        this.nullable = nullable.clone();
        this.owner = owner;
        words = new long[columns][];
        starts = new int[columns][];
        lengths = new int[columns][];
        nulls = new byte[columns][];
        for (int c = 0; c < columns; c++) {
            strings[c] = types[c].physical() == PhysicalType.BYTES;
            if (strings[c]) {
                starts[c] = new int[0];
                lengths[c] = new int[0];
            } else {
                words[c] = new long[0];
            }
            nulls[c] = nullable[c] ? new byte[0] : null;
        }
    }

    boolean strings(int column) {
        return strings[column];
    }

    // ------------------------------------------------------------------ words

    /** A FLOAT64 as a word: its bits, the negatives' low 63 bits flipped so that signed order is numeric order. */
    static long word(double value) {
        long bits = Double.doubleToLongBits(value + 0.0);
        return bits < 0 ? bits ^ Long.MAX_VALUE : bits;
    }

    static double doubleOf(long word) {
        return Double.longBitsToDouble(word < 0 ? word ^ Long.MAX_VALUE : word);
    }

    /** The live values of a number column as words (entry i of live row i); values at NULL rows are unspecified. */
    static long[] words(ColumnVector v, Batch batch, long[] scratch) {
        if (!(v instanceof DoubleVector)) {
            return Inputs.longs(v, batch, scratch);
        }
        int n = batch.size();
        double[] values = ((DoubleVector) v).values();
        long[] out = Inputs.room(scratch, n);
        for (int i = 0; i < n; i++) {
            out[i] = word(values[batch.row(i)]);
        }
        return out;
    }

    // ------------------------------------------------------------------ growth

    void ensureGroups(int groups) {
        if (groups > heads.length) {
            int capacity = AggregateState.grow(heads.length, groups);
            int old = heads.length;
            heads = Arrays.copyOf(heads, capacity);
            tails = Arrays.copyOf(tails, capacity);
            counts = Arrays.copyOf(counts, capacity);
            groupBytes = Arrays.copyOf(groupBytes, capacity);
            Arrays.fill(heads, old, capacity, -1);
        }
    }

    /** Makes room for {@code more} entries and {@code moreBytes} string bytes. */
    void ensureRoom(long more, long moreBytes) {
        long needed = entries + more;
        if (needed > next.length) {
            int capacity = entryCapacity(needed);
            next = Arrays.copyOf(next, capacity);
            for (int c = 0; c < strings.length; c++) {
                if (strings[c]) {
                    starts[c] = Arrays.copyOf(starts[c], capacity);
                    lengths[c] = Arrays.copyOf(lengths[c], capacity);
                } else {
                    words[c] = Arrays.copyOf(words[c], capacity);
                }
                if (nullable[c]) {
                    nulls[c] = Arrays.copyOf(nulls[c], capacity);
                }
            }
        }
        if (heapUsed + moreBytes > heap.length) {
            heap = Arrays.copyOf(heap, heapCapacity(heapUsed + moreBytes));
        }
    }

    private int entryCapacity(long needed) {
        if (needed > Integer.MAX_VALUE - 8) {
            throw tooLarge("more than 2^31 values");
        }
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, Math.max(64, 2L * next.length)));
    }

    private int heapCapacity(long needed) {
        if (needed > Integer.MAX_VALUE - 8) {
            throw tooLarge("more than 2 GiB of strings");
        }
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, Math.max(1024, 2L * heap.length)));
    }

    private QueryFailedException tooLarge(String what) {
        return new QueryFailedException(owner + " holds " + what + " in one aggregate; give the query fewer rows "
                + "per worker or more groups");
    }

    /**
     * Bytes of the arrays once there is room for {@code groups} groups, {@code more} more entries, {@code moreBytes}
     * more string bytes, and a group of {@code largestAfter} entries to sort at output.
     */
    long bytesFor(int groups, long more, long moreBytes, long largestAfter) {
        long slots = AggregateState.capacityFor(heads.length, groups);
        long perEntry = Integer.BYTES;
        for (int c = 0; c < strings.length; c++) {
            perEntry += (strings[c] ? 2 * Integer.BYTES : Long.BYTES) + (nullable[c] ? 1 : 0);
        }
        long entryCapacity = entries + more > next.length ? Math.max(entries + more, Math.max(64, 2L * next.length))
                : next.length;
        long heapBytes = heapUsed + moreBytes > heap.length
                ? Math.max(heapUsed + moreBytes, Math.max(1024, 2L * heap.length)) : heap.length;
        // Output sorts a group's entries by index, with its words beside them.
        long scratch = HeapArrays.bytes(largestAfter, Integer.BYTES + Long.BYTES);
        return 3 * HeapArrays.bytes(slots, Integer.BYTES) + HeapArrays.bytes(slots, Long.BYTES)
                + HeapArrays.bytes(entryCapacity, (int) perEntry) + HeapArrays.bytes(heapBytes, 1) + scratch;
    }

    long bytesFor(int groups) {
        return bytesFor(groups, 0, 0, largest);
    }

    int largest() {
        return largest;
    }

    // ------------------------------------------------------------------ appending

    /** A new entry at the tail of group g's chain; its columns are set next. */
    int append(int g) {
        int e = entries++;
        next[e] = -1;
        if (heads[g] < 0) {
            heads[g] = e;
        } else {
            next[tails[g]] = e;
        }
        tails[g] = e;
        largest = Math.max(largest, ++counts[g]);
        return e;
    }

    void setWord(int column, int e, long word) {
        words[column][e] = word;
        if (nullable[column]) {
            nulls[column][e] = 0;
        }
    }

    void setString(int column, int e, int g, byte[] src, int from, int length) {
        System.arraycopy(src, from, heap, heapUsed, length);
        starts[column][e] = heapUsed;
        lengths[column][e] = length;
        heapUsed += length;
        groupBytes[g] += length;
        if (nullable[column]) {
            nulls[column][e] = 0;
        }
    }

    void setNull(int column, int e) {
        nulls[column][e] = 1;
    }

    /** Copies entry {@code theirs} of {@code other} (a log of the same columns) into a new entry of group g. */
    void appendCopy(int g, ValueLog other, int theirs) {
        int e = append(g);
        for (int c = 0; c < strings.length; c++) {
            if (other.isNull(c, theirs)) {
                setNull(c, e);
            } else if (strings[c]) {
                setString(c, e, g, other.heap, other.starts[c][theirs], other.lengths[c][theirs]);
            } else {
                setWord(c, e, other.words[c][theirs]);
            }
        }
    }

    // ------------------------------------------------------------------ reading

    int head(int g) {
        return heads[g];
    }

    int next(int e) {
        return next[e];
    }

    int count(int g) {
        return counts[g];
    }

    long groupBytes(int g) {
        return groupBytes[g];
    }

    boolean isNull(int column, int e) {
        return nullable[column] && nulls[column][e] != 0;
    }

    long word(int column, int e) {
        return words[column][e];
    }

    byte[] heap() {
        return heap;
    }

    int start(int column, int e) {
        return starts[column][e];
    }

    int length(int column, int e) {
        return lengths[column][e];
    }

    /** Entries e and f by column c: unsigned bytes for strings, signed words for numbers; NULLs not looked at. */
    int compare(int column, int e, int f) {
        if (strings[column]) {
            int[] s = starts[column];
            int[] l = lengths[column];
            return Arrays.compareUnsigned(heap, s[e], s[e] + l[e], heap, s[f], s[f] + l[f]);
        }
        return Long.compare(words[column][e], words[column][f]);
    }

    /** Group g's entries in chain order, into {@code out} (room for its count). */
    int[] entriesOf(int g, int[] out) {
        int k = 0;
        for (int e = heads[g]; e >= 0; e = next[e]) {
            out[k++] = e;
        }
        return out;
    }

    // ------------------------------------------------------------------ partial states

    /**
     * Groups {@code groups[0 .. count-1]} as one VARCHAR cell each ({@link PartialBytes}): the entry count, then
     * per entry per column a NULL flag (keys only) and the word or the string.
     */
    StringVector partial(int[] groups, int count) {
        PartialBytes.Writer out = new PartialBytes.Writer(16 * count);
        int[] offsets = new int[count + 1];
        for (int k = 0; k < count; k++) {
            int g = groups[k];
            out.number(g < counts.length ? counts[g] : 0);
            for (int e = g < heads.length ? heads[g] : -1; e >= 0; e = next[e]) {
                for (int c = 0; c < strings.length; c++) {
                    if (nullable[c]) {
                        out.number(nulls[c][e]);
                        if (nulls[c][e] != 0) {
                            continue;
                        }
                    }
                    if (strings[c]) {
                        out.bytes(heap, starts[c][e], lengths[c][e]);
                    } else {
                        out.number(words[c][e]);
                    }
                }
            }
            offsets[k + 1] = out.position();
        }
        return new StringVector(out.data(), offsets);
    }

    /** The entries a partial cell holds (its first number), for reserving before {@link #appendPartial}. */
    static long partialEntries(StringVector cells, int row) {
        return new PartialBytes.Reader(cells.data(), cells.start(row)).number();
    }

    /** Appends the entries of partial cell {@code row} to group g. */
    void appendPartial(int g, StringVector cells, int row) {
        PartialBytes.Reader in = new PartialBytes.Reader(cells.data(), cells.start(row));
        long n = in.number();
        for (long i = 0; i < n; i++) {
            int e = append(g);
            for (int c = 0; c < strings.length; c++) {
                if (nullable[c] && in.number() != 0) {
                    setNull(c, e);
                } else if (strings[c]) {
                    int start = in.string();
                    setString(c, e, g, in.data(), start, in.lastLength());
                } else {
                    setWord(c, e, in.number());
                }
            }
        }
    }

    // ------------------------------------------------------------------ result vectors

    /** A result vector of {@code type} (any but VARCHAR) holding {@code words}. */
    static ColumnVector vectorOf(DataType type, long[] words, long[] validity) {
        int n = words.length;
        ColumnVector out = switch (type.physical()) {
            case LONG -> new LongVector(type, words);
            case INT -> {
                int[] values = new int[n];
                for (int k = 0; k < n; k++) {
                    values[k] = (int) words[k];
                }
                yield new IntVector(type, values);
            }
            case DOUBLE -> {
                double[] values = new double[n];
                for (int k = 0; k < n; k++) {
                    values[k] = doubleOf(words[k]);
                }
                yield new DoubleVector(type, values);
            }
            case BOOLEAN -> {
                byte[] values = new byte[n];
                for (int k = 0; k < n; k++) {
                    values[k] = (byte) words[k];
                }
                yield new BooleanVector(values);
            }
            case BYTES -> throw new IllegalArgumentException("a VARCHAR column holds strings, not words");
            case INT128 -> throw new IllegalArgumentException("an " + type + " column holds two words a value");
        };
        out.setValidity(validity);
        return out;
    }
}
