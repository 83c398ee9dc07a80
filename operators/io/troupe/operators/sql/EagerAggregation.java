package io.troupe.operators.sql;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.ImmutableIntList;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Grouping before a join (eager aggregation, Yan and Larson): an aggregate over an inner equi-join one of whose
 * sides is a table, unfiltered and unique on its join keys (a dimension joined on its key: it matches each row of
 * the other side at most once), and whose functions read only the other side, groups that other side first, by its
 * join keys and its own share of the group keys; the groups join, and are grouped again by the statement's keys. TPC-DS q4 and q11 sum a year of
 * store_sales per customer's id, names, login and e-mail: 550,000 sales rows probed customer's hash table and were
 * grouped by eight keys, seven of them strings; grouped first by ss_customer_sk and d_year, some 38,000 groups do.
 *
 * <p>SUM, MIN and MAX split into themselves, COUNT into a SUM of the partial counts; the rewrite is made only
 * where the statement groups by something (a COUNT of no rows is 0, a SUM of no partial counts NULL), and where
 * the first grouping is estimated to leave at most half its input's rows ({@link #MAX_SHARE}) and the join to
 * keep at least half of them ({@link #MIN_KEPT}). The result has the aggregate's columns, types and rows. Stateless.
 */
final class EagerAggregation extends RelHomogeneousShuttle {

    /**
     * The first grouping must leave at most this share of its input's rows. Per row of the many side, grouping
     * first costs a grouping, and a probe and a grouping for each group it leaves; not grouping first, a probe and
     * a grouping: even where both cost the same, the first grouping pays below half (the keys the statement groups
     * by are often the wider: names, strings).
     */
    private static final double MAX_SHARE = 0.5;

    /**
     * The join must keep at least this share of the many side's rows: one that filters them (TPC-DS q5's two weeks
     * of date_dim keep 2% of a channel's sales and returns) leaves fewer rows to group after it than before.
     */
    private static final double MIN_KEPT = 0.5;

    private static final Set<SqlKind> SPLITTABLE = Set.of(SqlKind.SUM, SqlKind.COUNT, SqlKind.MIN, SqlKind.MAX);

    private EagerAggregation() {
    }

    static RelNode rewrite(RelNode rel) {
        return rel.accept(new EagerAggregation());
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other);
        if (rel instanceof Aggregate aggregate && splittable(aggregate)) {
            RelNode eager = eager(aggregate);
            return eager == null ? rel : eager;
        }
        return rel;
    }

    private static boolean splittable(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getGroupCount() == 0) {
            return false;
        }
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (call.isDistinct() || call.filterArg >= 0 || !call.collation.getFieldCollations().isEmpty()
                    || !SPLITTABLE.contains(call.getAggregation().getKind())) {
                return false;
            }
        }
        return true;
    }

    /** The aggregate grouped before its join, or null where it does not qualify. */
    private static RelNode eager(Aggregate aggregate) {
        // The aggregate's input columns as expressions over the join, through the projections between them.
        RelNode below = aggregate.getInput();
        List<RexNode> columns = null;
        while (below instanceof Project project) {
            columns = columns == null ? project.getProjects() : RelOptUtil.pushPastProject(columns, project);
            below = project.getInput();
        }
        if (!(below instanceof Join join)) {
            return null;
        }
        if (columns == null) {
            columns = join.getCluster().getRexBuilder().identityProjects(join.getRowType());
        }
        if (join.getJoinType() != JoinRelType.INNER) {
            return null;
        }
        JoinInfo info = join.analyzeCondition();
        if (!info.isEqui() || info.leftKeys.isEmpty()) {
            return null;
        }
        RelMetadataQuery mq = join.getCluster().getMetadataQuery();
        for (boolean manyLeft : new boolean[] {true, false}) {
            RelNode one = manyLeft ? join.getRight() : join.getLeft();
            ImmutableIntList oneKeys = manyLeft ? info.rightKeys : info.leftKeys;
            if (unfilteredScan(one) && Boolean.TRUE.equals(mq.areColumnsUnique(one, ImmutableBitSet.of(oneKeys)))) {
                RelNode eager = new Split(aggregate, join, columns, info, manyLeft).rewrite(mq);
                if (eager != null) {
                    return eager;
                }
            }
        }
        return null;
    }

    /**
     * A table as it is, or projected: joined on its key, it keeps the rows of the other side whose key it has (the
     * dimension of a star schema). A filtered one keeps what its filter does, which the estimates through a UNION
     * (TPC-DS q5's sales and returns) do not see.
     */
    private static boolean unfilteredScan(RelNode rel) {
        RelNode below = rel;
        while (below instanceof Project project) {
            below = project.getInput();
        }
        return below instanceof TableScan;
    }

    /** One try: the aggregate's functions and part of its keys over the join's {@code many} side. */
    private static final class Split {
        private final Aggregate aggregate;
        private final Join join;
        private final List<RexNode> columns;
        private final boolean manyLeft;
        private final RelNode many;
        private final RelNode one;
        private final ImmutableIntList manyKeys;
        private final ImmutableIntList oneKeys;
        private final int leftCount;

        Split(Aggregate aggregate, Join join, List<RexNode> columns, JoinInfo info, boolean manyLeft) {
            this.aggregate = aggregate;
            this.join = join;
            this.columns = columns;
            this.manyLeft = manyLeft;
            this.many = manyLeft ? join.getLeft() : join.getRight();
            this.one = manyLeft ? join.getRight() : join.getLeft();
            this.manyKeys = manyLeft ? info.leftKeys : info.rightKeys;
            this.oneKeys = manyLeft ? info.rightKeys : info.leftKeys;
            this.leftCount = join.getLeft().getRowType().getFieldCount();
        }

        RelNode rewrite(RelMetadataQuery mq) {
            // The many side's share of the group keys, and the functions' arguments: expressions over it alone.
            List<Integer> manyGroups = new ArrayList<>();
            for (int key : aggregate.getGroupSet()) {
                Boolean side = manySide(columns.get(key));
                if (side == null) {
                    return null;
                }
                if (side) {
                    manyGroups.add(key);
                }
            }
            List<RexNode> arguments = new ArrayList<>();
            for (AggregateCall call : aggregate.getAggCallList()) {
                for (int arg : call.getArgList()) {
                    if (!Boolean.TRUE.equals(manySide(columns.get(arg)))) {
                        return null;
                    }
                    arguments.add(columns.get(arg));
                }
            }
            RelBuilder b = RelFactories.LOGICAL_BUILDER.create(aggregate.getCluster(), null);
            List<RexNode> partialColumns = new ArrayList<>();
            b.push(many);
            manyKeys.forEach(k -> partialColumns.add(b.field(k)));
            manyGroups.forEach(g -> partialColumns.add(onMany(columns.get(g))));
            arguments.forEach(a -> partialColumns.add(onMany(a)));
            b.project(partialColumns);
            int keyCount = manyKeys.size() + manyGroups.size();
            List<RelBuilder.AggCall> partialCalls = new ArrayList<>();
            int next = keyCount;
            for (AggregateCall call : aggregate.getAggCallList()) {
                List<RexNode> args = new ArrayList<>();
                for (int i = 0; i < call.getArgList().size(); i++) {
                    args.add(b.field(next++));
                }
                partialCalls.add(b.aggregateCall(call.getAggregation(), args));
            }
            b.aggregate(b.groupKey(ImmutableBitSet.range(keyCount)), partialCalls);
            RelNode partial = b.build();
            Double groups = mq.getRowCount(partial);
            Double rows = mq.getRowCount(many);
            Double kept = mq.getRowCount(join);
            if (groups == null || rows == null || kept == null || groups > MAX_SHARE * rows
                    || kept < MIN_KEPT * rows) {
                return null;
            }
            // partial JOIN one, each side where the join had it: the partial's keys are its first fields.
            int partialCount = partial.getRowType().getFieldCount();
            int oneCount = one.getRowType().getFieldCount();
            b.push(manyLeft ? partial : one).push(manyLeft ? one : partial);
            List<RexNode> on = new ArrayList<>();
            for (int k = 0; k < manyKeys.size(); k++) {
                on.add(b.equals(b.field(2, manyLeft ? 0 : 1, k), b.field(2, manyLeft ? 1 : 0, oneKeys.get(k))));
            }
            b.join(JoinRelType.INNER, on);
            int partialAt = manyLeft ? 0 : oneCount;
            int oneAt = manyLeft ? partialCount : 0;
            // The statement's keys over the joined groups, then the partial results; grouped again.
            List<RexNode> top = new ArrayList<>();
            int manyGroup = manyKeys.size();
            for (int key : aggregate.getGroupSet()) {
                top.add(manyGroups.contains(key) ? b.field(partialAt + manyGroup++) : onOne(columns.get(key), oneAt));
            }
            for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
                top.add(b.field(partialAt + keyCount + i));
            }
            b.project(top);
            int groupCount = aggregate.getGroupCount();
            List<RelBuilder.AggCall> finalCalls = new ArrayList<>();
            for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
                SqlKind kind = aggregate.getAggCallList().get(i).getAggregation().getKind();
                finalCalls.add(b.aggregateCall(kind == SqlKind.COUNT ? SqlStdOperatorTable.SUM
                        : aggregate.getAggCallList().get(i).getAggregation(), b.field(groupCount + i)));
            }
            b.aggregate(b.groupKey(ImmutableBitSet.range(groupCount)), finalCalls);
            return RelOptUtil.createCastRel(b.build(), aggregate.getRowType(), true);
        }

        /** TRUE: over the many side alone (or a constant); FALSE: over the one side alone; null: over both. */
        private Boolean manySide(RexNode expr) {
            ImmutableBitSet used = RelOptUtil.InputFinder.bits(expr);
            if (used.isEmpty()) {
                return true;
            }
            boolean left = used.asList().stream().allMatch(f -> f < leftCount);
            boolean right = used.asList().stream().allMatch(f -> f >= leftCount);
            if (!left && !right) {
                return null;
            }
            return left == manyLeft;
        }

        /** {@code expr}, over the join's many side, as an expression over that side alone. */
        private RexNode onMany(RexNode expr) {
            return manyLeft ? expr : RexUtil.shift(expr, -leftCount);
        }

        /** {@code expr}, over the join's one side, over the new join whose one side starts at {@code oneAt}. */
        private RexNode onOne(RexNode expr, int oneAt) {
            int from = manyLeft ? leftCount : 0;
            return RexUtil.shift(expr, oneAt - from);
        }
    }
}
