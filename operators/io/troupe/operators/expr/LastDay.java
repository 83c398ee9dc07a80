package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Timestamps;

/**
 * DuckDB's {@code last_day(t)}: the last day of the month of a DATE, TIMESTAMP or TIMESTAMP_TZ (in UTC; SQL
 * takes it in the session's zone), a DATE. NULL where {@code t} is. Primitives only.
 *
 * <p>Immutable and threadsafe.
 */
final class LastDay implements Expression {

    static final Signature.Kernel KERNEL = (args, type, text) -> new LastDay(args.get(0), text);

    private final Expression value;
    private final String text;

    private LastDay(Expression value, String text) {
        this.value = value;
        this.text = text;
    }

    @Override
    public DataType type() {
        return DataType.DATE;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector v = value.evaluate(batch);
        int[] o = new int[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            int day = Timestamps.day(DateTimeFields.micros(v, r));
            int year = Dates.year(day);
            int month = Dates.month(day);
            o[r] = Dates.days(year, month, Dates.daysInMonth(year, month));
        }
        IntVector out = new IntVector(DataType.DATE, o);
        out.setValidity(Kernels.copy(v));
        return out;
    }
}
