package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.memory.HeapArrays;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * The state of an approximate aggregate (approx_count_distinct, approx_quantile): per group a sketch of bounded
 * size, which a group gets only once it has {@link #threshold} values. Until then the group keeps its values as
 * words in a {@link ValueLog} (sparse), so that the many small groups of a GROUP BY take a few bytes each and come
 * out exact; at the threshold they fold into a new sketch (dense), a block of {@link #blockBytes} bytes that never
 * grows, and the group's log entries stay behind unused (at most {@code threshold} a dense group).
 *
 * <p>Memory: an update of n rows adds at most n log entries and turns at most {@code near + n / (threshold / 2) + 1}
 * groups dense, {@code near} being the sparse groups already halfway to the threshold; the bounds reserve that.
 *
 * <p>A partial state is one VARCHAR cell per group ({@link PartialBytes}): 0 and the words of a sparse group, or 1
 * and the sketch of a dense one, as the subclass writes it.
 *
 * <p>Not threadsafe (see {@link AggregateState}).
 */
abstract class SketchState extends AggregateState {

    private static final int SPARSE = 0;
    private static final int DENSE = 1;

    private final int threshold;
    private final ValueLog sparse;
    /** Per group, its sketch once dense, else null. */
    private Object[] dense = new Object[0];
    private int denseCount;
    /** Sparse groups holding at least half the threshold: the ones a few rows can turn dense. */
    private int near;
    private long[] words;
    private int[] rows;

    /**
     * @param threshold the values at which a group turns dense (even)
     */
    SketchState(AggregateSpec spec, int threshold) {
        super(spec);
        this.threshold = threshold;
        this.sparse = new ValueLog(new DataType[] {DataType.INT64}, new boolean[] {false}, spec.text());
    }

    /** A new, empty sketch. */
    abstract Object newSketch();

    /** The bytes a sketch takes. */
    abstract long sketchBytes();

    /** The words of the live values of {@code v} (entry i of live row i; values at NULL rows unspecified). */
    abstract long[] words(ColumnVector v, Batch batch, long[] scratch);

    abstract void add(Object sketch, long word);

    /** Merges {@code from} into {@code into}. */
    abstract void merge(Object into, Object from);

    abstract void write(Object sketch, PartialBytes.Writer out);

    abstract Object read(PartialBytes.Reader in);

    @Override
    void ensureCapacity(int groups) {
        sparse.ensureGroups(groups);
        if (groups > dense.length) {
            dense = Arrays.copyOf(dense, grow(dense.length, groups));
        }
    }

    /** Group g's sketch, or null while it is sparse. */
    final Object sketch(int g) {
        return g < dense.length ? dense[g] : null;
    }

    /** The words of sparse group g, into {@code scratch} (or a larger array); {@link #sparseCount} of them. */
    final long[] sparseWords(int g, long[] scratch) {
        int n = sparse.count(g);
        long[] out = scratch.length >= n ? scratch : new long[n];
        int k = 0;
        for (int e = sparse.head(g); e >= 0; e = sparse.next(e)) {
            out[k++] = sparse.word(0, e);
        }
        return out;
    }

    final int sparseCount(int g) {
        return sparse.count(g);
    }

    @Override
    void update(ColumnVector[] inputs, Batch batch, int[] gids) {
        int n = batch.size();
        int[] live = rows = Inputs.room(rows, n);
        int m = Inputs.validRows(inputs[0], batch, live);
        long[] w = words(inputs[0], batch, words = Inputs.room(words, n));
        sparse.ensureRoom(m, 0);
        for (int j = 0; j < m; j++) {
            int i = live[j];
            add(gids[i], w[i]);
        }
    }

    private void add(int g, long word) {
        Object sketch = dense[g];
        if (sketch != null) {
            add(sketch, word);
            return;
        }
        sparse.setWord(0, sparse.append(g), word);
        int count = sparse.count(g);
        if (count == threshold / 2) {
            near++;
        }
        if (count >= threshold) {
            denseOf(g);
        }
    }

    /** Group g's sketch, made from its words if it is sparse. */
    private Object denseOf(int g) {
        if (dense[g] == null) {
            Object sketch = newSketch();
            for (int e = sparse.head(g); e >= 0; e = sparse.next(e)) {
                add(sketch, sparse.word(0, e));
            }
            dense[g] = sketch;
            denseCount++;
            if (sparse.count(g) >= threshold / 2) {
                near--;
            }
        }
        return dense[g];
    }

    @Override
    void combine(AggregateState other, int[] theirs, int theirsFrom, int[] mine, int count) {
        SketchState o = (SketchState) other;
        sparse.ensureRoom(o.sparseEntries(theirs, theirsFrom, count), 0);
        for (int k = 0; k < count; k++) {
            int g = theirs[theirsFrom + k];
            if (o.dense[g] != null) {
                merge(denseOf(mine[k]), o.dense[g]);
            } else {
                for (int e = o.sparse.head(g); e >= 0; e = o.sparse.next(e)) {
                    add(mine[k], o.sparse.word(0, e));
                }
            }
        }
    }

    private long sparseEntries(int[] groups, int from, int count) {
        long entries = 0;
        for (int k = 0; k < count; k++) {
            int g = groups[from + k];
            entries += dense[g] == null ? sparse.count(g) : 0;
        }
        return entries;
    }

    @Override
    void combinePartial(ColumnVector[] columns, int at, int count, int[] mine) {
        StringVector cells = (StringVector) columns[at];
        long[] counts = cellCounts(cells, count);
        sparse.ensureRoom(counts[0], 0);
        for (int k = 0; k < count; k++) {
            PartialBytes.Reader in = new PartialBytes.Reader(cells.data(), cells.start(k));
            if (in.number() == DENSE) {
                merge(denseOf(mine[k]), read(in));
            } else {
                for (long i = in.number(); i > 0; i--) {
                    add(mine[k], in.number());
                }
            }
        }
    }

    /** Of {@code count} partial cells: the words of the sparse ones, and how many are dense. */
    private static long[] cellCounts(StringVector cells, int count) {
        long[] counts = new long[2];
        for (int k = 0; k < count; k++) {
            PartialBytes.Reader in = new PartialBytes.Reader(cells.data(), cells.start(k));
            if (in.number() == DENSE) {
                counts[1]++;
            } else {
                counts[0] += in.number();
            }
        }
        return counts;
    }

    @Override
    DataType[] partialTypes() {
        return new DataType[] {DataType.VARCHAR};
    }

    @Override
    void partial(int[] groups, int count, ColumnVector[] out, int at) {
        PartialBytes.Writer cells = new PartialBytes.Writer(16 * count);
        int[] offsets = new int[count + 1];
        for (int k = 0; k < count; k++) {
            int g = groups[k];
            Object sketch = sketch(g);
            if (sketch != null) {
                cells.number(DENSE);
                write(sketch, cells);
            } else {
                cells.number(SPARSE);
                cells.number(sparse.count(g));
                for (int e = sparse.head(g); e >= 0; e = sparse.next(e)) {
                    cells.number(sparse.word(0, e));
                }
            }
            offsets[k + 1] = cells.position();
        }
        out[at] = new StringVector(cells.data(), offsets);
    }

    // ------------------------------------------------------------------ memory

    @Override
    long bytesFor(int groups) {
        return bytesFor(groups, 0, 0);
    }

    /** The bytes once {@code more} words went to the log and at most {@code moreDense} more groups turned dense. */
    private long bytesFor(int groups, long more, long moreDense) {
        return sparse.bytesFor(groups, more, 0, threshold)
                + HeapArrays.bytes(capacityFor(dense.length, groups), Long.BYTES)
                + (denseCount + moreDense) * sketchBytes();
    }

    /** At most how many groups {@code words} more words (and {@code sketches} merged sketches) turn dense. */
    private long turning(long words, long sketches) {
        return near + words / (threshold / 2) + 1 + sketches;
    }

    @Override
    long bytesAfterUpdate(int groups, ColumnVector[] inputs, Batch batch) {
        return bytesFor(groups, batch.size(), turning(batch.size(), 0));
    }

    @Override
    long bytesAfterCombine(int groups, AggregateState other, int[] theirs, int theirsFrom, int count) {
        SketchState o = (SketchState) other;
        long words = o.sparseEntries(theirs, theirsFrom, count);
        return bytesFor(groups, words, turning(words, count));
    }

    @Override
    long bytesAfterPartial(int groups, ColumnVector[] columns, int at, int count) {
        long[] counts = cellCounts((StringVector) columns[at], count);
        return bytesFor(groups, counts[0], turning(counts[0], counts[1]));
    }
}
