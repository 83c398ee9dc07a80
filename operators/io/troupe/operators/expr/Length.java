package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

/**
 * {@code length(s)}: characters (code points), counted as the bytes that do not continue a
 * UTF-8 sequence; a BLOB's bytes, as PostgreSQL's {@code length(bytea)}. INT64, as in DuckDB.
 *
 * <p>Immutable and threadsafe.
 */
final class Length implements Expression {

    private final Expression value;
    private final String text;

    private Length(Expression value, String text) {
        this.value = value;
        this.text = text;
    }

    static Expression bind(Expression value, String text) {
        if (value.type().id() != TypeId.VARCHAR && value.type().id() != TypeId.BLOB) {
            throw new ExpressionTypeException("length needs a VARCHAR or BLOB argument, got " + value.type() + " in "
                    + text);
        }
        return Functions.fold(new Length(value, text), value);
    }

    @Override
    public DataType type() {
        return DataType.INT64;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        StringVector v = (StringVector) value.evaluate(batch);
        byte[] d = v.data();
        int[] off = v.offsets();
        long[] o = new long[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        boolean bytes = v.type().id() == TypeId.BLOB;
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            o[r] = bytes ? off[r + 1] - off[r] : Utf8.count(d, off[r], off[r + 1]);
        }
        LongVector out = new LongVector(DataType.INT64, o);
        out.setValidity(Kernels.copy(v));
        return out;
    }
}
