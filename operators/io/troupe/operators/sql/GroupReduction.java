package io.troupe.operators.sql;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.List;
import java.util.Set;

/**
 * An aggregate that an inner join matches by one of its group keys aggregates only the rows whose key
 * the join's other side has: {@code X JOIN (SELECT k, agg(..) FROM r GROUP BY k) a ON a.k = X.y} becomes
 * {@code X JOIN (SELECT k, agg(..) FROM (r SEMI JOIN X ON r.k = X.y) GROUP BY k) a ON ...}. Every group
 * the join keeps has all its rows still (they share the key), and a group whose key X lacks could match
 * nothing. This is the magic set of a decorrelated subquery (after DuckDB's delim join): TPC-H q17's
 * correlated {@code avg(l_quantity)} per part decorrelates into an average over all of lineitem's 200,000
 * parts joined with the 200 parts of one brand and container; the semi join cuts the 6 million rows to be
 * grouped to about 6,000 for the price of probing a 200-row hash table. X is computed twice, so the rewrite
 * is made only when X is estimated at most a quarter of the aggregate's groups, and X holds no aggregate and
 * no join but semi and anti ones (scans, filtered, projected or semi joined: cheap to read again; q20's
 * partsupp of the 'forest' parts reduces the sums of a year of lineitem by part and supplier).
 */
final class GroupReduction extends RelHomogeneousShuttle {

    /** X at most this share of the aggregate's groups: the semi join must cut most of them to pay. */
    private static final double MAX_SHARE = 0.25;

    private GroupReduction() {
    }

    static RelNode rewrite(RelNode rel) {
        return rel.accept(new GroupReduction());
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other);
        if (!(rel instanceof Join join) || join.getJoinType() != JoinRelType.INNER) {
            return rel;
        }
        RelNode left = reduced(join, true);
        RelNode right = reduced(join, false);
        if (left == join.getLeft() && right == join.getRight()) {
            return rel;
        }
        return join.copy(join.getTraitSet(), join.getCondition(), left, right, join.getJoinType(),
                join.isSemiJoinDone());
    }

    /** The join's left (or right) input, its rows reduced by the other side's keys when it qualifies. */
    private static RelNode reduced(Join join, boolean left) {
        RelNode side = left ? join.getLeft() : join.getRight();
        RelNode other = left ? join.getRight() : join.getLeft();
        if (!(side instanceof Aggregate aggregate) || aggregate.getGroupType() != Aggregate.Group.SIMPLE
                || !plain(other)) {
            return side;
        }
        RelMetadataQuery mq = join.getCluster().getMetadataQuery();
        Double groups = mq.getRowCount(aggregate);
        Double keys = mq.getRowCount(other);
        if (groups == null || keys == null || keys > groups * MAX_SHARE) {
            return side;
        }
        int leftCount = join.getLeft().getRowType().getFieldCount();
        for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
            RexNode[] pair = keyPair(conjunct, left, leftCount, aggregate.getGroupCount());
            if (pair != null) {
                return aggregate.copy(aggregate.getTraitSet(), List.of(semiJoin(aggregate, other, pair)));
            }
        }
        return side;
    }

    /**
     * Of {@code a = b}: the aggregate's group key (as a field of its input) and the other side's expression
     * (as a field of the other side), or null when the conjunct is not such an equality.
     */
    private static RexNode[] keyPair(RexNode conjunct, boolean aggregateLeft, int leftCount, int groupCount) {
        if (conjunct.getKind() != SqlKind.EQUALS) {
            return null;
        }
        List<RexNode> sides = ((RexCall) conjunct).getOperands();
        for (int i = 0; i < 2; i++) {
            if (sides.get(i) instanceof RexInputRef ref) {
                int field = aggregateLeft ? ref.getIndex() : ref.getIndex() - leftCount;
                RexNode otherSide = sides.get(1 - i);
                Set<Integer> used = RelOptUtil.InputFinder.bits(otherSide).asSet();
                boolean otherOnly = aggregateLeft ? used.stream().allMatch(f -> f >= leftCount)
                        : used.stream().allMatch(f -> f < leftCount);
                if (field >= 0 && field < groupCount && !used.isEmpty() && otherOnly) {
                    return new RexNode[] {ref, aggregateLeft ? RexUtil.shift(otherSide, -leftCount) : otherSide};
                }
            }
        }
        return null;
    }

    /** The aggregate's input semi joined with {@code other} on the pair's key and expression. */
    private static RelNode semiJoin(Aggregate aggregate, RelNode other, RexNode[] pair) {
        RelNode input = aggregate.getInput();
        RexBuilder rexBuilder = aggregate.getCluster().getRexBuilder();
        int key = aggregate.getGroupSet().nth(((RexInputRef) pair[0]).getIndex());
        RexNode condition = rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, rexBuilder.makeInputRef(input, key),
                RexUtil.shift(pair[1], input.getRowType().getFieldCount()));
        return LogicalJoin.create(input, other, List.of(), condition, Set.of(), JoinRelType.SEMI);
    }

    /** Scans, filtered, projected or semi joined: no aggregate, nor a join that multiplies rows, to compute twice. */
    private static boolean plain(RelNode rel) {
        if (rel instanceof Join join && join.getJoinType().projectsRight() || rel instanceof Aggregate) {
            return false;
        }
        for (RelNode input : rel.getInputs()) {
            if (!plain(input)) {
                return false;
            }
        }
        return true;
    }
}
