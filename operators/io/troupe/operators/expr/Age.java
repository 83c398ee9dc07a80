package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;

/**
 * {@code age(a, b)}: {@code a - b} as PostgreSQL's age counts it, in years, months and days of the calendar and
 * the time left, an INTERVAL ({@code age('2001-04-10', '1957-06-13')} is 43 years 9 months 27 days, where {@code
 * a - b} is 16,007 days). Field by field, the later time's fields minus the earlier's, each negative field borrowed
 * from the next larger (a day from the month before the earlier time's month ends: its days in that month), and
 * the whole negated when {@code a} is the earlier. DATEs count from midnight; a TIMESTAMP_TZ's fields are taken
 * in UTC (SQL takes them in the session's zone). NULL where either is.
 *
 * <p>Immutable and threadsafe.
 */
final class Age implements Expression {

    private final Expression later;
    private final Expression earlier;
    private final String text;

    Age(Expression later, Expression earlier, String text) {
        this.later = later;
        this.earlier = earlier;
        this.text = text;
    }

    @Override
    public DataType type() {
        return DataType.INTERVAL;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        ColumnVector a = later.evaluate(batch);
        ColumnVector b = earlier.evaluate(batch);
        long[] valid = Kernels.and(a, b);
        Int128Vector out = new Int128Vector(DataType.INTERVAL, batch.rowCount());
        int n = batch.size();
        int[] sel = batch.selection();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (Kernels.isValid(valid, r)) {
                Interval age = of(DateTimeFields.micros(a, r), DateTimeFields.micros(b, r));
                out.set(r, age.high(), age.micros());
            }
        }
        out.setValidity(valid);
        return out;
    }

    /** PostgreSQL's age of two local times, in microseconds. */
    static Interval of(long a, long b) {
        boolean negative = a < b;
        long hi = negative ? b : a;
        long lo = negative ? a : b;
        int hiDay = Timestamps.day(hi);
        int loDay = Timestamps.day(lo);
        long micros = Timestamps.timeOfDay(hi) - Timestamps.timeOfDay(lo);
        int days = Dates.dayOfMonth(hiDay) - Dates.dayOfMonth(loDay);
        long months = 12L * (Dates.year(hiDay) - Dates.year(loDay)) + Dates.month(hiDay) - Dates.month(loDay);
        if (micros < 0) {
            micros += Timestamps.MICROS_PER_DAY;
            days--;
        }
        if (days < 0) {
            // PostgreSQL borrows the days of the earlier time's month (its dt2 when a is the later, its dt1 else).
            days += Dates.daysInMonth(Dates.year(loDay), Dates.month(loDay));
            months--;
        }
        Interval age = new Interval(Math.toIntExact(months), days, micros);
        return negative ? age.negate() : age;
    }
}
