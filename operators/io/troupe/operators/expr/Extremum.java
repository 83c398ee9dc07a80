package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

/**
 * {@code greatest(a, b, ...)} and {@code least(a, b, ...)}: the largest (smallest) argument that is
 * not NULL, NULL only when all are, as PostgreSQL and DuckDB do. The arguments share one type
 * (numbers promoted, as COALESCE's); they compare as {@link Comparison} does, except that NaN is
 * the largest FLOAT64 (PostgreSQL's and DuckDB's order; IEEE's comparisons leave it unordered).
 * {@link Merge} assembles the output from the winning argument of each row.
 *
 * <p>Immutable and threadsafe.
 */
final class Extremum implements Expression {

    /** Compares argument {@code a}'s value with argument {@code b}'s at one row. */
    @FunctionalInterface
    private interface RowOrder {
        int compare(int a, int b, int row);
    }

    private final Expression[] args;
    private final boolean greatest;
    private final DataType type;
    private final String text;

    private Extremum(Expression[] args, boolean greatest, DataType type, String text) {
        this.args = args;
        this.greatest = greatest;
        this.type = type;
        this.text = text;
    }

    static Signature.Kernel kernel(boolean greatest) {
        return (args, type, text) -> args.size() == 1 ? args.get(0)
                : new Extremum(args.toArray(new Expression[0]), greatest, type, text);
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector[] parts = new ColumnVector[args.length];
        for (int k = 0; k < args.length; k++) {
            parts[k] = args[k].evaluate(batch);
        }
        RowOrder order = order(parts);
        int[] which = new int[batch.rowCount()];
        Arrays.fill(which, -1);
        int n = batch.size();
        int[] sel = batch.selection();
        for (int k = 0; k < parts.length; k++) {
            long[] valid = parts[k].validity();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (Kernels.isValid(valid, r)) {
                    int best = which[r];
                    if (best < 0) {
                        which[r] = k;
                    } else {
                        int c = order.compare(k, best, r);
                        if (greatest ? c > 0 : c < 0) {
                            which[r] = k;
                        }
                    }
                }
            }
        }
        return Merge.assemble(type, batch, parts, which);
    }

    private static RowOrder order(ColumnVector[] parts) {
        ColumnVector first = parts[0];
        if (first instanceof IntVector) {
            int[][] v = new int[parts.length][];
            for (int k = 0; k < parts.length; k++) {
                v[k] = ((IntVector) parts[k]).values();
            }
            return (a, b, r) -> Integer.compare(v[a][r], v[b][r]);
        }
        if (first instanceof LongVector) {
            long[][] v = new long[parts.length][];
            for (int k = 0; k < parts.length; k++) {
                v[k] = ((LongVector) parts[k]).values();
            }
            return (a, b, r) -> Long.compare(v[a][r], v[b][r]);
        }
        if (first instanceof DoubleVector) {
            double[][] v = new double[parts.length][];
            for (int k = 0; k < parts.length; k++) {
                v[k] = ((DoubleVector) parts[k]).values();
            }
            // Double.compare puts NaN above everything, and -0.0 below 0.0.
            return (a, b, r) -> Double.compare(v[a][r], v[b][r]);
        }
        if (first instanceof BooleanVector) {
            byte[][] v = new byte[parts.length][];
            for (int k = 0; k < parts.length; k++) {
                v[k] = ((BooleanVector) parts[k]).values();
            }
            return (a, b, r) -> Byte.compare(v[a][r], v[b][r]);
        }
        if (first instanceof Int128Vector) {
            return (a, b, r) -> ((Int128Vector) parts[a]).compare(r, (Int128Vector) parts[b], r);
        }
        return (a, b, r) -> ((StringVector) parts[a]).compare(r, (StringVector) parts[b], r);
    }
}
