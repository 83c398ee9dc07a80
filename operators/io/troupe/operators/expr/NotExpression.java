package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.BooleanVector;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

/**
 * NOT over a BOOLEAN; NOT NULL is NULL.
 *
 * <p>Immutable and threadsafe.
 */
final class NotExpression implements Expression {

    private final Expression input;
    private final String text;

    private NotExpression(Expression input, String text) {
        this.input = input;
        this.text = text;
    }

    static Expression bind(Expression input, String text) {
        if (!input.type().equals(DataType.BOOLEAN)) {
            throw new ExpressionTypeException("NOT needs a BOOLEAN operand, got " + input.type() + " in " + text);
        }
        return Functions.fold(new NotExpression(input, text), input);
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
        BooleanVector in = (BooleanVector) input.evaluate(batch);
        byte[] a = in.values();
        byte[] o = new byte[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = (byte) (a[r] ^ 1);
        }
        BooleanVector out = new BooleanVector(o);
        out.setValidity(Kernels.copy(in));
        return out;
    }
}
