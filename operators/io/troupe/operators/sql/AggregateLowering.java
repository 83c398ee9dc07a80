package io.troupe.operators.sql;

import io.troupe.operators.agg.AggregateFunction;
import io.troupe.operators.expr.Function;
import io.troupe.operators.plan.AggregateCall;
import io.troupe.operators.plan.Call;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Literal;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.types.DataType;

import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import static java.util.Map.entry;

/**
 * Lowers one aggregate call of a Calcite {@code Aggregate} into Troupe's {@link AggregateCall}: the function by its
 * kind or, for those Calcite has no kind of its own for, its name; the value, with {@code FILTER (WHERE f)} folded in
 * as {@code CASE WHEN f THEN value END} (every aggregate skips NULL values; count(*) counts the 1s of its CASE); the
 * constants (fractions, string_agg's separator) read from the literals Calcite projects below the aggregate.
 *
 * <p>What reaches it, as seen in Calcite 1.42: string_agg arrives as LISTAGG (with its ORDER BY as the call's
 * collation), bool_and and every as MIN, bool_or and some as MAX (of a BOOLEAN), approx_count_distinct as an
 * approximate COUNT(DISTINCT), regr_count(y, x) as COUNT(y, x); the percentiles and mode carry their WITHIN GROUP
 * key as the collation. DISTINCT other than count's and string_agg's was expanded before
 * (AggregateExpandDistinctAggregatesRule).
 *
 * <p>Stateless.
 */
final class AggregateLowering {

    /** The functions Calcite knows by a kind of their own. */
    private static final Map<SqlKind, AggregateFunction> KINDS = Map.ofEntries(
            entry(SqlKind.SUM, AggregateFunction.SUM), entry(SqlKind.AVG, AggregateFunction.AVG),
            entry(SqlKind.VAR_SAMP, AggregateFunction.VAR_SAMP), entry(SqlKind.VAR_POP, AggregateFunction.VAR_POP),
            entry(SqlKind.STDDEV_SAMP, AggregateFunction.STDDEV_SAMP),
            entry(SqlKind.STDDEV_POP, AggregateFunction.STDDEV_POP),
            entry(SqlKind.SINGLE_VALUE, AggregateFunction.SINGLE_VALUE),
            entry(SqlKind.PERCENTILE_CONT, AggregateFunction.PERCENTILE_CONT),
            entry(SqlKind.MODE, AggregateFunction.MODE), entry(SqlKind.LISTAGG, AggregateFunction.STRING_AGG),
            entry(SqlKind.COVAR_POP, AggregateFunction.COVAR_POP),
            entry(SqlKind.COVAR_SAMP, AggregateFunction.COVAR_SAMP),
            entry(SqlKind.REGR_SXX, AggregateFunction.REGR_SXX), entry(SqlKind.REGR_SYY, AggregateFunction.REGR_SYY));

    /** The separator of string_agg(x) and listagg(x) without one (DuckDB's and Calcite's). */
    private static final String DEFAULT_SEPARATOR = ",";

    private AggregateLowering() {
    }

    /**
     * @param input  the aggregate's input, below which the constant arguments are projected
     * @param column the input's field i as a plan expression
     * @throws UnsupportedSqlException for an aggregate Troupe does not run
     */
    static Expr lower(org.apache.calcite.rel.core.AggregateCall call, RelNode input, IntFunction<Expr> column) {
        if (call.getAggregation() instanceof OwnAggregateOperator own) {
            return own.lower(call, column);
        }
        AggregateFunction function = function(call);
        List<Integer> args = call.getArgList();
        List<RelFieldCollation> collation = call.getCollation().getFieldCollations();
        boolean distinct = call.isDistinct() && !call.isApproximate();
        if (function == null || distinct && function != AggregateFunction.COUNT
                && function != AggregateFunction.STRING_AGG) {
            throw new UnsupportedSqlException("aggregate function " + call.getAggregation().getName()
                    + (call.isDistinct() ? " (DISTINCT)" : ""));
        }
        if (!function.ordered() && function != AggregateFunction.STRING_AGG) {
            // The others' values do not depend on their order (Calcite's expansion of DISTINCT gives min, which
            // picks a group's one value, the collation of the call it stands for).
            collation = List.of();
        }
        if (function.ordered() && collation.size() != 1 && !(function == AggregateFunction.MODE && collation.isEmpty())) {
            throw new UnsupportedSqlException(function.sqlName() + " of " + collation.size()
                    + " ORDER BY keys (it takes one: " + function.sqlName() + "(...) WITHIN GROUP (ORDER BY x))");
        }
        if (function == AggregateFunction.COUNT && args.size() > 1) {
            return countOfAll(call, column);
        }
        // The field that holds the aggregate's value: what FILTER makes NULL where its condition does not hold.
        int valueField = function.ordered() && !collation.isEmpty() ? collation.get(0).getFieldIndex()
                : args.isEmpty() ? -1 : args.get(0);
        Expr value = valueField < 0 ? null : column.apply(valueField);
        if (call.hasFilter()) {
            DataType type = valueField < 0 ? DataType.INT32
                    : SqlTypes.toTroupe(input.getRowType().getFieldList().get(valueField).getType());
            value = new Call(Function.CASE, List.of(Expr.coalesce(column.apply(call.filterArg), Expr.lit(false)),
                    value == null ? Expr.lit(1) : value, new Literal(null, type)), null);
        }
        if (value == null) {
            if (function != AggregateFunction.COUNT) {
                throw new UnsupportedSqlException("aggregate " + call);
            }
            return Expr.count();
        }
        List<SortKey> order = new ArrayList<>();
        for (RelFieldCollation c : collation) {
            order.add(RelLowering.sortKey(c, c.getFieldIndex() == valueField ? value : column.apply(c.getFieldIndex())));
        }
        if (function == AggregateFunction.MODE && order.isEmpty()) {
            // DuckDB's mode(x): PostgreSQL's mode() WITHIN GROUP (ORDER BY x).
            order.add(new SortKey(value, true, false));
        }
        List<Expr> arguments = switch (function) {
            case COUNT -> distinct ? null : List.of(value);
            case PERCENTILE_CONT, PERCENTILE_DISC -> List.of(constant(call, input, args.get(0)));
            case MODE -> {
                if (args.size() == 1 && args.get(0) != valueField) {
                    throw new UnsupportedSqlException("mode(x) WITHIN GROUP (ORDER BY y) of another y than x");
                }
                yield List.of();
            }
            case STRING_AGG -> List.of(value, args.size() > 1 ? constant(call, input, args.get(1))
                    : new Literal(DEFAULT_SEPARATOR, DataType.VARCHAR));
            case APPROX_QUANTILE -> List.of(value, constant(call, input, args.get(1)));
            default -> function.paired() ? List.of(value, column.apply(args.get(1))) : List.of(value);
        };
        if (arguments == null) {
            return Expr.countDistinct(value);
        }
        if (function == AggregateFunction.COUNT && call.isApproximate()) {
            function = AggregateFunction.APPROX_COUNT_DISTINCT;
        }
        return new AggregateCall(function, arguments, distinct, order);
    }

