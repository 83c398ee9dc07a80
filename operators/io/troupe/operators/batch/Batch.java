package io.troupe.operators.batch;

import java.util.Arrays;

/**
 * A slice of a relation in columnar form: one {@link ColumnVector} per column, all with the same
 * physical row count, plus an optional selection vector that lists the live rows.
 *
 * <p>A filter narrows the selection instead of copying the columns; expressions compute at the
 * selected positions and return vectors aligned with the input, so the selection carries over.
 * {@link #compact()} materialises a dense copy where a consumer needs one (a hash table insert,
 * an encoder).
 *
 * <p>Immutable once built (vectors included, by convention): a batch may be handed to another
 * thread and read there.
 */
public final class Batch {

    private final ColumnVector[] columns;
    private final int rowCount;
    /** Live rows in ascending order, or null for rows 0..rowCount-1. */
    private final int[] selection;
    private final int size;

    private Batch(ColumnVector[] columns, int rowCount, int[] selection, int size) {
        this.columns = columns;
        this.rowCount = rowCount;
        this.selection = selection;
        this.size = size;
    }

    /** A dense batch: every one of {@code rowCount} rows is live. */
    public static Batch of(int rowCount, ColumnVector... columns) {
        for (ColumnVector c : columns) {
            if (c.capacity() < rowCount) {
                throw new IllegalArgumentException("column of capacity " + c.capacity()
                        + " in a batch of " + rowCount + " rows");
            }
        }
        return new Batch(columns, rowCount, null, rowCount);
    }

    /** Live rows. */
    public int size() {
        return size;
    }

    /** Physical rows (an upper bound on the positions {@link #row} returns). */
    public int rowCount() {
        return rowCount;
    }

    public int columnCount() {
        return columns.length;
    }

    public ColumnVector column(int index) {
        return columns[index];
    }

    /** The physical row of the {@code i}-th live row. */
    public int row(int i) {
        return selection == null ? i : selection[i];
    }

    /** The selection vector (first {@link #size()} entries), or null when every row is live. */
    public int[] selection() {
        return selection;
    }

    /** This batch's columns with a narrower selection (ascending physical rows). */
    public Batch withSelection(int[] newSelection, int newSize) {
        return new Batch(columns, rowCount, newSelection, newSize);
    }

    /** Other columns over the same rows and selection (a projection). */
    public Batch withColumns(ColumnVector... newColumns) {
        return new Batch(newColumns, rowCount, selection, size);
    }

    /** A dense batch holding only the live rows; returns this when already dense. */
    public Batch compact() {
        if (selection == null && size == rowCount) {
            return this;
        }
        int[] rows = selection != null ? selection : identity(size);
        ColumnVector[] dense = new ColumnVector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            dense[c] = columns[c].gather(rows, size);
        }
        return new Batch(dense, size, null, size);
    }

    /** Bytes of heap its columns' arrays hold (see {@link ColumnVector#sizeInBytes()}), selection included. */
    public long sizeInBytes() {
        long bytes = selection == null ? 0 : (long) selection.length * Integer.BYTES;
        for (ColumnVector column : columns) {
            bytes += column.sizeInBytes();
        }
        return bytes;
    }

    /** The live row {@code i} as Java objects (see {@link ColumnVector#getObject}). */
    public Object[] rowObjects(int i) {
        int r = row(i);
        Object[] values = new Object[columns.length];
        for (int c = 0; c < columns.length; c++) {
            values[c] = columns[c].getObject(r);
        }
        return values;
    }

    private static int[] identity(int n) {
        int[] rows = new int[n];
        Arrays.setAll(rows, i -> i);
        return rows;
    }

    @Override
    public String toString() {
        return "Batch[columns=" + columns.length + ", size=" + size + ", rowCount=" + rowCount + "]";
    }
}
