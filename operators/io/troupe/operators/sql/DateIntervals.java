package io.troupe.operators.sql;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.time.ZoneId;
import java.util.Set;
import java.util.function.Function;

/**
 * A DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE or TIME plus or minus an interval literal, as {@code add_months},
 * {@code add_days} and {@code add_micros}: {@code l_shipdate + INTERVAL '1' DAY}, {@code ts - INTERVAL '90' MINUTE}.
 * Calcite holds a year-month interval as months and a day-time one as milliseconds; a constant's arithmetic folds
 * to a literal when the plan binds. Months clamp the day to the month's last ({@code DATE '2024-01-31' + INTERVAL
 * '1' MONTH} is 2024-02-29), as SQL, DuckDB and PostgreSQL do. As in PostgreSQL, the days of an interval that
 * starts with days (DAY, DAY TO HOUR ...) and its months are calendar days and months: a TIMESTAMP WITH TIME ZONE
 * moves by them in the session's zone (across a change of its clocks a day may last 23 or 25 hours), and by its
 * hours, minutes and seconds in absolute time. A DATE moves by whole days and months only (its result is a DATE,
 * the SQL standard's type). An INTERVAL that is not a literal moves a time as {@code t + i} does (PostgreSQL's
 * arithmetic), a TIMESTAMP WITH TIME ZONE by its months and days in the session's zone, a DATE by its months and
 * days ({@code add_interval}); one with a time of day fails when a row meets it.
 */
final class DateIntervals {

    private static final Set<SqlTypeName> DAY_FIRST = Set.of(SqlTypeName.INTERVAL_DAY, SqlTypeName.INTERVAL_DAY_HOUR,
            SqlTypeName.INTERVAL_DAY_MINUTE, SqlTypeName.INTERVAL_DAY_SECOND);

    private DateIntervals() {
    }

    /** True when {@code call} is date or time arithmetic with an interval, which {@link #lower} must take. */
    static boolean isIntervalArithmetic(RexCall call) {
        SqlTypeName type = call.getType().getSqlTypeName();
        return (type == SqlTypeName.DATE || type == SqlTypeName.TIMESTAMP || type == SqlTypeName.TIME
                || type == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE || type == SqlTypeName.TIMESTAMP_TZ)
                && call.getOperands().stream().anyMatch(DateIntervals::isInterval);
    }

    /** {@code call} as its operand moved by days, months or microseconds, that operand lowered by {@code lower}. */
    static Expr lower(RexCall call, Function<RexNode, Expr> lower, ZoneId zone) {
        if (call.getOperands().size() != 2 || !call.isA(SqlKind.PLUS) && !call.isA(SqlKind.MINUS)) {
            throw new UnsupportedSqlException("date arithmetic " + call);
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        RexNode time = isInterval(a) ? b : a;
        RexNode interval = isInterval(a) ? a : b;
        if (!(interval instanceof RexLiteral literal)) {
            return shift(call, lower.apply(time), lower.apply(interval), SqlTypes.toTroupe(time.getType()).id(), zone);
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (call.isA(SqlKind.MINUS)) {
            value = value.negate();
        }
        Expr t = lower.apply(time);
        TypeId type = SqlTypes.toTroupe(time.getType()).id();
        SqlTypeName qualifier = literal.getType().getSqlTypeName();
        if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(qualifier)) {
            Expr months = Expr.lit(value.intValueExact());
            return type == TypeId.TIMESTAMP_TZ ? inZone(Expr.addMonths(local(t, zone), months), zone)
                    : Expr.addMonths(t, months);
        }
        long micros = value.movePointRight(3).longValueExact();
        long days = DAY_FIRST.contains(qualifier) ? micros / Timestamps.MICROS_PER_DAY : 0;
        long rest = micros - days * Timestamps.MICROS_PER_DAY;
        return switch (type) {
            case DATE -> {
                if (micros % Timestamps.MICROS_PER_DAY != 0) {
                    throw new UnsupportedSqlException("an interval of hours, minutes or seconds added to a DATE, whose "
                            + "result is a DATE (write CAST(d AS TIMESTAMP) + INTERVAL ...) (" + call + ")");
                }
                yield Expr.addDays(t, Expr.lit(micros / Timestamps.MICROS_PER_DAY));
            }
            case TIMESTAMP_TZ -> days == 0 ? Expr.addMicros(t, Expr.lit(micros))
                    : Expr.addMicros(inZone(Expr.addDays(local(t, zone), Expr.lit(days)), zone), Expr.lit(rest));
            default -> Expr.addMicros(t, Expr.lit(micros));
        };
    }

    /**
     * A time moved by an INTERVAL that is not a literal: a TIMESTAMP WITH TIME ZONE by its months and days in the
     * session's zone; a DATE into a DATE, the type Calcite gives it, by months and days only.
     */
    private static Expr shift(RexCall call, Expr time, Expr interval, TypeId type, ZoneId zone) {
        Expr by = call.isA(SqlKind.MINUS) ? interval.negate() : interval;
        return switch (type) {
            case TIMESTAMP_TZ -> Expr.addInterval(time, by, zone.getId());
            case DATE -> Expr.addInterval(time, by);
            default -> time.plus(by);
        };
    }

    /**
     * An interval literal of Calcite's as Troupe's INTERVAL: a year-month one its months; a day-time one its
     * milliseconds, whose whole days are the interval's days when it starts with days ({@code INTERVAL '1' DAY} is
     * a day, {@code INTERVAL '24' HOUR} 24 hours, as PostgreSQL reads them).
     */
    static Interval value(RexLiteral literal) {
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        SqlTypeName qualifier = literal.getType().getSqlTypeName();
        if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(qualifier)) {
            return Interval.ofMonths(value.intValueExact());
        }
        long micros = value.movePointRight(3).longValueExact();
        long days = DAY_FIRST.contains(qualifier) ? micros / Timestamps.MICROS_PER_DAY : 0;
        return new Interval(0, Math.toIntExact(days), micros - days * Timestamps.MICROS_PER_DAY);
    }

    /** An instant's local time in {@code zone}. */
    private static Expr local(Expr instant, ZoneId zone) {
        return instant.cast(DataType.TIMESTAMP, zone);
    }

    /** The instant of a local time in {@code zone}. */
    private static Expr inZone(Expr local, ZoneId zone) {
        return local.cast(DataType.TIMESTAMP_TZ, zone);
    }

    private static boolean isInterval(RexNode node) {
        return node.getType().getFamily() instanceof SqlTypeFamily f
                && (f == SqlTypeFamily.INTERVAL_DAY_TIME || f == SqlTypeFamily.INTERVAL_YEAR_MONTH);
    }
}
