package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Decimals;

/**
 * {@code floor(x)} and {@code ceil(x)} of a DECIMAL(p,s): DECIMAL(p,0), as DuckDB types them. The
 * result never needs more digits than {@code x} (its integer part grows by at most one digit,
 * which the scale's digits make room for), so it cannot overflow. DECIMAL(p,0) is its own floor
 * and ceiling.
 *
 * <p>Immutable and threadsafe.
 */
final class DecimalFloorCeil implements Expression {

    private final Expression value;
    private final boolean ceiling;
    private final long unit;
    private final DataType type;
    private final String text;

    private DecimalFloorCeil(Expression value, boolean ceiling, DataType type, String text) {
        this.value = value;
        this.ceiling = ceiling;
        this.unit = Decimals.pow10(value.type().scale());
        this.type = type;
        this.text = text;
    }

    /** The result type for a DECIMAL {@code value}. */
    static DataType type(DataType value) {
        return DataType.decimal(value.precision(), 0);
    }

    static Signature.Kernel kernel(boolean ceiling) {
        return (args, type, text) -> args.get(0).type().scale() == 0 ? args.get(0)
                : new DecimalFloorCeil(args.get(0), ceiling, type, text);
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
        LongVector in = (LongVector) value.evaluate(batch);
        long[] a = in.values();
        long[] o = new long[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        if (ceiling) {
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = -Math.floorDiv(-a[r], unit);
            }
        } else {
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = Math.floorDiv(a[r], unit);
            }
        }
        LongVector out = new LongVector(type, o);
        out.setValidity(Kernels.copy(in));
        return out;
    }
}
