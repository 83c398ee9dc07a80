package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

/**
 * IS NULL and IS NOT NULL: read the validity bitmap; never NULL themselves.
 *
 * <p>Immutable and threadsafe.
 */
final class NullTest implements Expression {

    private final Expression input;
    private final boolean isNull;
    private final String text;

    NullTest(Expression input, boolean isNull, String text) {
        this.input = input;
        this.isNull = isNull;
        this.text = text;
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector in = input.evaluate(batch);
        long[] valid = in.validity();
        byte[] o = new byte[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        byte whenValid = (byte) (isNull ? 0 : 1);
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = Kernels.isValid(valid, r) ? whenValid : (byte) (1 - whenValid);
        }
        return new BooleanVector(o);
    }
}
