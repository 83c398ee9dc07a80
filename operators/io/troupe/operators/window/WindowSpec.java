package io.troupe.operators.window;

import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.sort.OrderKey;

import java.util.ArrayList;
import java.util.List;

/**
 * What a window computes, over which rows: the PARTITION BY columns, the ORDER BY keys and the functions,
 * all bound to the columns of the rows the window takes in. Those are the window's input followed by any
 * key or argument that is not a plain column, computed by a projection before the window:
 *
 * <pre>
 *   row held: [ input 0 | ... | input d-1 | computed 0 | computed 1 | ... ]   output: [ input | one per function ]
 * </pre>
 *
 * <p>A window sorts each of its hash parts by the partition columns (ascending, NULLs first: any fixed
 * order puts a partition's rows together) and then the ORDER BY keys. Immutable and threadsafe.
 */
public final class WindowSpec {

    private final int inputColumns;
    private final int[] partitionColumns;
    /** The partition columns (ascending, NULLs first), then the ORDER BY keys. */
    private final List<OrderKey> sortKeys;
    private final List<WindowCallSpec> calls;
    private final String label;

    /**
     * @param inputColumns     the window's input columns, which its output starts with
     * @param partitionColumns the PARTITION BY columns (of the held rows)
     * @param orderKeys        the ORDER BY keys, each a {@link ColumnExpression} of the held rows
     * @param calls            the functions, one output column each
     * @param label            the plan node, named in errors
     */
    public WindowSpec(int inputColumns, int[] partitionColumns, List<OrderKey> orderKeys,
                      List<WindowCallSpec> calls, String label) {
        for (OrderKey k : orderKeys) {
            if (!(k.expression() instanceof ColumnExpression)) {
                throw new IllegalArgumentException("a window's ORDER BY key must be a column of the rows it holds, "
                        + "got " + k + " (" + label + ")");
            }
        }
        this.inputColumns = inputColumns;
        this.partitionColumns = partitionColumns.clone();
        List<OrderKey> keys = new ArrayList<>();
        for (int c : partitionColumns) {
            keys.add(new OrderKey(new ColumnExpression(c, null, "partition " + c), true, true));
        }
        keys.addAll(orderKeys);
        this.sortKeys = List.copyOf(keys);
        this.calls = List.copyOf(calls);
        this.label = label;
    }

    public int inputColumns() {
        return inputColumns;
    }

    /** Whether rows are split by PARTITION BY keys (else the whole input is one partition). */
    public boolean partitioned() {
        return partitionColumns.length > 0;
    }

    int[] partitionColumns() {
        return partitionColumns.clone();
    }

    /** The sort of a part: the partition columns, then the ORDER BY keys; empty when there are neither. */
    List<OrderKey> sortKeys() {
        return sortKeys;
    }

    /** The column of sort key {@code k} in the held rows. */
    int sortColumn(int k) {
        return ((ColumnExpression) sortKeys.get(k).expression()).index();
    }

    /** The functions, in output order. */
    public List<WindowCallSpec> calls() {
        return calls;
    }

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
