package io.troupe.operators.join;

import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

/**
 * A fixed-size block of build rows, owned by the worker that fills it: the rows' hash entries (one
 * chunk of the query's arena memory) and their stored columns (cut to its rows when the worker's input
 * ends part of the way through it: {@link #trimColumns}). A row's id in the table is
 * {@code chunkId << chunkShift | offset}, so
 * rows need no global counter and workers never share a chunk (lesson 2: each worker writes only
 * memory it was handed, in large pieces).
 *
 * The entries hold each row's key (or hash) and its next link, in the table's layout (see
 * {@link HashJoinTable}).
 *
 * <p>Not threadsafe: written by one build worker, then (after the table changes phase) linked by
 * the one inserter that claimed it and read by every prober.
 */
final class BuildChunk {

    final int id;
    final long[] entries;
    /**
     * The build input's columns (empty when the join emits no right columns); null at the index
     * of a column that the entries' key slots already hold (see {@link HashJoinTable}).
     */
    final ColumnVector[] payload;
    /** The evaluated key columns, for the generic key path only (empty on the fast path). */
    final ColumnVector[] keys;
    /** Rows the chunk holds when full. */
    final int capacity;
    /** Rows filled, 0..capacity. */
    int rows;
    /** Bytes of its columns reserved from the join's memory so far (see {@link HashJoinTable#reserveGrowth}). */
    long reservedColumnBytes;

    /**
     * @param entries   the entries: capacity times the longs per row, taken from the query's memory
     * @param capacity  rows the chunk holds
     * @param keyColumn the payload column not stored because it is the key, or -1
     */
    BuildChunk(int id, long[] entries, int capacity, DataType[] payloadTypes, int keyColumn, DataType[] keyTypes) {
        this.id = id;
        this.entries = entries;
        this.capacity = capacity;
        this.payload = allocate(payloadTypes, capacity);
        if (keyColumn >= 0) {
            payload[keyColumn] = null;
        }
        this.keys = allocate(keyTypes, capacity);
    }

    /** Bytes its stored columns hold now (VARCHAR columns grow as rows are appended). */
    long columnBytes() {
        long bytes = 0;
        for (ColumnVector v : payload) {
            bytes += v == null ? 0 : v.sizeInBytes();
        }
        for (ColumnVector v : keys) {
            bytes += v.sizeInBytes();
        }
        return bytes;
    }

    boolean isFull() {
        return rows == capacity;
    }

    /**
     * Copies the columns of a chunk that its worker finished part-full into arrays of its rows, so that a small
     * build (a few hundred rows above a join or an aggregate, whose count nobody knew) holds what its rows take
     * while it is probed, not a whole chunk's columns.
     */
    void trimColumns() {
        int[] all = new int[rows];
        for (int i = 0; i < rows; i++) {
            all[i] = i;
        }
        trim(payload, all);
        trim(keys, all);
    }

    private static void trim(ColumnVector[] vectors, int[] all) {
        for (int c = 0; c < vectors.length; c++) {
            if (vectors[c] != null) {
                vectors[c] = vectors[c].gather(all, all.length);
            }
        }
    }

    private static ColumnVector[] allocate(DataType[] types, int capacity) {
        ColumnVector[] vectors = new ColumnVector[types.length];
        for (int c = 0; c < types.length; c++) {
            vectors[c] = ColumnVector.allocate(types[c], capacity);
        }
        return vectors;
    }
}
