package io.troupe.operators.sql;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.plan.WindowCall;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.operators.window.FrameBound;
import io.troupe.operators.window.WindowFrame;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Lowers Calcite's Window relation (what {@code PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW} makes of a projection's
 * {@code f(...) OVER (...)}) into Troupe's window nodes: one {@code Plan.window} per group of calls that share
 * PARTITION BY, ORDER BY and frame, each over the one before, then a projection that names the fields as
 * Calcite does and casts a result whose type Calcite derives otherwise (RANK is an INTEGER to Calcite, a
 * BIGINT to Troupe and DuckDB). Calcite's window SUM arrives as {@code $SUM0} (0 for an empty frame) under a
 * CASE on the count: it runs as SUM with COALESCE(..., 0). A frame's offsets are the window's constants: integers
 * for ROWS, numbers or intervals (months, or milliseconds for the day-time kinds) for RANGE; Calcite 1.42 parses
 * no GROUPS frames. Refused by name: DISTINCT in a window call, and window functions Troupe lacks.
 */
final class WindowLowering {

    private final Window window;
    private final List<String> columns;
    private final RexBuilder rexBuilder;
    private final Map<Integer, DataType> parameters;
    private final int inputCount;

    private WindowLowering(Window window, List<String> columns, Map<Integer, DataType> parameters) {
        this.window = window;
        this.columns = columns;
        this.rexBuilder = window.getCluster().getRexBuilder();
        this.parameters = parameters;
        this.inputCount = window.getInput().getRowType().getFieldCount();
    }

    /**
     * The plan of {@code window} over its lowered input {@code in}, whose fields are the columns {@code columns};
     * its output columns are named as Calcite names the window's fields (dots replaced, as RelLowering names).
     */
    static Plan lower(Plan in, List<String> columns, Window window, Map<Integer, DataType> parameters) {
        return new WindowLowering(window, columns, parameters).lower(in);
    }

    private Plan lower(Plan in) {
        Set<String> taken = new HashSet<>();
        for (String c : columns) {
            taken.add(c.substring(c.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT));
        }
        Plan plan = in;
        List<Expr> outputs = new ArrayList<>();
        List<Expr> calls = new ArrayList<>();
        for (int g = 0; g < window.groups.size(); g++) {
            Window.Group group = window.groups.get(g);
            WindowFrame frame = frame(group);
            for (Window.RexWinAggCall call : group.aggCalls) {
                String name = fresh(taken);
                Lowered lowered = call(call, frame);
                calls.add(lowered.call.as(name));
                Expr out = Expr.col(name);
                if (lowered.emptyIsZero) {
                    out = Expr.coalesce(out, Expr.lit(0).cast(lowered.type));
                }
                DataType wanted = SqlTypes.toTroupe(call.getType());
                outputs.add(wanted.equals(lowered.type) ? out : out.cast(wanted));
            }
            Window.Group next = g + 1 < window.groups.size() ? window.groups.get(g + 1) : null;
            // Groups that differ in their frames only are one window node: each call has its own frame.
            if (next == null || !next.keys.equals(group.keys) || !next.orderKeys.equals(group.orderKeys)) {
                List<Expr> partitionBy = new ArrayList<>();
                for (int key : group.keys) {
                    partitionBy.add(Expr.col(columns.get(key)));
                }
                plan = plan.window(partitionBy, orderBy(group), calls.toArray(Expr[]::new));
                calls.clear();
            }
        }
        List<String> names = window.getRowType().getFieldNames();
        Expr[] named = new Expr[names.size()];
        for (int i = 0; i < named.length; i++) {
            Expr e = i < inputCount ? Expr.col(columns.get(i)) : outputs.get(i - inputCount);
            named[i] = e.as(names.get(i).replace('.', '_'));
        }
        return plan.project(named);
    }

    /** A column name that no input column and no other call has. */
    private static String fresh(Set<String> taken) {
        for (int n = taken.size(); ; n++) {
            if (taken.add("window$" + n)) {
                return "window$" + n;
            }
        }
    }

