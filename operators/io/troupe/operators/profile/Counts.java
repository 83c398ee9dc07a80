package io.troupe.operators.profile;

/**
 * What one node did, in total or for one participant (see {@link NodeProfile} for what each number
 * means for each kind of node).
 *
 * @param rows      rows the node emitted
 * @param batches   batches the node emitted
 * @param rowsIn    rows pushed into the node's sink (a pipeline breaker's input, a hash build's rows);
 *                  0 for a node without a sink
 * @param batchesIn batches pushed into the node's sink
 * @param nanos     the node's own time: in its reader, its operator or its sink, not in the
 *                  operators it pushed into
 */
public record Counts(long rows, long batches, long rowsIn, long batchesIn, long nanos) {

    static final Counts ZERO = new Counts(0, 0, 0, 0, 0);

    Counts plus(Counts other) {
        return new Counts(rows + other.rows, batches + other.batches, rowsIn + other.rowsIn,
                batchesIn + other.batchesIn, nanos + other.nanos);
    }
}
