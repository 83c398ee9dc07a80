package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.TypeId;

/**
 * {@code add_days(d, n)} and {@code add_months(d, n)}: a DATE moved by a number of days or months, what
 * SQL's {@code d + INTERVAL 'n' DAY} and {@code d - INTERVAL 'n' MONTH} lower to. Days add to the day
 * number; months move the civil date and clamp its day to the month's last ({@link Dates}' arithmetic,
 * no allocation). NULL where either argument is; a date moved past the range of a day number fails,
 * naming the expression.
 *
 * <p>Immutable and threadsafe.
 */
final class DateShift implements Expression {

    private final boolean months;
    private final Expression date;
    private final Expression count;
    private final String text;

    private DateShift(boolean months, Expression date, Expression count, String text) {
        this.months = months;
        this.date = date;
        this.count = count;
        this.text = text;
    }

    static Expression bind(Function function, Expression date, Expression count, String text) {
        if (date.type().id() != TypeId.DATE) {
            throw new ExpressionTypeException(function.symbol() + " needs a DATE first argument, got " + date.type()
                    + " in " + text);
        }
        if (count.type().id() != TypeId.INT32 && count.type().id() != TypeId.INT64) {
            throw new ExpressionTypeException(function.symbol() + " needs an INTEGER or BIGINT count, got "
                    + count.type() + " in " + text);
        }
        return Functions.fold(new DateShift(function == Function.ADD_MONTHS, date, count, text), date, count);
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
        IntVector d = (IntVector) date.evaluate(batch);
        ColumnVector c = count.evaluate(batch);
        int[] days = d.values();
        int[] o = new int[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!d.isNull(r) && !c.isNull(r)) {
                long by = c instanceof IntVector iv ? iv.values()[r] : ((LongVector) c).values()[r];
                o[r] = months ? plusMonths(days[r], by) : plusDays(days[r], by);
            }
        }
        IntVector out = new IntVector(DataType.DATE, o);
        out.setValidity(Kernels.and(d, c));
        return out;
    }

    private int plusDays(int day, long by) {
        long shifted = day + by;
        if (shifted != (int) shifted) {
            throw outOfRange(day, by);
        }
        return (int) shifted;
    }

    private int plusMonths(int day, long by) {
        long month = Dates.year(day) * 12L + Dates.month(day) - 1 + by;
        long year = Math.floorDiv(month, 12);
        if (year != (int) year || Math.abs(year) > 5_000_000) {
            throw outOfRange(day, by);
        }
        int m = (int) Math.floorMod(month, 12) + 1;
        int last = Dates.days((int) (m == 12 ? year + 1 : year), m == 12 ? 1 : m + 1, 1)
                - Dates.days((int) year, m, 1);
        return Dates.days((int) year, m, Math.min(Dates.dayOfMonth(day), last));
    }

    private QueryDataException outOfRange(int day, long by) {
        return new QueryDataException(QueryDataException.Kind.OVERFLOW, "overflow in " + text + ": "
                + Dates.toLocalDate(day) + " moved by " + by + (months ? " months" : " days")
                + " leaves the range of dates");
    }
}
