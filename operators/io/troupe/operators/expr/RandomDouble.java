package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.types.DataType;

import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code random()}: a DOUBLE drawn uniformly from [0, 1) at each live row, a new one at every row
 * and every evaluation, as PostgreSQL's and DuckDB's. Its function is volatile ({@link
 * ScalarFunction#asVolatile}), so a call is never folded into a constant. Each worker thread draws
 * from its own {@link ThreadLocalRandom}, seeded apart from the others': no state is shared, so
 * workers neither contend nor repeat each other's sequence.
 *
 * <p>Immutable and threadsafe.
 */
final class RandomDouble implements Expression {

    /** The kernel of {@code random()}. */
    static final Signature.Kernel KERNEL = (args, type, text) -> new RandomDouble(text);

    private final String text;

    private RandomDouble(String text) {
        this.text = text;
    }

    @Override
    public DataType type() {
        return DataType.FLOAT64;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        double[] o = new double[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        for (int i = 0; i < n; i++) {
            o[sel == null ? i : sel[i]] = random.nextDouble();
        }
        return new DoubleVector(o);
    }
}
