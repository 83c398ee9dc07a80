package io.troupe.operators.sql;

import io.troupe.operators.plan.Expr;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.util.function.Function;

/**
 * A date plus or minus an interval literal, as {@code add_days} or {@code add_months}: {@code l_shipdate +
 * INTERVAL '1' DAY}, {@code DATE '1998-12-01' - INTERVAL '90' DAY}, {@code d_date + INTERVAL '1' YEAR}. Troupe's
 * expressions have no interval type; an interval literal is a count of days or months (Calcite holds a
 * day-time interval as milliseconds and a year-month one as months), and a constant date's arithmetic folds to
 * a literal when the plan binds. Month and year intervals follow SQL: the day is clamped to the month's last
 * ({@code DATE '2024-01-31' + INTERVAL '1' MONTH} is 2024-02-29), as DuckDB and PostgreSQL do. An interval
 * that is not a literal, or of hours, minutes or seconds, is refused by name.
 */
final class DateIntervals {

    private static final BigDecimal MILLIS_PER_DAY = BigDecimal.valueOf(86_400_000L);

    private DateIntervals() {
    }

    /** True when {@code call} is date arithmetic with an interval, which {@link #lower} must take. */
    static boolean isIntervalArithmetic(RexCall call) {
        return call.getType().getSqlTypeName() == SqlTypeName.DATE
                && call.getOperands().stream().anyMatch(DateIntervals::isInterval);
    }

    /** {@code call} as a date moved by days or months, its date operand lowered by {@code lower}. */
    static Expr lower(RexCall call, Function<RexNode, Expr> lower) {
        if (call.getOperands().size() != 2 || !call.isA(SqlKind.PLUS) && !call.isA(SqlKind.MINUS)) {
            throw new UnsupportedSqlException("date arithmetic " + call);
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        RexNode date = isInterval(a) ? b : a;
        RexNode interval = isInterval(a) ? a : b;
        if (!(interval instanceof RexLiteral literal)) {
            throw new UnsupportedSqlException("date arithmetic with an interval that is not a literal (" + call + ")");
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (call.isA(SqlKind.MINUS)) {
            value = value.negate();
        }
        if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(literal.getType().getSqlTypeName())) {
            return Expr.addMonths(lower.apply(date), Expr.lit(value.intValueExact()));
        }
        BigDecimal[] days = value.divideAndRemainder(MILLIS_PER_DAY);
        if (days[1].signum() != 0) {
            throw new UnsupportedSqlException("an interval of hours, minutes or seconds added to a date (" + call + ")");
        }
        return Expr.addDays(lower.apply(date), Expr.lit(days[0].intValueExact()));
    }

    private static boolean isInterval(RexNode node) {
        return node.getType().getFamily() instanceof SqlTypeFamily f
                && (f == SqlTypeFamily.INTERVAL_DAY_TIME || f == SqlTypeFamily.INTERVAL_YEAR_MONTH);
    }
}
