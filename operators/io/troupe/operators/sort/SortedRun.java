package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.QueryFailedException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One sorted run: rows materialised in dense columns (in the {@link SortSpec}'s buffered layout,
 * in arrival order), their normalised keys, and the order that sorts them. The rows are not moved:
 * the order is read through ({@link #row}), and they are copied once, when output is gathered.
 *
 * <p>Each worker of a sort builds one run ({@link #sort}: "sort a run"); {@link RunMerger} merges
 * runs ("merge runs"). Immutable once built; may be read by several threads.
 */
public final class SortedRun {

    /** Most rows one run can hold: its rows are indexed by int. */
    static final int MAX_ROWS = Integer.MAX_VALUE - 16;

    private final SortSpec spec;
    private final ColumnVector[] columns;
    private final NormalisedKeys keys;
    private final int[] order;

    private SortedRun(SortSpec spec, ColumnVector[] columns, NormalisedKeys keys, int[] order) {
        this.spec = spec;
        this.columns = columns;
        this.keys = keys;
        this.order = order;
    }

    /**
     * Concatenates {@code batches} (dense, in the buffered layout, at least one) and sorts their rows, keeping
     * only the first {@code limit} of them in the order.
     *
     * @throws QueryFailedException when the batches hold more rows than a run can
     */
    public static SortedRun sort(SortSpec spec, List<Batch> batches, int limit) {
        if (batches.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one batch (" + spec.label() + ")");
        }
        long total = 0;
        for (Batch b : batches) {
            total += b.size();
        }
        if (total > MAX_ROWS) {
            throw new QueryFailedException(spec.label() + ": one worker's sort input has " + total
                    + " rows, more than the " + MAX_ROWS + " a sorted run can hold");
        }
        int rows = (int) total;
        int[] sizes = new int[batches.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = batches.get(i).size();
        }
        ColumnVector[] columns = new ColumnVector[spec.bufferedColumns()];
        List<ColumnVector> parts = new ArrayList<>(batches.size());
        for (int c = 0; c < columns.length; c++) {
            parts.clear();
            for (Batch b : batches) {
                parts.add(b.column(c));
            }
            // One batch needs no copy: only rows 0..rows of its vectors are ever read.
            columns[c] = parts.size() == 1 ? parts.get(0) : Columns.concat(parts.get(0).type(), parts, sizes, rows);
        }
        NormalisedKeys keys = spec.normalise(columns, rows);
        int[] order = RunSorter.sort(keys);
        if (order.length > limit) {
            order = Arrays.copyOf(order, limit);
        }
        return new SortedRun(spec, columns, keys, order);
    }

    public SortSpec spec() {
        return spec;
    }

    /** Rows in the order (after any limit). */
    public int size() {
        return order.length;
    }

    /** The physical row of the {@code i}-th row in sorted order. */
    public int row(int i) {
        return order[i];
    }

    /** The sorted order: physical rows (do not modify). */
    int[] order() {
        return order;
    }

    public NormalisedKeys keys() {
        return keys;
    }

    /** Bytes of heap the run holds: its columns' arrays, its keys and its order. */
    long sizeInBytes() {
        long bytes = keys.sizeInBytes() + (long) order.length * Integer.BYTES;
        for (ColumnVector column : columns) {
            bytes += column.sizeInBytes();
        }
        return bytes;
    }

    /** Column {@code c} of the buffered layout, in physical row order. */
    public ColumnVector column(int c) {
        return columns[c];
    }

    /**
     * Rows {@code from..from+count} in sorted order, as a dense batch of the first
     * {@code columnCount} columns of the buffered layout.
     */
    public Batch gather(int from, int count, int columnCount) {
        int[] rows = Arrays.copyOfRange(order, from, from + count);
        ColumnVector[] out = new ColumnVector[columnCount];
        for (int c = 0; c < columnCount; c++) {
            out[c] = columns[c].gather(rows, count);
        }
        return Batch.of(count, out);
    }
}
