package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;

import java.util.List;

/**
 * What a sort sorts by, and how the rows it holds are laid out: the input's data columns first,
 * then one column per key that is not a plain column reference (computed once, when a batch
 * arrives, and carried with its row). A key that is a column reference reads the data column.
 *
 * <pre>
 *   buffered row: [ data 0 | data 1 | ... | data d-1 | computed key 0 | computed key 1 | ... ]
 *   keyColumn[k]: the index of key k's column in that layout
 * </pre>
 *
 * <p>Immutable and threadsafe; shared by every worker of a sort, its merge and its source.
 */
public final class SortSpec {

    private final OrderKey[] keys;
    private final int dataColumns;
    private final int[] keyColumn;
    private final Expression[] computed;
    private final String label;

    /**
     * @param keys        the ORDER BY keys, most significant first (at least one)
     * @param dataColumns columns of the sort's input, which are also its output
     * @param label       the plan node, named in errors
     */
    public SortSpec(List<OrderKey> keys, int dataColumns, String label) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a sort needs at least one key (" + label + ")");
        }
        this.keys = keys.toArray(new OrderKey[0]);
        this.dataColumns = dataColumns;
        this.label = label;
        this.keyColumn = new int[this.keys.length];
        int computedCount = 0;
        for (int k = 0; k < this.keys.length; k++) {
            if (!(this.keys[k].expression() instanceof ColumnExpression)) {
                computedCount++;
            }
        }
        this.computed = new Expression[computedCount];
        int next = 0;
        for (int k = 0; k < this.keys.length; k++) {
            Expression e = this.keys[k].expression();
            if (e instanceof ColumnExpression c) {
                keyColumn[k] = c.index();
            } else {
                computed[next] = e;
                keyColumn[k] = dataColumns + next++;
            }
        }
    }

    public int keyCount() {
        return keys.length;
    }

    public OrderKey key(int k) {
        return keys[k];
    }

    /** The ORDER BY keys, most significant first. */
    public List<OrderKey> keys() {
        return List.of(keys);
    }

    /** Columns of the input and of the output. */
    public int dataColumns() {
        return dataColumns;
    }

    /** Columns a buffered row has: the data columns plus the computed keys. */
    public int bufferedColumns() {
        return dataColumns + computed.length;
    }

    /** The plan node this sort runs for, as errors name it. */
    public String label() {
        return label;
    }

    /** {@code dense} (no selection) with the computed key columns appended: the buffered layout. */
    public Batch withKeys(Batch dense) {
        if (computed.length == 0) {
            return dense;
        }
        ColumnVector[] columns = new ColumnVector[dataColumns + computed.length];
        for (int c = 0; c < dataColumns; c++) {
            columns[c] = dense.column(c);
        }
        for (int i = 0; i < computed.length; i++) {
            columns[dataColumns + i] = computed[i].evaluate(dense);
        }
        return dense.withColumns(columns);
    }

    /** Normalises the keys of rows {@code 0..rows} of columns in the buffered layout. */
    public NormalisedKeys normalise(ColumnVector[] buffered, int rows) {
        ColumnVector[] vectors = new ColumnVector[keys.length];
        for (int k = 0; k < keys.length; k++) {
            vectors[k] = buffered[keyColumn[k]];
        }
        return NormalisedKeys.of(vectors, keys, rows);
    }

    /** Normalises the keys of a dense batch in the buffered layout. */
    public NormalisedKeys normalise(Batch buffered) {
        ColumnVector[] columns = new ColumnVector[buffered.columnCount()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = buffered.column(c);
        }
        return normalise(columns, buffered.size());
    }

    @Override
    public String toString() {
        return label;
    }
}