    /**
     * COUNT(a, b, ...), the rows where no argument is NULL (as Calcite writes regr_count(y, x)): the count of a CASE
     * that is 1 on such rows (and where FILTER holds).
     */
    private static Expr countOfAll(org.apache.calcite.rel.core.AggregateCall call, IntFunction<Expr> column) {
        if (call.isDistinct()) {
            throw new UnsupportedSqlException("count(DISTINCT ...) of several arguments (" + call + ")");
        }
        Expr all = call.hasFilter() ? Expr.coalesce(column.apply(call.filterArg), Expr.lit(false)) : null;
        for (int arg : call.getArgList()) {
            Expr present = column.apply(arg).isNotNull();
            all = all == null ? present : all.and(present);
        }
        return Expr.count(new Call(Function.CASE, List.of(all, Expr.lit(1), new Literal(null, DataType.INT32)), null));
    }

    private static AggregateFunction function(org.apache.calcite.rel.core.AggregateCall call) {
        SqlKind kind = call.getAggregation().getKind();
        String name = call.getAggregation().getName();
        return switch (kind) {
            case COUNT -> AggregateFunction.COUNT;
            case MIN -> name.equals("MIN") ? AggregateFunction.MIN : AggregateFunction.BOOL_AND;
            case MAX -> name.equals("MAX") ? AggregateFunction.MAX : AggregateFunction.BOOL_OR;
            case OTHER_FUNCTION -> switch (name) {
                case "MEDIAN" -> AggregateFunction.MEDIAN;
                case "PERCENTILE_DISC" -> AggregateFunction.PERCENTILE_DISC;
                case "APPROX_QUANTILE" -> AggregateFunction.APPROX_QUANTILE;
                case "CORR" -> AggregateFunction.CORR;
                case "REGR_SLOPE" -> AggregateFunction.REGR_SLOPE;
                case "REGR_INTERCEPT" -> AggregateFunction.REGR_INTERCEPT;
                case "REGR_R2" -> AggregateFunction.REGR_R2;
                case "REGR_AVGX" -> AggregateFunction.REGR_AVGX;
                case "REGR_AVGY" -> AggregateFunction.REGR_AVGY;
                case "REGR_SXY" -> AggregateFunction.REGR_SXY;
                default -> null;
            };
            default -> KINDS.get(kind);
        };
    }

    /**
     * The literal that input field {@code field} holds (a fraction, a separator), through the projections and filters
     * between it and the aggregate.
     */
    private static Literal constant(org.apache.calcite.rel.core.AggregateCall call, RelNode input, int field) {
        RelNode rel = input;
        int at = field;
        while (true) {
            if (rel instanceof Filter filter) {
                rel = filter.getInput();
            } else if (rel instanceof Aggregate aggregate && at < aggregate.getGroupCount()) {
                // A group key (DISTINCT's expansion groups by the arguments first): the input's field it keys on.
                at = aggregate.getGroupSet().nth(at);
                rel = aggregate.getInput();
            } else if (rel instanceof Project project) {
                RexNode e = project.getProjects().get(at);
                if (e instanceof RexLiteral literal) {
                    return literal.isNull() ? new Literal(null, DataType.VARCHAR)
                            : RexLowering.constant(literal, SqlTypes.toTroupe(literal.getType()), StatementClock.utc());
                }
                if (!(e instanceof RexInputRef ref)) {
                    break;
                }
                at = ref.getIndex();
                rel = project.getInput();
            } else {
                break;
            }
        }
        throw new UnsupportedSqlException(call.getAggregation().getName().toLowerCase()
                + " with an argument that is not a constant (" + call + ")");
    }
}
