package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.Int128Vector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

import java.time.ZoneId;
import java.time.zone.ZoneRules;

/**
 * A point in time moved by an INTERVAL, as PostgreSQL's {@code timestamp_pl_interval}: the months first (the day
 * clamped to the month's last: 2024-01-31 plus a month is 2024-02-29), then the days, then the microseconds. A
 * DATE moves from its midnight and gives a TIMESTAMP (for {@code add_interval}, a DATE, by months and days only: an
 * interval with a time of day fails, naming it); a TIME takes only the microseconds, around the clock; a
 * TIMESTAMP_TZ with a zone moves its months and days in that zone's local time (a day across a change of clocks
 * is 23 or 25 hours) and its microseconds as elapsed time, in UTC without one. Subtraction adds the negated
 * interval. NULL where either operand is; a time moved past its type's range fails, naming the expression.
 *
 * <p>Immutable and threadsafe.
 */
final class IntervalShift implements Expression {

    private final Expression time;
    private final Expression interval;
    private final boolean subtract;
    private final ZoneRules zone;
    /** A DATE moved stays a DATE (add_interval's), where {@code +} gives its TIMESTAMP. */
    private final boolean keepsDate;
    private final DataType type;
    private final String text;

    private IntervalShift(Expression time, Expression interval, boolean subtract, ZoneRules zone, boolean keepsDate,
                          String text) {
        this.time = time;
        this.interval = interval;
        this.subtract = subtract;
        this.zone = zone;
        this.keepsDate = keepsDate;
        this.type = time.type().id() == TypeId.DATE && !keepsDate ? DataType.TIMESTAMP : time.type();
        this.text = text;
    }

    /** {@code time ± interval}, a DATE's a TIMESTAMP; {@code zone} (null: UTC) for a TIMESTAMP_TZ's months and days. */
    static Expression of(Expression time, Expression interval, boolean subtract, ZoneId zone, String text) {
        return Functions.fold(new IntervalShift(time, interval, subtract, zone == null ? null : zone.getRules(),
                false, text), time, interval);
    }

    /** {@code add_interval(t, i[, zone])}: as {@link #of}, but a DATE stays a DATE. */
    static Expression keepingDates(Expression time, Expression interval, ZoneId zone, String text) {
        return Functions.fold(new IntervalShift(time, interval, false, zone == null ? null : zone.getRules(),
                true, text), time, interval);
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
        ColumnVector t = time.evaluate(batch);
        Int128Vector by = (Int128Vector) interval.evaluate(batch);
        int n = batch.size();
        int[] sel = batch.selection();
        if (keepsDate && t instanceof IntVector days) {
            return dates(days, by, batch);
        }
        long[] o = new long[batch.rowCount()];
        TypeId id = time.type().id();
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (t.isNull(r) || by.isNull(r)) {
                continue;
            }
            Interval v = Interval.of(by.high(r), by.low(r));
            if (subtract) {
                v = v.negate();
            }
            try {
                o[r] = switch (id) {
                    case DATE -> v.addTo(Timestamps.ofDay(((IntVector) t).values()[r]));
                    case TIME -> Math.floorMod(((LongVector) t).values()[r]
                            + v.micros() % Timestamps.MICROS_PER_DAY, Timestamps.MICROS_PER_DAY);
                    case TIMESTAMP_TZ -> zone == null ? v.addTo(((LongVector) t).values()[r])
                            : inZone(((LongVector) t).values()[r], v);
                    default -> v.addTo(((LongVector) t).values()[r]);
                };
            } catch (ArithmeticException e) {
                throw new QueryDataException(QueryDataException.Kind.OVERFLOW, type.sqlName().toLowerCase()
                        + " out of range in " + text);
            }
        }
        LongVector out = new LongVector(type, o);
        out.setValidity(Kernels.and(t, by));
        return out;
    }

    /** DATEs moved by intervals of months and days, into DATEs. */
    private ColumnVector dates(IntVector days, Int128Vector by, Batch batch) {
        int n = batch.size();
        int[] sel = batch.selection();
        int[] o = new int[batch.rowCount()];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (days.isNull(r) || by.isNull(r)) {
                continue;
            }
            Interval v = Interval.of(by.high(r), by.low(r));
            if (v.micros() != 0) {
                throw new QueryDataException(QueryDataException.Kind.INVALID_ARGUMENT, "an interval with a time of "
                        + "day (" + v + ") would move a DATE to a TIMESTAMP in " + text + ", whose type is DATE: "
                        + "cast the DATE to TIMESTAMP first");
            }
            try {
                o[r] = Timestamps.day(v.addTo(Timestamps.ofDay(days.values()[r])));
            } catch (ArithmeticException e) {
                throw new QueryDataException(QueryDataException.Kind.OVERFLOW, "date out of range in " + text);
            }
        }
        IntVector out = new IntVector(DataType.DATE, o);
        out.setValidity(Kernels.and(days, by));
        return out;
    }

    /** The instant moved by months, then days, in local time, each resolved in the zone, then by microseconds. */
    private long inZone(long instant, Interval v) {
        long t = instant;
        if (v.months() != 0) {
            t = Timestamps.fromLocal(Interval.ofMonths(v.months()).addTo(Timestamps.toLocal(t, zone)), zone);
        }
        if (v.days() != 0) {
            t = Timestamps.fromLocal(Interval.ofDays(v.days()).addTo(Timestamps.toLocal(t, zone)), zone);
        }
        return Math.addExact(t, v.micros());
    }
}
