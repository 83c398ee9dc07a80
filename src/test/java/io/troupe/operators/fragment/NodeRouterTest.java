package io.troupe.operators.fragment;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How {@link NodeRouter} splits a batch between nodes: under a Repartition every live row goes to exactly
 * one node, equal keys (NULLs, -0.0 and 0.0, NaNs) to the same node whichever node routes them, and many
 * keys to every node; Gather, Broadcast and Forward pass the whole batch where they say; an empty batch
 * goes nowhere; a batch's selection vector is respected.
 */
class NodeRouterTest {

    private static final Expression LONG_KEY = new ColumnExpression(0, DataType.INT64, "k");
    private static final Expression DOUBLE_KEY = new ColumnExpression(1, DataType.FLOAT64, "d");
    private static final ExchangeKind BY_BOTH = new ExchangeKind.Repartition(List.of(LONG_KEY, DOUBLE_KEY));

    @Test
    void aRepartitionSendsEveryLiveRowToExactlyOneNodeKeepingItsOrder() {
        Random rnd = new Random(11);
        for (int nodes = 1; nodes <= 4; nodes++) {
            for (int self = 0; self < nodes; self++) {
                NodeRouter router = new NodeRouter(BY_BOTH, self, nodes);
                Batch[] out = new Batch[nodes];
                for (int b = 0; b < 20; b++) {
                    Batch batch = randomBatch(rnd, 1 + rnd.nextInt(300), rnd.nextBoolean());
                    router.route(batch, out);
                    List<Integer> seen = new ArrayList<>();
                    for (Batch part : out) {
                        if (part == null) {
                            continue;
                        }
                        assertTrue(part.size() > 0, "a node with no rows gets null, not an empty batch");
                        for (int i = 0; i < part.size(); i++) {
                            assertTrue(i == 0 || part.row(i - 1) < part.row(i), "ascending physical rows");
                            seen.add(part.row(i));
                        }
                    }
                    List<Integer> live = liveRows(batch);
                    assertEquals(live, new ArrayList<>(new TreeSet<>(seen)), "every live row, none other");
                    assertEquals(live.size(), seen.size(), "each row once");
                }
            }
        }
    }

    @Test
    void equalKeysMeetOnOneNodeWhicheverNodeRoutesThem() {
        Random rnd = new Random(12);
        for (int nodes = 2; nodes <= 4; nodes++) {
            Map<List<Object>, Integer> nodeOfKey = new HashMap<>();
            for (int self = 0; self < nodes; self++) {
                NodeRouter router = new NodeRouter(BY_BOTH, self, nodes);
                Batch[] out = new Batch[nodes];
                for (int b = 0; b < 30; b++) {
                    router.route(randomBatch(rnd, 1 + rnd.nextInt(200), rnd.nextBoolean()), out);
                    for (int n = 0; n < nodes; n++) {
                        if (out[n] == null) {
                            continue;
                        }
                        for (int i = 0; i < out[n].size(); i++) {
                            List<Object> key = key(out[n], out[n].row(i));
                            Integer before = nodeOfKey.putIfAbsent(key, n);
                            assertEquals(before == null ? n : before, n, "key " + key + " on two nodes");
                        }
                    }
                }
            }
            assertTrue(nodeOfKey.containsKey(nullKey()), "NULLs were routed");
        }
    }

    @Test
    void negativeZeroAndZeroAndEveryNaNMeet() {
        long[] k = new long[6];
        double[] d = {0.0, -0.0, Double.NaN, Double.longBitsToDouble(0x7ff8000000000001L),
            Double.longBitsToDouble(0xfff8000000000000L), 1.0};
        Batch batch = Batch.of(6, new LongVector(DataType.INT64, k), new DoubleVector(d));
        for (int nodes = 2; nodes <= 4; nodes++) {
            Batch[] out = new Batch[nodes];
            new NodeRouter(new ExchangeKind.Repartition(List.of(DOUBLE_KEY)), 0, nodes).route(batch, out);
            int[] nodeOfRow = new int[6];
            for (int n = 0; n < nodes; n++) {
                for (int i = 0; out[n] != null && i < out[n].size(); i++) {
                    nodeOfRow[out[n].row(i)] = n;
                }
            }
            assertEquals(nodeOfRow[0], nodeOfRow[1], "-0.0 and 0.0");
            assertEquals(nodeOfRow[2], nodeOfRow[3], "NaNs of other payloads");
            assertEquals(nodeOfRow[2], nodeOfRow[4], "a negative NaN");
        }
    }

    @Test
    void manyKeysOverSeveralBatchesReachEveryNode() {
        for (int nodes = 2; nodes <= 4; nodes++) {
            int[] rows = new int[nodes];
            NodeRouter router = new NodeRouter(new ExchangeKind.Repartition(List.of(LONG_KEY)), nodes - 1, nodes);
            Batch[] out = new Batch[nodes];
            for (int b = 0; b < 10; b++) {
                long[] k = new long[100];
                for (int i = 0; i < k.length; i++) {
                    k[i] = b * 100L + i;
                }
                router.route(Batch.of(100, new LongVector(DataType.INT64, k), new DoubleVector(new double[100])), out);
                for (int n = 0; n < nodes; n++) {
                    rows[n] += out[n] == null ? 0 : out[n].size();
                }
            }
            for (int n = 0; n < nodes; n++) {
                // 1000 distinct keys: a node with under a tenth of its fair share is a skewed hash, not chance.
                assertTrue(rows[n] > 100 / nodes, "node " + n + " of " + nodes + " got " + rows[n] + " of 1000 rows");
            }
            assertEquals(1000, Arrays.stream(rows).sum());
        }
    }

