package io.troupe.operators.fragment;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.expr.Expression;

import java.util.Arrays;

/**
 * Splits a batch by the node each of its rows goes to, for a query spread over nodes
 * ({@link SpreadPlan}): all of it to the coordinator ({@code Gather}), to every node
 * ({@code Broadcast}), to this node ({@code Forward}), or each row to the node its keys hash to
 * ({@code Repartition}), so that equal keys meet. Keys hash as the hash join and the hash aggregate hash
 * them ({@link VectorHash}), mapped to a node by {@link VectorHash#part}, as a table partitioned across
 * nodes by a column splits its rows.
 *
 * <p>Not threadsafe: one per worker. The batches it returns are views over the batch routed (its
 * columns with a narrower selection).
 */
public final class NodeRouter {

    private final ExchangeKind route;
    private final int self;
    private final int nodes;
    private final Expression[] keys;
    private long[] hashes = new long[0];
    private final int[] counts;

    /**
     * @param route a Gather, Broadcast, Forward or Repartition ({@link SpreadPlan#route})
     * @param self  this node's index
     * @param nodes the number of nodes
     */
    public NodeRouter(ExchangeKind route, int self, int nodes) {
        if (nodes < 1 || self < 0 || self >= nodes) {
            throw new IllegalArgumentException("node " + self + " of " + nodes);
        }
        if (route instanceof ExchangeKind.GatherMerge) {
            throw new IllegalArgumentException("a Gather Merge routes no rows between nodes: its sort's input gathers");
        }
        this.route = route;
        this.self = self;
        this.nodes = nodes;
        this.keys = route instanceof ExchangeKind.Repartition r ? r.keys().toArray(new Expression[0]) : null;
        this.counts = new int[nodes];
    }

    /**
     * Writes to {@code out[n]} the rows of {@code batch} that go to node {@code n}, or null when none
     * do. An empty batch goes nowhere.
     *
     * @param out room for one batch per node
     */
    public void route(Batch batch, Batch[] out) {
        Arrays.fill(out, null);
        if (batch.size() == 0) {
            return;
        }
        if (route instanceof ExchangeKind.Gather) {
            out[SpreadPlan.COORDINATOR] = batch;
        } else if (route instanceof ExchangeKind.Forward) {
            out[self] = batch;
        } else if (route instanceof ExchangeKind.Broadcast) {
            Arrays.fill(out, batch);
        } else {
            repartition(batch, out);
        }
    }

    private void repartition(Batch batch, Batch[] out) {
        int n = batch.size();
        if (hashes.length < n) {
            hashes = new long[n];
        }
        for (int k = 0; k < keys.length; k++) {
            VectorHash.hash(keys[k].evaluate(batch), batch, hashes, k == 0);
        }
        Arrays.fill(counts, 0);
        // Fresh selections per batch: a sink may keep the views it is given (a CTE's, the result's).
        int[][] selections = new int[nodes][];
        for (int i = 0; i < n; i++) {
            int node = VectorHash.part(hashes[i], nodes);
            if (selections[node] == null) {
                selections[node] = new int[n];
            }
            selections[node][counts[node]++] = batch.row(i);
        }
        for (int node = 0; node < nodes; node++) {
            out[node] = counts[node] == 0 ? null : batch.withSelection(selections[node], counts[node]);
        }
    }
}
