package io.troupe.operators.sql;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.Period;

/**
 * Date arithmetic on constants, folded while lowering: {@code DATE '1998-12-01' - INTERVAL '90' DAY},
 * {@code CAST('2000-02-01' AS DATE) + INTERVAL '60' DAY}, {@code DATE '1994-01-01' + INTERVAL '1' YEAR}. This is
 * all the date arithmetic TPC-H and TPC-DS write: a constant bound of a range over a date column. Troupe's
 * expressions have no interval type, so arithmetic over a column ({@code l_shipdate + INTERVAL '1' DAY}) is
 * refused by name. Month and year intervals follow SQL: the day is clamped to the month's last day
 * ({@code DATE '2024-01-31' + INTERVAL '1' MONTH} is 2024-02-29), as DuckDB and PostgreSQL do.
 */
final class ConstantDates {

    private ConstantDates() {
    }

    /** True when {@code call} is date arithmetic with an interval, which {@link #fold} must take. */
    static boolean isIntervalArithmetic(RexCall call) {
        return call.getType().getSqlTypeName() == SqlTypeName.DATE
                && call.getOperands().stream().anyMatch(o -> o.getType().getFamily() instanceof SqlTypeFamily f
                && (f == SqlTypeFamily.INTERVAL_DAY_TIME || f == SqlTypeFamily.INTERVAL_YEAR_MONTH));
    }

    /** The date {@code node} computes, when it is a constant; throws {@link UnsupportedSqlException} otherwise. */
    static LocalDate fold(RexNode node) {
        return date(node, node);
    }

    private static LocalDate date(RexNode node, RexNode whole) {
        if (node instanceof RexLiteral literal && literal.getType().getSqlTypeName() == SqlTypeName.DATE) {
            return LocalDate.ofEpochDay(literal.getValueAs(DateString.class).getDaysSinceEpoch());
        }
        if (node instanceof RexCall call && call.getKind() == SqlKind.CAST
                && call.getOperands().get(0) instanceof RexLiteral text
                && SqlTypeFamily.CHARACTER.contains(text.getType())) {
            return LocalDate.parse(text.getValueAs(String.class).strip());
        }
        if (node instanceof RexCall call && call.getOperands().size() == 2) {
            RexNode a = call.getOperands().get(0);
            RexNode b = call.getOperands().get(1);
            switch (call.getKind()) {
                case PLUS:
                    return isInterval(a) ? plus(date(b, whole), a, whole, 1) : plus(date(a, whole), b, whole, 1);
                case MINUS:
                    return plus(date(a, whole), b, whole, -1);
                default:
                    break;
            }
        }
        throw new UnsupportedSqlException("date arithmetic over columns (" + whole
                + "); only a constant date plus or minus an interval");
    }

    private static boolean isInterval(RexNode node) {
        return SqlTypeName.INTERVAL_TYPES.contains(node.getType().getSqlTypeName());
    }

    private static LocalDate plus(LocalDate date, RexNode interval, RexNode whole, int sign) {
        if (!(interval instanceof RexLiteral literal) || !isInterval(literal)) {
            throw new UnsupportedSqlException("date arithmetic with an interval that is not a literal (" + whole + ")");
        }
        // Calcite holds a year-month interval as months and a day-time one as milliseconds.
        BigDecimal value = literal.getValueAs(BigDecimal.class).multiply(BigDecimal.valueOf(sign));
        if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(literal.getType().getSqlTypeName())) {
            return date.plus(Period.ofMonths(value.intValueExact()));
        }
        BigDecimal[] days = value.divideAndRemainder(BigDecimal.valueOf(86_400_000L));
        if (days[1].signum() != 0) {
            throw new UnsupportedSqlException("an interval of hours, minutes or seconds added to a date (" + whole + ")");
        }
        return date.plusDays(days[0].longValueExact());
    }
}
