package io.troupe.operators.expr;

import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.time.ZoneId;

/**
 * Types + - * / where a time or an interval takes part, as PostgreSQL types them, and picks the kernel:
 * <ul>
 *   <li>{@code interval ± interval}, {@code -interval}, {@code interval * number}, {@code number * interval},
 *       {@code interval / number}: INTERVAL ({@link IntervalArithmetic});</li>
 *   <li>{@code time ± interval}, {@code interval + time}: the time moved ({@link IntervalShift}); a DATE's
 *       midnight moves to a TIMESTAMP, a TIMESTAMP_TZ moves in UTC ({@code add_interval(t, i, zone)} in a
 *       zone);</li>
 *   <li>{@code t - t} of TIMESTAMPs, TIMESTAMP_TZs or TIMEs: INTERVAL of days and microseconds
 *       ({@link TimeDifference}); of DATEs: INT32 days;</li>
 *   <li>{@code date ± integer}, {@code integer + date}: DATE, that many days on ({@link DateShift}).</li>
 * </ul>
 *
 * <p>Stateless; threadsafe.
 */
final class TimeArithmetic {

    private TimeArithmetic() {
    }

    /** True where {@link #kernel} types {@code a op b} rather than numeric arithmetic. */
    static boolean applies(DataType a, DataType b) {
        return !a.isNumeric() || !b.isNumeric();
    }

    static Expression kernel(Function op, Expression left, Expression right, String text) {
        TypeId a = left.type().id();
        TypeId b = right.type().id();
        boolean ia = a == TypeId.INTERVAL;
        boolean ib = b == TypeId.INTERVAL;
        switch (op) {
            case ADD, SUBTRACT -> {
                if (ia && ib) {
                    return new IntervalArithmetic(op == Function.ADD ? IntervalArithmetic.Op.ADD
                            : IntervalArithmetic.Op.SUBTRACT, left, right, text);
                }
                if (isTime(a) && ib) {
                    return IntervalShift.of(left, right, op == Function.SUBTRACT, null, text);
                }
                if (op == Function.ADD && ia && isTime(b)) {
                    return IntervalShift.of(right, left, false, null, text);
                }
                if (op == Function.SUBTRACT && a == b && isTime(a)) {
                    return new TimeDifference(left, right, text);
                }
                if (a == TypeId.DATE && isInteger(b)) {
                    // A SMALLINT or TINYINT count as an INTEGER: negating its least value stays in range.
                    Expression days = TypeRules.isIntInteger(right.type())
                            ? CastExpression.of(right, DataType.INT32, text) : right;
                    return DateShift.bind(Function.ADD_DAYS, left,
                            op == Function.ADD ? days : Arithmetic.negate(days, text), text);
                }
                if (op == Function.ADD && isInteger(a) && b == TypeId.DATE) {
                    return DateShift.bind(Function.ADD_DAYS, right, left, text);
                }
            }
            case MULTIPLY -> {
                if (ia && right.type().isNumeric()) {
                    return scale(IntervalArithmetic.Op.MULTIPLY, left, right, text);
                }
                if (ib && left.type().isNumeric()) {
                    return scale(IntervalArithmetic.Op.MULTIPLY, right, left, text);
                }
            }
            case DIVIDE -> {
                if (ia && right.type().isNumeric()) {
                    return scale(IntervalArithmetic.Op.DIVIDE, left, right, text);
                }
            }
            default -> {
            }
        }
        throw new ExpressionTypeException("cannot apply " + op.symbol() + " to " + left.type() + " and "
                + right.type() + " in " + text);
    }

    static Expression negate(Expression value, String text) {
        return new IntervalArithmetic(IntervalArithmetic.Op.NEGATE, value, null, text);
    }

    /**
     * {@code add_interval(t, i[, zone])}: t moved by i, a TIMESTAMP_TZ's months and days in {@code zone}, a DATE into
     * a DATE (SQL's {@code date + interval}, typed DATE).
     */
    static Expression addInterval(Expression time, Expression interval, ZoneId zone, String text) {
        if (!isTime(time.type().id()) || interval.type().id() != TypeId.INTERVAL) {
            throw new ExpressionTypeException(Function.ADD_INTERVAL.symbol() + " takes a DATE, TIMESTAMP, "
                    + "TIMESTAMP WITH TIME ZONE or TIME and an INTERVAL, got " + time.type().sqlName() + " and "
                    + interval.type().sqlName() + " in " + text);
        }
        if (zone != null && time.type().id() != TypeId.TIMESTAMP_TZ) {
            throw new ExpressionTypeException(Function.ADD_INTERVAL.symbol() + " takes a time zone only for a "
                    + "TIMESTAMP WITH TIME ZONE, got " + time.type().sqlName() + " in " + text);
        }
        return IntervalShift.keepingDates(time, interval, zone, text);
    }

    private static Expression scale(IntervalArithmetic.Op op, Expression interval, Expression factor, String text) {
        return new IntervalArithmetic(op, interval, CastExpression.of(factor, DataType.FLOAT64, text), text);
    }

    private static boolean isTime(TypeId t) {
        return t == TypeId.DATE || t == TypeId.TIMESTAMP || t == TypeId.TIMESTAMP_TZ || t == TypeId.TIME;
    }

    private static boolean isInteger(TypeId t) {
        return t == TypeId.INT32 || t == TypeId.INT64 || t == TypeId.INT16 || t == TypeId.INT8;
    }
}
