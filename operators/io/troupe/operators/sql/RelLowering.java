package io.troupe.operators.sql;

import io.troupe.operators.expr.Function;
import io.troupe.operators.plan.Call;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Literal;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.Util;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Lowers Calcite's logical relations into Troupe's plan nodes, the same the Java API builds: scan, filter,
 * project, hash join (inner, left, right, full, semi, anti) on equalities and a residual, aggregate, sort,
 * limit/offset, union [all], window ({@link WindowLowering}), values. Calcite addresses fields by position and
 * Troupe by name, so each lowered relation comes with one column reference per field, made unique by a fresh
 * alias over the node (a table's scan keeps its name where it is read once). Anything else is refused as
 * "unsupported in SQL".
 */
final class RelLowering {

    /** A lowered relation: the plan and how to name each of its fields, in Calcite's order. */
    private record Lowered(Plan plan, List<String> columns) {
    }

    private final Set<String> aliases = new HashSet<>();
    /** The recursive unions whose recursive term is being lowered, for the scans of their work tables. */
    private final Recursions recursions = new Recursions();
    /**
     * A Java plan's join region ({@link PlanOptimizer}): each scan's plan by the names of its columns, which
     * its relation is a projection of, naming them; empty for a statement.
     */
    private final Map<String, Plan> leaves;
    /** The type of each parameter ({@code ?}) met, by 1-based position. */
    private final Map<Integer, DataType> parameters = new TreeMap<>();
    /** The statement's time zone and instant. */
    private final StatementClock clock;

    /** A lowering of a statement's relations, in the session's time zone {@code zone}, as of now. */
    RelLowering(ZoneId zone) {
        this(Map.of(), StatementClock.now(zone));
    }

    /**
     * A lowering of a Java plan's join region whose scans are the projections naming their columns as keyed in
     * {@code leaves}: each becomes that plan, and a projection that only reorders columns becomes no node, so
     * that every column keeps its own name and qualifier.
     */
    RelLowering(Map<String, Plan> leaves, StatementClock clock) {
        this.leaves = leaves;
        this.clock = clock;
    }

    /**
     * The plan of a Java plan's join region ({@link #RelLowering(Map, StatementClock)}) whose columns are {@code names}, in order.
     *
     * @throws UnsupportedSqlException when the region lost a scan (Calcite removes a self-join on a unique key,
     *                                 reading the other scan's columns twice)
     */
    Plan lowerRegion(RelNode rel, List<String> names) {
        Lowered top = lower(rel);
        if (!top.columns.equals(names)) {
            throw new UnsupportedSqlException("a Java plan's join region without one of its scans");
        }
        return top.plan.project(top.columns.stream().map(Expr::col).toArray(Expr[]::new));
    }

    /** The type of each parameter of the relations lowered so far, by 1-based position. */
    Map<Integer, DataType> parameters() {
        return parameters;
    }

    /** The plan of {@code rel}, its output columns named {@code names}: a projection on top does the naming. */
    Plan lower(RelNode rel, List<String> names) {
        Expr[] output = new Expr[names.size()];
        if (rel instanceof Project project) {
            Lowered in = lower(project.getInput());
            for (int i = 0; i < output.length; i++) {
                output[i] = rex(in, project, project.getProjects().get(i)).as(names.get(i));
            }
            return in.plan.project(output);
        }
        Lowered top = lower(rel);
        for (int i = 0; i < output.length; i++) {
            output[i] = Expr.col(top.columns.get(i)).as(names.get(i));
        }
        return top.plan.project(output);
    }

    private Lowered lower(RelNode rel) {
        if (!leaves.isEmpty() && rel instanceof Project project && reordersOnly(project)) {
            List<String> names = project.getRowType().getFieldNames();
            Plan leaf = leaves.get(names.get(0));
            if (project.getInput() instanceof TableScan && leaf != null) {
                return new Lowered(leaf, names);
            }
            Lowered in = lower(project.getInput());
            List<String> columns = new ArrayList<>();
            for (RexNode e : project.getProjects()) {
                columns.add(in.columns.get(((RexInputRef) e).getIndex()));
            }
            return new Lowered(in.plan, columns);
        }
        if (!leaves.isEmpty() && !(rel instanceof Filter) && !(rel instanceof Join)) {
            // A region's columns keep their names only through filters, joins and reorderings.
            throw new UnsupportedSqlException(what(rel) + " in a Java plan's join region");
        }
        if (rel instanceof TableScan scan) {
            Recursions.WorkTable workTable = recursions.workTable(scan);
            return workTable != null ? aliased(workTable.plan(), workTable.union()) : scan(scan);
        }
        if (rel instanceof RepeatUnion union) {
            return aliased(recursions.lower(union, this::named), union);
        }
        if (rel instanceof Filter filter) {
            Lowered in = lower(filter.getInput());
            return new Lowered(in.plan.filter(rex(in, filter, filter.getCondition())), in.columns);
        }
        if (rel instanceof Project project) {
            Lowered in = lower(project.getInput());
            List<RexNode> exprs = project.getProjects();
            List<Expr> out = new ArrayList<>();
            for (int i = 0; i < exprs.size(); i++) {
                out.add(rex(in, project, exprs.get(i)).as(name(project, i)));
            }
            return aliased(in.plan.project(out.toArray(Expr[]::new)), project);
        }
        if (rel instanceof Join join) {
            return join(join);
        }
        if (rel instanceof Aggregate aggregate) {
            return aggregate(aggregate);
        }
        if (rel instanceof Sort sort) {
            return sort(sort);
        }
        if (rel instanceof Union union) {
            return union(union);
        }
        if (rel instanceof Window window) {
            Lowered in = lower(window.getInput());
            return aliased(WindowLowering.lower(in.plan, in.columns, window, parameters), window);
        }
        if (rel instanceof Values values) {
            return values(values);
        }
        if (rel instanceof TableFunctionScan series) {
            return aliased(SeriesFunctions.lower(series, e -> rex(new Lowered(null, List.of()), series, e)), series);
        }
        throw new UnsupportedSqlException(what(rel));
    }

    private static boolean reordersOnly(Project project) {
        return project.getProjects().stream().allMatch(e -> e instanceof RexInputRef);
    }

    private Lowered scan(TableScan scan) {
        String table = Util.last(scan.getTable().getQualifiedName());
        String alias = table;
        for (int n = 2; !aliases.add(alias.toLowerCase(Locale.ROOT)); n++) {
            alias = table + "$" + n;
        }
        List<String> columns = new ArrayList<>();
        for (String field : scan.getRowType().getFieldNames()) {
            columns.add(alias + "." + field);
        }
        return new Lowered(Plan.scan(table).as(alias), columns);
    }

    /**
     * A hash join on the conjuncts that equate an expression over the left input with one over the right;
     * the other conjuncts are its residual, which decides with the keys which pairs match (so an outer, semi
     * or anti join keeps SQL's ON semantics). A join with no such equality (a cross join, an inequality, the
     * single row of an uncorrelated scalar subquery or of NOT IN's counts) hashes on the constant 0: every
     * build row is in one chain, which each probe row walks, so it is a nested loop over the build side:
     * meant for a small one. A semi or anti join builds on its smaller input by the statistics: when that is
     * the left one (the rows to keep), it becomes a RIGHT_SEMI or RIGHT_ANTI join probed by the right input.
     */
    private Lowered join(Join join) {
        Lowered left = lower(join.getLeft());
        Lowered right = lower(join.getRight());
        List<String> both = new ArrayList<>(left.columns);
        both.addAll(right.columns);
        Lowered joined = new Lowered(null, both);
        int leftCount = join.getLeft().getRowType().getFieldCount();
        Expr on = null;
        Expr rest = null;
        List<RexNode> conjuncts = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
            conjuncts.addAll(nullSafeKeys(conjunct, join, leftCount));
        }
        for (RexNode conjunct : conjuncts) {
            if (equatesSides(conjunct, leftCount)) {
                Expr key = rex(joined, join, ofOneType((RexCall) conjunct, join));
                on = on == null ? key : on.and(key);
            } else {
                Expr e = rex(joined, join, conjunct);
                rest = rest == null ? e : rest.and(e);
            }
        }
        if (on == null) {
            on = Expr.lit(0).eq(Expr.lit(0));
        }
        if (rest != null) {
            on = on.and(rest);
        }
        JoinType type = switch (join.getJoinType()) {
            case INNER -> JoinType.INNER;
            case LEFT -> JoinType.LEFT;
            case RIGHT -> JoinType.RIGHT;
            case FULL -> JoinType.FULL;
            case SEMI -> JoinType.SEMI;
            case ANTI -> JoinType.ANTI;
            default -> throw new UnsupportedSqlException(join.getJoinType() + " joins");
        };
        if ((type == JoinType.SEMI || type == JoinType.ANTI) && buildsLeft(join)) {
            return new Lowered(right.plan.join(left.plan, type == JoinType.SEMI ? JoinType.RIGHT_SEMI
                    : JoinType.RIGHT_ANTI, on), left.columns);
        }
        return new Lowered(left.plan.join(right.plan, type, on), type.emitsRight() ? both : left.columns);
    }

    /**
     * A key pair {@code a = b} whose sides are numbers of two types, with both cast to the least restrictive of them,
     * as SQL's validator casts a comparison's sides: a Java plan's filter compares a DECIMAL(9,2) with a
     * DECIMAL(4,1) or an INT32 with an INT64 as they are, Calcite pushes it into a join as written, and a hash
     * join's keys are of one type. Any other pair as it is.
     */
    private static RexNode ofOneType(RexCall key, Join join) {
        RexNode a = key.getOperands().get(0);
        RexNode b = key.getOperands().get(1);
        RelDataTypeFactory types = join.getCluster().getTypeFactory();
        if (!SqlTypeUtil.isNumeric(a.getType()) || !SqlTypeUtil.isNumeric(b.getType())
                || SqlTypeUtil.equalSansNullability(types, a.getType(), b.getType())) {
            return key;
        }
        RelDataType common = types.leastRestrictive(List.of(a.getType(), b.getType()));
        RexBuilder rex = join.getCluster().getRexBuilder();
        return rex.makeCall(key.getOperator(), rex.ensureType(common, a, true), rex.ensureType(common, b, true));
    }

    /** Whether the left input is estimated smaller than the right: the side to build the hash table of. */
    private static boolean buildsLeft(Join join) {
        RelMetadataQuery mq = join.getCluster().getMetadataQuery();
        Double left = mq.getRowCount(join.getLeft());
        Double right = mq.getRowCount(join.getRight());
        return left != null && right != null && left < right;
    }

    /**
     * {@code a IS NOT DISTINCT FROM b} between the two inputs (the key of a decorrelated subquery) as two equalities
     * that a hash join matches NULL with NULL on, since neither side is ever NULL: {@code COALESCE(a, 0) =
     * COALESCE(b, 0) AND (a IS NULL) = (b IS NULL)}. Any other conjunct as it is.
     */
    private static List<RexNode> nullSafeKeys(RexNode conjunct, Join join, int leftCount) {
        if (conjunct.getKind() != SqlKind.IS_NOT_DISTINCT_FROM) {
            return List.of(conjunct);
        }
        RexBuilder rex = join.getCluster().getRexBuilder();
        RexNode a = ((RexCall) conjunct).getOperands().get(0);
        RexNode b = ((RexCall) conjunct).getOperands().get(1);
        if (!equatesSides(rex.makeCall(SqlStdOperatorTable.EQUALS, a, b), leftCount)) {
            return List.of(conjunct);
        }
        return List.of(rex.makeCall(SqlStdOperatorTable.EQUALS,
                        rex.makeCall(SqlStdOperatorTable.COALESCE, a, rex.makeZeroLiteral(a.getType())),
                        rex.makeCall(SqlStdOperatorTable.COALESCE, b, rex.makeZeroLiteral(b.getType()))),
                rex.makeCall(SqlStdOperatorTable.EQUALS, rex.makeCall(SqlStdOperatorTable.IS_NULL, a),
                        rex.makeCall(SqlStdOperatorTable.IS_NULL, b)));
    }

    /** True for {@code a = b} with one side over the left input only and the other over the right only. */
    private static boolean equatesSides(RexNode conjunct, int leftCount) {
        if (conjunct.getKind() != SqlKind.EQUALS) {
            return false;
        }
        List<RexNode> sides = ((RexCall) conjunct).getOperands();
        ImmutableBitSet a = RelOptUtil.InputFinder.bits(sides.get(0));
        ImmutableBitSet b = RelOptUtil.InputFinder.bits(sides.get(1));
        return !a.isEmpty() && !b.isEmpty() && (leftOnly(a, leftCount) && rightOnly(b, leftCount)
                || rightOnly(a, leftCount) && leftOnly(b, leftCount));
    }

    private static boolean leftOnly(ImmutableBitSet fields, int leftCount) {
        return fields.length() <= leftCount;
    }

    private static boolean rightOnly(ImmutableBitSet fields, int leftCount) {
        return fields.nextSetBit(0) >= leftCount;
    }

    private Lowered aggregate(Aggregate aggregate) {
        Lowered in = lower(aggregate.getInput());
        if (aggregate.getGroupType() == Aggregate.Group.SIMPLE) {
            return aliased(groupedBy(in, aggregate, aggregate.getGroupSet()), aggregate);
        }
        return aliased(groupingSets(in, aggregate), aggregate);
    }

    /**
     * GROUPING SETS, ROLLUP and CUBE as a UNION ALL of one aggregate per grouping set over the input computed
     * once (a shared subplan): each branch groups by its set, puts a typed NULL in place of every other key, and
     * GROUPING(...) is the branch's constant. Every branch runs in parallel like any aggregate.
     */
    private Plan groupingSets(Lowered in, Aggregate aggregate) {
        Expr[] renamed = new Expr[in.columns.size()];
        List<String> sharedColumns = new ArrayList<>();
        String cte = fresh("grouping");
        for (int i = 0; i < renamed.length; i++) {
            renamed[i] = Expr.col(in.columns.get(i)).as("c" + i);
            sharedColumns.add(cte + ".c" + i);
        }
        Lowered shared = new Lowered(in.plan.project(renamed).share(cte), sharedColumns);
        Plan union = null;
        for (ImmutableBitSet set : aggregate.getGroupSets()) {
            Lowered branch = aliased(groupedBy(shared, aggregate, set), aggregate);
            List<Expr> out = new ArrayList<>();
            int field = 0;
            for (int key : aggregate.getGroupSet()) {
                String name = name(aggregate, field);
                out.add((set.get(key) ? Expr.col(branch.columns.get(field))
                        : new Literal(null, SqlTypes.toTroupe(aggregate.getRowType().getFieldList().get(field).getType())))
                        .as(name));
                field++;
            }
            for (AggregateCall call : aggregate.getAggCallList()) {
                String name = name(aggregate, field);
                out.add((isGrouping(call) ? grouping(call, aggregate, set) : Expr.col(branch.columns.get(field))).as(name));
                field++;
            }
            Plan projected = branch.plan.project(out.toArray(Expr[]::new));
            union = union == null ? projected : union.unionAll(projected);
        }
        return union;
    }

    /** One aggregate of {@code in} grouped by {@code set}: its keys (of {@code set} only) and every call. */
    private Plan groupedBy(Lowered in, Aggregate aggregate, ImmutableBitSet set) {
        List<Expr> keys = new ArrayList<>();
        List<Expr> calls = new ArrayList<>();
        int field = 0;
        for (int key : aggregate.getGroupSet()) {
            if (set.get(key)) {
                keys.add(Expr.col(in.columns.get(key)).as(name(aggregate, field)));
            }
            field++;
        }
        for (AggregateCall call : aggregate.getAggCallList()) {
            // GROUPING(...) is the branch's constant; a placeholder keeps the fields' positions.
            calls.add((isGrouping(call) ? Expr.count() : aggregateCall(in, aggregate, call)).as(name(aggregate, field++)));
        }
        if (keys.isEmpty() && calls.isEmpty()) {
            throw new UnsupportedSqlException("a grouping set of no key and no aggregate (" + aggregate + ")");
        }
        return in.plan.aggregate(keys, calls.toArray(Expr[]::new));
    }

    private static boolean isGrouping(AggregateCall call) {
        return call.getAggregation().getKind() == SqlKind.GROUPING
                || call.getAggregation().getKind() == SqlKind.GROUPING_ID;
    }

    /** GROUPING(a, b, ...) in the branch of {@code set}: a bit per argument, the first the highest, set when the
     * argument is not grouped on there. */
    private static Expr grouping(AggregateCall call, Aggregate aggregate, ImmutableBitSet set) {
        long bits = 0;
        for (int arg : call.getArgList()) {
            bits = bits << 1 | (set.get(arg) ? 0 : 1);
        }
        DataType type = SqlTypes.toTroupe(call.getType());
        return type.id() == TypeId.INT64 ? Expr.lit(bits) : Expr.lit(Math.toIntExact(bits));
    }

    private Expr aggregateCall(Lowered in, Aggregate aggregate, AggregateCall call) {
        if (call.getAggregation().getKind() == SqlKind.LITERAL_AGG) {
            // Its literal for every group (the marker Calcite's IN and NOT IN rewrites join on): every group has a
            // row, so the MAX of the literal is the literal.
            return Expr.max(rex(in, aggregate, call.rexList.get(0)));
        }
        return AggregateLowering.lower(call, aggregate.getInput(), i -> Expr.col(in.columns.get(i)));
    }

    private Lowered sort(Sort sort) {
        Lowered in = lower(sort.getInput());
        Plan plan = in.plan;
        List<RelFieldCollation> order = sort.getCollation().getFieldCollations();
        if (!order.isEmpty()) {
            List<SortKey> keys = new ArrayList<>();
            for (RelFieldCollation c : order) {
                keys.add(sortKey(c, Expr.col(in.columns.get(c.getFieldIndex()))));
            }
            plan = plan.sort(keys.toArray(SortKey[]::new));
        }
        if (sort.fetch != null || sort.offset != null) {
            long offset = sort.offset == null ? 0 : count(sort.offset);
            long fetch = sort.fetch == null ? Long.MAX_VALUE : count(sort.fetch);
            plan = plan.limit(fetch, offset);
        }
        return new Lowered(plan, in.columns);
    }

    /** {@code expr} ordered as {@code c} says; NULLs where PostgreSQL puts them unless it says (last ascending). */
    static SortKey sortKey(RelFieldCollation c, Expr expr) {
        boolean ascending = !c.getDirection().isDescending();
        boolean nullsFirst = switch (c.nullDirection) {
            case FIRST -> true;
            case LAST -> false;
            case UNSPECIFIED -> !ascending;
        };
        return new SortKey(expr, ascending, nullsFirst);
    }

    private static long count(RexNode node) {
        if (!(node instanceof RexLiteral literal)) {
            throw new UnsupportedSqlException("LIMIT or OFFSET by a parameter or an expression (" + node + ")");
        }
        return literal.getValueAs(Long.class);
    }

    /** UNION ALL of the inputs, each projected to the union's field names; UNION without ALL then drops duplicates. */
    private Lowered union(Union union) {
        Plan plan = null;
        for (RelNode input : union.getInputs()) {
            Plan projected = named(input, union);
            plan = plan == null ? projected : plan.unionAll(projected);
        }
        return aliased(union.all ? plan : plan.distinct(), union);
    }

    /**
     * The plan of {@code input}, one input of the set operation {@code set}, projected to {@code set}'s field names,
     * each cast to its field's type where the input's differs (a recursive term that Calcite did not cast itself).
     */
    private Plan named(RelNode input, RelNode set) {
        Lowered in = lower(input);
        Expr[] named = new Expr[in.columns.size()];
        for (int i = 0; i < named.length; i++) {
            Expr column = Expr.col(in.columns.get(i));
            DataType from = SqlTypes.toTroupe(input.getRowType().getFieldList().get(i).getType());
            DataType to = SqlTypes.toTroupe(set.getRowType().getFieldList().get(i).getType());
            named[i] = (from.equals(to) ? column : column.cast(to)).as(name(set, i));
        }
        return in.plan.project(named);
    }

    /** VALUES (and the one row of no column that SELECT without FROM reads): each literal of its column's type. */
    private Lowered values(Values values) {
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (int c = 0; c < values.getRowType().getFieldCount(); c++) {
            names.add(name(values, c));
            types.add(SqlTypes.toTroupe(values.getRowType().getFieldList().get(c).getType()));
        }
        List<List<Literal>> rows = new ArrayList<>();
        for (List<RexLiteral> tuple : values.getTuples()) {
            List<Literal> row = new ArrayList<>();
            for (int c = 0; c < tuple.size(); c++) {
                row.add(RexLowering.constant(tuple.get(c), types.get(c), clock));
            }
            rows.add(row);
        }
        return aliased(Plan.values(names, types, rows), values);
    }

    /** {@code plan} under a fresh alias, its fields named as Calcite names {@code rel}'s. */
    private Lowered aliased(Plan plan, RelNode rel) {
        String alias = fresh("$");
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
            columns.add(alias + "." + name(rel, i));
        }
        return new Lowered(plan.as(alias), columns);
    }

    /** A name of {@code prefix} and a number that no other alias or shared subplan of the statement has. */
    private String fresh(String prefix) {
        for (int n = aliases.size() + 1; ; n++) {
            if (aliases.add(prefix + n)) {
                return prefix + n;
            }
        }
    }

    /**
     * Calcite's name of field {@code i}, any dot replaced (Troupe reads the last dot as the qualifier's end), and
     * {@code $i} added when an earlier field has the name too ({@code SELECT a c1, b c1}): Troupe's names must
     * tell the fields apart.
     */
    private static String name(RelNode rel, int i) {
        List<String> names = rel.getRowType().getFieldNames();
        String name = names.get(i).replace('.', '_');
        for (int j = 0; j < i; j++) {
            if (names.get(j).equalsIgnoreCase(names.get(i))) {
                return name + "$" + i;
            }
        }
        return name;
    }

    private Expr rex(Lowered in, RelNode where, RexNode node) {
        return new RexLowering(in.columns, where.getCluster().getRexBuilder(), parameters, clock).lower(node);
    }

    private static String what(RelNode rel) {
        String kind = rel.getRelTypeName().replaceFirst("^Logical", "");
        return switch (kind) {
            case "Correlate" -> "correlated subqueries that cannot be decorrelated";
            default -> kind;
        };
    }
}
