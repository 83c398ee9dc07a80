package io.troupe.operators.expr;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.DateField;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

/**
 * {@code date_diff(unit, start, end)}: DuckDB's count of the unit's boundaries from {@code start} to {@code
 * end} (PostgreSQL has no such function), a BIGINT, negative when {@code end} is earlier: years, quarters,
 * months and days of the calendar ({@code date_diff('year', '2024-12-31', '2025-01-01')} is 1); decades,
 * centuries and millennia as the year's number divided by 10, 100 or 1000; ISO years; weeks as whole 7-day
 * spans between the days ({@code (end - start) / 7}, toward zero); hours, minutes, seconds and milliseconds as
 * the boundaries crossed, microseconds as the difference. dow, isodow and doy count days and epoch seconds,
 * as in DuckDB. Of a TIME, the units of a day and smaller only. A TIMESTAMP_TZ is counted in UTC (SQL
 * counts in the session's zone). NULL where either time is; a difference of microseconds past a BIGINT
 * fails.
 *
 * <p>Immutable and threadsafe.
 */
final class DateDiff implements Expression {

    /** The kernel of date_diff's signatures: (unit, T, T) for DATE, TIMESTAMP, TIMESTAMP_TZ and TIME. */
    static final Signature.Kernel KERNEL = (args, type, text) -> {
        DateField unit = unit(((LiteralExpression) args.get(0)).value(), args.get(1).type());
        return unit == null ? new LiteralExpression(null, type, text)
                : new DateDiff(unit, args.get(1), args.get(2), text);
    };

    private final DateField unit;
    private final Expression start;
    private final Expression end;
    private final String text;

    private DateDiff(DateField unit, Expression start, Expression end, String text) {
        this.unit = unit;
        this.start = start;
        this.end = end;
        this.text = text;
    }

    /**
     * The unit named {@code name} (null for NULL) as date_diff counts it between values of {@code type}: DOW,
     * ISODOW and DOY as DAY, EPOCH as SECOND.
     *
     * @throws ExpressionTypeException for an unknown unit, or a unit of dates between TIMEs, as DuckDB says it
     */
    static DateField unit(Object name, DataType type) {
        if (name == null) {
            return null;
        }
        DateField unit;
        try {
            unit = DateField.named((String) name);
        } catch (IllegalArgumentException e) {
            throw new ExpressionTypeException(e.getMessage());
        }
        unit = switch (unit) {
            case DOW, ISODOW, DOY -> DateField.DAY;
            case EPOCH -> DateField.SECOND;
            default -> unit;
        };
        if (type.id() == TypeId.TIME && !unit.ofTimeOfDay()) {
            throw new ExpressionTypeException("\"time\" units \"" + name + "\" not recognized");
        }
        return unit;
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
        ColumnVector a = start.evaluate(batch);
        ColumnVector b = end.evaluate(batch);
        long[] o = new long[batch.rowCount()];
        int n = batch.size();
        int[] sel = batch.selection();
        long[] valid = Kernels.and(a, b);
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (Kernels.isValid(valid, r)) {
                o[r] = difference(DateTimeFields.micros(a, r), DateTimeFields.micros(b, r));
            }
        }
        LongVector out = new LongVector(DataType.INT64, o);
        out.setValidity(valid);
        return out;
    }

    private long difference(long a, long b) {
        return switch (unit) {
            case MICROSECOND -> {
                try {
                    yield Math.subtractExact(b, a);
                } catch (ArithmeticException e) {
                    throw new QueryDataException(QueryDataException.Kind.OVERFLOW, "bigint out of range: "
                            + "the microseconds from " + a + " to " + b + " in " + text);
                }
            }
            case MILLISECOND -> boundaries(a, b, 1000);
            case SECOND -> boundaries(a, b, Timestamps.MICROS_PER_SECOND);
            case MINUTE -> boundaries(a, b, Timestamps.MICROS_PER_MINUTE);
            case HOUR -> boundaries(a, b, Timestamps.MICROS_PER_HOUR);
            case DAY -> (long) Timestamps.day(b) - Timestamps.day(a);
            case WEEK -> ((long) Timestamps.day(b) - Timestamps.day(a)) / 7;
            case ISOYEAR -> DateField.ISOYEAR.ofTimestamp(b) - DateField.ISOYEAR.ofTimestamp(a);
            default -> calendar(Timestamps.day(a), Timestamps.day(b));
        };
    }

    /** The multiples of {@code unit} crossed from {@code a} to {@code b}, each floored. */
    private static long boundaries(long a, long b, long unit) {
        return Math.floorDiv(b, unit) - Math.floorDiv(a, unit);
    }

    /** Months, quarters, years, decades, centuries and millennia between two days, DuckDB's way. */
    private long calendar(int a, int b) {
        long ya = Dates.year(a);
        long yb = Dates.year(b);
        long ma = ya * 12 + Dates.month(a) - 1;
        long mb = yb * 12 + Dates.month(b) - 1;
        return switch (unit) {
            case MONTH -> mb - ma;
            case QUARTER -> mb / 3 - ma / 3;
            case YEAR -> yb - ya;
            case DECADE -> yb / 10 - ya / 10;
            case CENTURY -> yb / 100 - ya / 100;
            default -> yb / 1000 - ya / 1000;
        };
    }
}