    @Test
    void gatherBroadcastAndForwardPassTheWholeBatchWhereTheySay() {
        Batch batch = randomBatch(new Random(14), 50, true);
        for (int nodes = 1; nodes <= 4; nodes++) {
            for (int self = 0; self < nodes; self++) {
                Batch[] out = new Batch[nodes];
                new NodeRouter(new ExchangeKind.Gather(), self, nodes).route(batch, out);
                assertOnly(out, batch, SpreadPlan.COORDINATOR);
                new NodeRouter(ExchangeKind.Forward.KEPT, self, nodes).route(batch, out);
                assertOnly(out, batch, self);
                new NodeRouter(new ExchangeKind.Broadcast(), self, nodes).route(batch, out);
                for (Batch b : out) {
                    assertSame(batch, b, "broadcast to every node, this one too");
                }
            }
        }
    }

    @Test
    void anEmptyBatchGoesNowhereAndStaleRoutesAreCleared() {
        Batch empty = randomBatch(new Random(15), 10, false).withSelection(new int[0], 0);
        for (ExchangeKind route : List.of(new ExchangeKind.Gather(), ExchangeKind.Forward.KEPT,
                new ExchangeKind.Broadcast(), BY_BOTH)) {
            NodeRouter router = new NodeRouter(route, 1, 3);
            Batch[] out = new Batch[3];
            router.route(randomBatch(new Random(16), 40, false), out);
            router.route(empty, out);
            assertArrayEquals(new Batch[3], out, route.label());
        }
    }

    @Test
    void aSelectionVectorLimitsTheRowsRouted() {
        Batch all = randomBatch(new Random(17), 64, false);
        int[] odd = new int[32];
        for (int i = 0; i < odd.length; i++) {
            odd[i] = 2 * i + 1;
        }
        Batch batch = all.withSelection(odd, odd.length);
        Batch[] out = new Batch[3];
        new NodeRouter(BY_BOTH, 2, 3).route(batch, out);
        int routed = 0;
        for (Batch part : out) {
            for (int i = 0; part != null && i < part.size(); i++) {
                assertEquals(1, part.row(i) % 2, "an unselected row was routed");
                routed++;
            }
        }
        assertEquals(32, routed);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThrows(IllegalArgumentException.class, () -> new NodeRouter(new ExchangeKind.Gather(), 3, 3));
        assertThrows(IllegalArgumentException.class, () -> new NodeRouter(new ExchangeKind.Gather(), -1, 3));
        assertThrows(IllegalArgumentException.class, () -> new NodeRouter(new ExchangeKind.Gather(), 0, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new NodeRouter(new ExchangeKind.GatherMerge(List.of()), 0, 2));
        assertTrue(e.getMessage().contains("Gather Merge"), e.getMessage());
    }

    private static void assertOnly(Batch[] out, Batch batch, int node) {
        for (int n = 0; n < out.length; n++) {
            if (n == node) {
                assertSame(batch, out[n]);
            } else {
                assertNull(out[n], "node " + n);
            }
        }
    }

    /**
     * Rows of a long key from a small range (repeats) and a double key of few values, 0.0 and -0.0 among
     * them; a tenth NULL in each; with {@code select}, a random half of the rows live.
     */
    private static Batch randomBatch(Random rnd, int rows, boolean select) {
        LongVector k = new LongVector(DataType.INT64, rows);
        DoubleVector d = new DoubleVector(rows);
        for (int r = 0; r < rows; r++) {
            k.set(r, rnd.nextInt(40) - 20);
            d.set(r, rnd.nextInt(5) == 0 ? -0.0 : rnd.nextInt(3) * 0.5);
        }
        for (int r = 0; r < rows; r++) {
            if (rnd.nextInt(10) == 0) {
                k.setNull(r);
            }
            if (rnd.nextInt(10) == 0) {
                d.setNull(r);
            }
        }
        Batch batch = Batch.of(rows, k, d);
        if (!select) {
            return batch;
        }
        int[] selection = new int[rows];
        int n = 0;
        for (int r = 0; r < rows; r++) {
            if (rnd.nextBoolean()) {
                selection[n++] = r;
            }
        }
        return batch.withSelection(selection, n);
    }

    private static List<Integer> liveRows(Batch batch) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            rows.add(batch.row(i));
        }
        return rows;
    }

    /** The key of physical row {@code row}: its values, NULL as null and -0.0 as 0.0 (they are one group). */
    private static List<Object> key(Batch batch, int row) {
        List<Object> key = new ArrayList<>();
        key.add(batch.column(0).isNull(row) ? null : ((LongVector) batch.column(0)).get(row));
        double d = ((DoubleVector) batch.column(1)).get(row);
        key.add(batch.column(1).isNull(row) ? null : d == 0.0 ? 0.0 : d);
        return key;
    }

    private static List<Object> nullKey() {
        List<Object> key = new ArrayList<>();
        key.add(null);
        key.add(null);
        return key;
    }
}
