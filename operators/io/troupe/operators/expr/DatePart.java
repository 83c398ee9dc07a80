package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.TypeId;

/**
 * {@code year(d)}, {@code month(d)}, {@code day(d)} of a DATE, as INT32, computed on the day
 * number by {@link Dates}' civil-calendar arithmetic (no allocation).
 *
 * <p>Immutable and threadsafe.
 */
final class DatePart implements Expression {

    private final Function part;
    private final Expression value;
    private final String text;

    private DatePart(Function part, Expression value, String text) {
        this.part = part;
        this.value = value;
        this.text = text;
    }

    static Expression bind(Function part, Expression value, String text) {
        if (value.type().id() != TypeId.DATE) {
            throw new ExpressionTypeException(part.symbol() + " needs a DATE argument, got " + value.type() + " in " + text);
        }
        return Functions.fold(new DatePart(part, value, text), value);
    }

    @Override
    public DataType type() {
        return DataType.INT32;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        IntVector v = (IntVector) value.evaluate(batch);
        int[] a = v.values();
        int[] o = new int[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        switch (part) {
            case EXTRACT_YEAR -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = Dates.year(a[r]);
                }
            }
            case EXTRACT_MONTH -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = Dates.month(a[r]);
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    int r = sel == null ? i : sel[i];
                    o[r] = Dates.dayOfMonth(a[r]);
                }
            }
        }
        IntVector out = new IntVector(DataType.INT32, o);
        out.setValidity(Kernels.copy(v));
        return out;
    }
}
