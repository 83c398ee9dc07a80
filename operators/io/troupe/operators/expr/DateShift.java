package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

/**
 * {@code add_days(t, n)}, {@code add_months(t, n)} and {@code add_micros(t, n)}: a point in time moved by a
 * number of days, months or microseconds, what SQL's {@code t + INTERVAL 'n' DAY} and its kin lower to. Days
 * add to the day number (a TIMESTAMP keeps its time of day); months move the civil date and clamp its day to
 * the month's last; microseconds add to a TIMESTAMP or TIMESTAMP_TZ, and to a TIME around the clock, as
 * PostgreSQL's {@code time + interval} wraps. A TIMESTAMP_TZ moves by days and months in UTC: SQL moves it in
 * the session's zone, converting to local time and back. {@link Dates}' arithmetic, no allocation. NULL where
 * either argument is; a value moved past its type's range fails, naming the expression.
 *
 * <p>Immutable and threadsafe.
 */
final class DateShift implements Expression {

    private final Function unit;
    private final Expression value;
    private final Expression count;
    private final String text;

    private DateShift(Function unit, Expression value, Expression count, String text) {
        this.unit = unit;
        this.value = value;
        this.count = count;
        this.text = text;
    }

    static Expression bind(Function function, Expression value, Expression count, String text) {
        TypeId t = value.type().id();
        boolean fits = function == Function.ADD_MICROS
                ? t == TypeId.TIMESTAMP || t == TypeId.TIMESTAMP_TZ || t == TypeId.TIME
                : t == TypeId.DATE || t == TypeId.TIMESTAMP || t == TypeId.TIMESTAMP_TZ;
        if (!fits) {
            throw new ExpressionTypeException(function.symbol() + " needs a "
                    + (function == Function.ADD_MICROS ? "TIMESTAMP or TIME" : "DATE or TIMESTAMP")
                    + " first argument, got " + value.type().sqlName() + " in " + text);
        }
        if (!TypeRules.isInteger(count.type())) {
            throw new ExpressionTypeException(function.symbol() + " needs an INTEGER or BIGINT count, got "
                    + count.type().sqlName() + " in " + text);
        }
        return Functions.fold(new DateShift(function, value, count, text), value, count);
    }

    @Override
    public DataType type() {
        return value.type();
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector v = value.evaluate(batch);
        ColumnVector c = count.evaluate(batch);
        int n = batch.size();
        int[] sel = batch.selection();
        ColumnVector out;
        if (v instanceof IntVector d) {
            int[] days = d.values();
            int[] o = new int[batch.rowCount()];
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (!d.isNull(r) && !c.isNull(r)) {
                    long by = by(c, r);
                    o[r] = unit == Function.ADD_MONTHS ? plusMonths(days[r], by) : plusDays(days[r], by);
                }
            }
            out = new IntVector(DataType.DATE, o);
        } else {
            long[] micros = ((LongVector) v).values();
            long[] o = new long[batch.rowCount()];
            boolean time = v.type().id() == TypeId.TIME;
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                if (!v.isNull(r) && !c.isNull(r)) {
                    o[r] = time ? Math.floorMod(micros[r] + Math.floorMod(by(c, r), Timestamps.MICROS_PER_DAY),
                            Timestamps.MICROS_PER_DAY) : shift(micros[r], by(c, r));
                }
            }
            out = new LongVector(v.type(), o);
        }
        out.setValidity(Kernels.and(v, c));
        return out;
    }

    private static long by(ColumnVector c, int r) {
        return c instanceof IntVector iv ? iv.values()[r] : ((LongVector) c).values()[r];
    }

    /** A timestamp's microseconds moved by {@code by} of this shift's unit. */
    private long shift(long micros, long by) {
        try {
            return switch (unit) {
                case ADD_MICROS -> Math.addExact(micros, by);
                case ADD_DAYS -> Math.addExact(micros, Math.multiplyExact(by, Timestamps.MICROS_PER_DAY));
                default -> Timestamps.ofDay(plusMonths(Timestamps.day(micros), by)) + Timestamps.timeOfDay(micros);
            };
        } catch (ArithmeticException e) {
            throw new QueryDataException(QueryDataException.Kind.OVERFLOW, "timestamp out of range in " + text);
        }
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
        return Dates.days((int) year, m, Math.min(Dates.dayOfMonth(day), Dates.daysInMonth((int) year, m)));
    }

    private QueryDataException outOfRange(int day, long by) {
        return new QueryDataException(QueryDataException.Kind.OVERFLOW, "overflow in " + text + ": "
                + Dates.toLocalDate(day) + " moved by " + by + (unit == Function.ADD_MONTHS ? " months" : " days")
                + " leaves the range of dates");
    }
}