    private List<SortKey> orderBy(Window.Group group) {
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation c : group.orderKeys.getFieldCollations()) {
            boolean ascending = !c.getDirection().isDescending();
            boolean nullsFirst = switch (c.nullDirection) {
                case FIRST -> true;
                case LAST -> false;
                case UNSPECIFIED -> !ascending;
            };
            keys.add(new SortKey(Expr.col(columns.get(c.getFieldIndex())), ascending, nullsFirst));
        }
        return keys;
    }

    private WindowFrame frame(Window.Group group) {
        WindowFrame.Exclusion exclusion = switch (group.exclude) {
            case EXCLUDE_NO_OTHER -> WindowFrame.Exclusion.NO_OTHERS;
            case EXCLUDE_CURRENT_ROW -> WindowFrame.Exclusion.CURRENT_ROW;
            case EXCLUDE_GROUP -> WindowFrame.Exclusion.GROUP;
            case EXCLUDE_TIES -> WindowFrame.Exclusion.TIES;
        };
        try {
            WindowFrame frame = new WindowFrame(group.isRows ? WindowFrame.Unit.ROWS : WindowFrame.Unit.RANGE,
                    bound(group, group.lowerBound), bound(group, group.upperBound), exclusion);
            List<DataType> orderKeys = new ArrayList<>();
            for (RelFieldCollation c : group.orderKeys.getFieldCollations()) {
                orderKeys.add(SqlTypes.toTroupe(window.getInput().getRowType().getFieldList()
                        .get(c.getFieldIndex()).getType()));
            }
            frame.check(orderKeys);
            return frame;
        } catch (IllegalArgumentException e) {
            throw new UnsupportedSqlException(e.getMessage());
        }
    }

    private FrameBound bound(Window.Group group, RexWindowBound bound) {
        if (bound.isUnbounded()) {
            return bound.isPreceding() ? FrameBound.UNBOUNDED_PRECEDING : FrameBound.UNBOUNDED_FOLLOWING;
        }
        if (bound.isCurrentRow()) {
            return FrameBound.CURRENT_ROW;
        }
        String what = "a frame's offset (" + bound + ")";
        Object offset = group.isRows ? (Object) longConstant(bound.getOffset(), what) : rangeOffset(bound, what);
        return new FrameBound(bound.isPreceding(), offset);
    }

    /**
     * A RANGE frame's offset: a number, or an interval, whose literal holds months (YEAR, MONTH) or milliseconds
     * (DAY to SECOND), or a PostgreSQL interval literal ({@code INTERVAL '1 day'}, a cast of its text to Calcite),
     * which the window's input projects.
     */
    private Object rangeOffset(RexWindowBound bound, String what) {
        RexNode offset = constant(bound.getOffset());
        if (offset instanceof RexInputRef ref && window.getInput() instanceof Project input) {
            offset = input.getProjects().get(ref.getIndex());
        }
        if (offset.getKind() == SqlKind.CAST && SqlTypeUtil.isInterval(offset.getType())
                && ((RexCall) offset).getOperands().get(0) instanceof RexLiteral text && !text.isNull()
                && SqlTypeUtil.isCharacter(text.getType())) {
            try {
                return Interval.parse(text.getValueAs(String.class));
            } catch (IllegalArgumentException e) {
                throw new UnsupportedSqlException(what + ": " + e.getMessage());
            }
        }
        if (!(offset instanceof RexLiteral literal)) {
            throw new UnsupportedSqlException(what + " other than a constant");
        }
        if (literal.isNull()) {
            throw new UnsupportedSqlException(what + ": a frame's offset must not be NULL");
        }
        SqlTypeFamily family = literal.getType().getSqlTypeName().getFamily();
        if (family == SqlTypeFamily.INTERVAL_YEAR_MONTH || family == SqlTypeFamily.INTERVAL_DAY_TIME) {
            return DateIntervals.value(literal);
        }
        return switch (literal.getType().getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> literal.getValueAs(Long.class);
            case DECIMAL -> literal.getValueAs(BigDecimal.class);
            case DOUBLE, FLOAT, REAL -> literal.getValueAs(Double.class);
            default -> throw new UnsupportedSqlException(what + " of type " + literal.getType()
                    + ": RANGE offsets are numbers and intervals");
        };
    }

    /** A call lowered: the window function, its result type, and whether an empty frame must read 0 ($SUM0). */
    private record Lowered(Expr call, DataType type, boolean emptyIsZero) {
    }

    private Lowered call(Window.RexWinAggCall call, WindowFrame frame) {
        String name = call.getOperator().getName();
        if (call.distinct) {
            throw new UnsupportedSqlException("DISTINCT in window function " + name + " (" + call + ")");
        }
        List<RexNode> ops = call.getOperands();
        boolean shift = call.getKind() == SqlKind.LAG || call.getKind() == SqlKind.LEAD;
        if (ops.size() > (shift ? 3 : call.getKind() == SqlKind.NTH_VALUE ? 2 : 1)) {
            throw new UnsupportedSqlException("window function " + name + " with " + ops.size() + " arguments");
        }
        boolean emptyIsZero = false;
        Expr lowered = switch (call.getKind()) {
            case ROW_NUMBER -> Expr.rowNumber();
            case RANK -> Expr.rank();
            case DENSE_RANK -> Expr.denseRank();
            case PERCENT_RANK -> Expr.percentRank();
            case CUME_DIST -> Expr.cumeDist();
            case NTILE -> Expr.ntile(longConstant(ops.get(0), "ntile's bucket count"));
            case COUNT -> ops.isEmpty() ? Expr.count() : Expr.count(argument(ops.get(0)));
            case SUM -> Expr.sum(argument(ops.get(0)));
            case SUM0 -> {
                emptyIsZero = true;
                yield Expr.sum(argument(ops.get(0)));
            }
            case AVG -> Expr.avg(argument(ops.get(0)));
            case MIN -> Expr.min(argument(ops.get(0)));
            case MAX -> Expr.max(argument(ops.get(0)));
            case FIRST_VALUE -> Expr.firstValue(argument(ops.get(0)));
            case LAST_VALUE -> Expr.lastValue(argument(ops.get(0)));
            case NTH_VALUE -> Expr.nthValue(argument(ops.get(0)), nthRow(ops.get(1)));
            case LAG, LEAD -> shift(call);
            default -> throw new UnsupportedSqlException("window function " + name + " (" + call + ")");
        };
        DataType argument = ops.isEmpty() || call.getKind() == SqlKind.NTILE ? null
                : SqlTypes.toTroupe(operandType(ops.get(0)));
        WindowCall framed = (WindowCall) lowered.over(frame);
        if (call.ignoreNulls) {
            if (!framed.function().takesNullTreatment()) {
                throw new UnsupportedSqlException("IGNORE NULLS in window function " + name + " (" + call
                        + "): lag, lead, first_value, last_value and nth_value take it");
            }
            framed = (WindowCall) framed.ignoreNulls();
        }
        return new Lowered(framed, framed.function().resultType(argument), emptyIsZero);
    }

    /** nth_value's row: a constant of at least 1, as PostgreSQL requires. */
    private long nthRow(RexNode operand) {
        long n = longConstant(operand, "nth_value's row");
        if (n < 1) {
            throw new UnsupportedSqlException("nth_value's row must be at least 1, got " + n);
        }
        return n;
    }

    /**
     * lag/lead(value [, offset [, default]]): a default of another type than the value is cast to the value's, as
     * DuckDB does ({@code lag(i, 1, 1.5)} is an INTEGER, its default 2); the result then to the call's type.
     */
    private Expr shift(Window.RexWinAggCall call) {
        List<RexNode> ops = call.getOperands();
        Expr value = argument(ops.get(0));
        long offset = ops.size() > 1 ? longConstant(ops.get(1), call.getOperator().getName() + "'s offset") : 1;
        boolean lag = call.getKind() == SqlKind.LAG;
        if (offset < 0) {
            throw new UnsupportedSqlException(call.getOperator().getName() + " with a negative offset (" + call + ")");
        }
        if (ops.size() < 3) {
            return lag ? Expr.lag(value, offset) : Expr.lead(value, offset);
        }
        Expr fallback = argument(ops.get(2), SqlTypes.toTroupe(operandType(ops.get(0))));
        return lag ? Expr.lag(value, offset, fallback) : Expr.lead(value, offset, fallback);
    }

    /** {@code operand} as {@code type}: cast when its own type differs. */
    private Expr argument(RexNode operand, DataType type) {
        Expr e = argument(operand);
        return SqlTypes.toTroupe(operandType(operand)).equals(type) ? e : e.cast(type);
    }

    /** An operand: a field of the input, or one of the window's constants (a reference past the input's fields). */
    private Expr argument(RexNode operand) {
        return new RexLowering(columns, rexBuilder, parameters).lower(constant(operand));
    }

    private RelDataType operandType(RexNode operand) {
        return constant(operand).getType();
    }

    private RexNode constant(RexNode operand) {
        if (operand instanceof RexInputRef ref && ref.getIndex() >= inputCount) {
            return window.constants.get(ref.getIndex() - inputCount);
        }
        return operand;
    }

    private long longConstant(RexNode operand, String what) {
        if (constant(operand) instanceof RexLiteral literal && literal.getValueAs(Long.class) != null) {
            return literal.getValueAs(Long.class);
        }
        throw new UnsupportedSqlException(what + " other than an integer constant (" + operand + ")");
    }
}
