package io.troupe.cli;

/**
 * One result printed row by row as it comes, in a {@link ResultFormat}: what it holds back is bounded, whatever the
 * result's size (a table's first rows, whose widths set its columns'; one JSON row, to know whether a comma follows
 * it), so that {@code bin/troupe sql} prints a result of any size in the memory of a small one. Not threadsafe: the
 * thread that reads the result writes it.
 */
interface ResultWriter {

    /** Prints {@code row} (one value a column, as {@code ColumnVector.getObject} gives them), or holds it back. */
    void row(Object[] row);

    /** Prints what was held back and the result's closing lines. */
    void end();
}
