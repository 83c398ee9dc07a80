package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.DateField;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

import java.time.ZoneId;
import java.time.zone.ZoneRules;

/**
 * {@code date_trunc(unit, t)}: {@code t} with every field below {@code unit} at its start, as PostgreSQL
 * truncates: microseconds, milliseconds, second, minute, hour, day, week (the ISO week's Monday), month,
 * quarter, year, decade, century and millennium, the last two counted from year 1 (the 21st century starts
 * on 2001-01-01; DuckDB starts it on 2000-01-01). A DATE gives the TIMESTAMP of its truncated midnight. A
 * TIMESTAMP_TZ is truncated in a zone, PostgreSQL's {@code date_trunc(unit, t, zone)} (UTC without one; SQL
 * passes the session's): its local time there is truncated, to an hour or less keeping the instant's own offset
 * (01:30 of the second pass through a clock put back truncates to the 01:00 of that pass), to a day or more
 * read back in the zone. The unit and zone are constants; NULL where {@code t} is. Primitives only, no
 * allocation per row but a zone's rules consulted.
 *
 * <p>Immutable and threadsafe.
 */
final class DateTrunc implements Expression {

    /** The kernel of date_trunc's signatures: (unit, DATE | TIMESTAMP | TIMESTAMP_TZ) and (unit, TIMESTAMP_TZ, zone). */
    static final Signature.Kernel KERNEL = (args, type, text) -> {
        DateField unit = unit(((LiteralExpression) args.get(0)).value(), args.get(1).type());
        ZoneId zone = DateTimeFunctions.zoneArgument(args, 2);
        return unit == null || zone == null ? new LiteralExpression(null, type, text)
                : new DateTrunc(unit, args.get(1), zone.getRules(), type, text);
    };

    private final DateField unit;
    private final Expression value;
    /** The zone a TIMESTAMP_TZ is truncated in. */
    private final ZoneRules zone;
    private final DataType type;
    private final String text;

    private DateTrunc(DateField unit, Expression value, ZoneRules zone, DataType type, String text) {
        this.unit = unit;
        this.value = value;
        this.zone = zone;
        this.type = type;
        this.text = text;
    }

    /**
     * The unit named {@code name} (null for NULL) that a value of {@code type} truncates to.
     *
     * @throws ExpressionTypeException for an unknown unit or one that is no span of time (dow, epoch ...), in
     *         PostgreSQL's words
     */
    static DateField unit(Object name, DataType type) {
        if (name == null) {
            return null;
        }
        String typeName = type.id() == TypeId.TIMESTAMP_TZ ? "timestamp with time zone" : "timestamp without time zone";
        DateField unit;
        try {
            unit = DateField.named((String) name);
        } catch (IllegalArgumentException e) {
            throw new ExpressionTypeException(e.getMessage() + " for type " + typeName);
        }
        return switch (unit) {
            case MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, DECADE, CENTURY,
                    MILLENNIUM -> unit;
            default -> throw new ExpressionTypeException("unit \"" + name + "\" not supported for type " + typeName);
        };
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
        ColumnVector v = value.evaluate(batch);
        long[] o = new long[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        if (v instanceof IntVector dates) {
            int[] days = dates.values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = truncate(unit, Timestamps.ofDay(days[r]));
            }
        } else if (type.id() == TypeId.TIMESTAMP_TZ) {
            long[] micros = ((LongVector) v).values();
            long[] valid = v.validity();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = Kernels.isValid(valid, r) ? truncateInstant(micros[r]) : 0;
            }
        } else {
            long[] micros = ((LongVector) v).values();
            for (int i = 0; i < n; i++) {
                int r = sel == null ? i : sel[i];
                o[r] = truncate(unit, micros[r]);
            }
        }
        LongVector out = new LongVector(type, o);
        out.setValidity(Kernels.copy(v));
        return out;
    }

    /** An instant truncated in the zone: to an hour or less in its own offset, to a day or more read back there. */
    private long truncateInstant(long instant) {
        long offset = Timestamps.offsetSeconds(zone, instant) * Timestamps.MICROS_PER_SECOND;
        long local = truncate(unit, instant + offset);
        return unit.ofTimeOfDay() ? local - offset : Timestamps.fromLocal(local, zone);
    }

    /** A timestamp's microseconds truncated to {@code unit}. */
    static long truncate(DateField unit, long micros) {
        return switch (unit) {
            case MICROSECOND -> micros;
            case MILLISECOND -> floor(micros, 1000);
            case SECOND -> floor(micros, Timestamps.MICROS_PER_SECOND);
            case MINUTE -> floor(micros, Timestamps.MICROS_PER_MINUTE);
            case HOUR -> floor(micros, Timestamps.MICROS_PER_HOUR);
            case DAY -> floor(micros, Timestamps.MICROS_PER_DAY);
            case WEEK -> {
                int day = Timestamps.day(micros);
                yield Timestamps.ofDay(day - (int) DateField.ISODOW.of(day, 0) + 1);
            }
            default -> Timestamps.ofDay(firstDay(unit, Timestamps.day(micros)));
        };
    }

    private static long floor(long micros, long unit) {
        return Math.floorDiv(micros, unit) * unit;
    }

    /**
     * The first day of the month, quarter, year, decade, century or millennium of {@code day}, with
     * PostgreSQL's years before 1: the year numbers are astronomical (0 is 1 BC), and a decade, century or
     * millennium BC runs down from its first year as PostgreSQL's timestamp_trunc counts it.
     */
    private static int firstDay(DateField unit, int day) {
        int year = Dates.year(day);
        int month = Dates.month(day);
        return switch (unit) {
            case MONTH -> Dates.days(year, month, 1);
            case QUARTER -> Dates.days(year, (month - 1) / 3 * 3 + 1, 1);
            case YEAR -> Dates.days(year, 1, 1);
            case DECADE -> Dates.days(year > 0 ? year / 10 * 10 : -((8 - (year - 1)) / 10) * 10, 1, 1);
            case CENTURY -> Dates.days(year > 0 ? (year + 99) / 100 * 100 - 99 : -((99 - (year - 1)) / 100) * 100 + 1,
                    1, 1);
            default -> Dates.days(year > 0 ? (year + 999) / 1000 * 1000 - 999
                    : -((999 - (year - 1)) / 1000) * 1000 + 1, 1, 1);
        };
    }
}
