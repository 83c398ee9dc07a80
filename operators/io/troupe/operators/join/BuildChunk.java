package io.troupe.operators.join;

import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

/**
 * A fixed-size block of build rows, owned by the worker that fills it: the rows' hash entries and
 * their stored columns. A row's id in the table is {@code chunkId << CHUNK_SHIFT | offset}, so
 * rows need no global counter and workers never share a chunk (lesson 2: each worker writes only
 * memory it was handed, in large pieces).
 *
 * <pre>
 *   entries (2 longs per row, so that a chain step reads one cache line):
 *   +----------------------------+----------------------------+
 *   | key (fast path) or hash    | next row id in the bucket  |  row 0
 *   +----------------------------+----------------------------+
 *   | ...                        | ...                        |  row 1 ..
 * </pre>
 * The next slot holds {@link HashJoinTable#END} until the row is linked, or
 * {@link HashJoinTable#NOT_LINKED} for a row with a NULL key (such a row never matches, but a
 * RIGHT or FULL join still emits it).
 *
 * <p>Not threadsafe: written by one build worker, then (after the table changes phase) linked by
 * the one inserter that claimed it and read by every prober.
 */
final class BuildChunk {

    final int id;
    final long[] entries;
    /** The build input's columns (empty when the join emits no right columns). */
    final ColumnVector[] payload;
    /** The evaluated key columns, for the generic key path only (empty on the fast path). */
    final ColumnVector[] keys;
    /** Rows filled, 0..CHUNK_ROWS. */
    int rows;

    BuildChunk(int id, DataType[] payloadTypes, DataType[] keyTypes) {
        this.id = id;
        this.entries = new long[HashJoinTable.CHUNK_ROWS * 2];
        this.payload = allocate(payloadTypes);
        this.keys = allocate(keyTypes);
    }

    boolean isFull() {
        return rows == HashJoinTable.CHUNK_ROWS;
    }

    private static ColumnVector[] allocate(DataType[] types) {
        ColumnVector[] vectors = new ColumnVector[types.length];
        for (int c = 0; c < types.length; c++) {
            vectors[c] = ColumnVector.allocate(types[c], HashJoinTable.CHUNK_ROWS);
        }
        return vectors;
    }
}
