package io.troupe.operators.sql;

import org.apache.calcite.plan.RelOptListener;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinCommuteRule;
import org.apache.calcite.tools.RelBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Set;

/**
 * The cost-based phase of {@link SqlPlanner}, run once filters are pushed down: each tree of inner joins
 * becomes one multi-join that Calcite's {@code LoptOptimizeJoinRule} orders by estimated rows (from
 * {@link StatisticsMetadata}), left-deep, the largest input probing; two hash tables that a probe side
 * meets one after the other are put in the order of lower probe cost ({@link ProbeOrder}); then every
 * join whose left input is estimated smaller than its right is swapped, so that the smaller is the hash
 * table Troupe builds (the right input), a LEFT join becoming a RIGHT one and the other way round. Semi
 * and anti joins keep their sides. The phase has a time bound: past it, the statement keeps its joins as written (with filters still
 * pushed down), and a warning in the log says so. The bound is for the search alone: the clock starts once the
 * tables' statistics are read (a table's first use scans it) and Calcite is warm ({@link PlannerWarmUp}).
 * Stateless; threadsafe.
 */
final class JoinOrdering {

    private static final Logger LOG = LoggerFactory.getLogger(JoinOrdering.class);

    /** What the bound cuts short: Calcite would otherwise go on as long as it takes. */
    private static final class OutOfTime extends RuntimeException {
        OutOfTime() {
            super(null, null, false, false);
        }
    }

    private static final HepProgram MULTI_JOIN = new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
            .build();

    private static final Set<JoinRelType> SWAPPABLE = Set.of(JoinRelType.INNER, JoinRelType.LEFT,
            JoinRelType.RIGHT, JoinRelType.FULL);

    private JoinOrdering() {
    }

    /**
     * {@code rel} with its joins ordered and their build sides chosen, or as it is when that takes past
     * {@code limit}.
     */
    static RelNode order(RelNode rel, Duration limit) {
        PlannerWarmUp.await();
        readStatistics(rel);
        long deadline = System.nanoTime() + limit.toNanos();
        HepPlanner planner = new HepPlanner(MULTI_JOIN);
        planner.addListener(new Deadline(deadline));
        planner.setRoot(rel);
        try {
            RelNode ordered = planner.findBestExp();
            check(deadline);
            return ordered.accept(new ProbeOrder()).accept(new BuildSides(deadline));
        } catch (OutOfTime e) {
            LOG.warn("[sql] join ordering took past its bound of [{}] ms: the joins run as written",
                    limit.toMillis());
            return rel;
        }
    }

    private static void readStatistics(RelNode rel) {
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (node instanceof TableScan scan) {
                    StatisticsMetadata.of(scan);
                }
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
    }

    private static void check(long deadline) {
        if (System.nanoTime() - deadline > 0) {
            throw new OutOfTime();
        }
    }

    /** Each join's smaller estimated input on the right, the build side; bottom up. */
    private static final class BuildSides extends RelHomogeneousShuttle {
        private final long deadline;

        BuildSides(long deadline) {
            this.deadline = deadline;
        }

        @Override
        public RelNode visit(RelNode other) {
            RelNode rel = super.visit(other);
            check(deadline);
            if (rel instanceof Join join && SWAPPABLE.contains(join.getJoinType())) {
                RelMetadataQuery mq = join.getCluster().getMetadataQuery();
                if (mq.getRowCount(join.getLeft()) < mq.getRowCount(join.getRight())) {
                    RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(join.getCluster(), null);
                    RelNode swapped = JoinCommuteRule.swap(join, true, builder);
                    return swapped == null ? rel : swapped;
                }
            }
            return rel;
        }
    }

    /** Stops the planner at the first rule it tries past the deadline. */
    private record Deadline(long deadline) implements RelOptListener {
        @Override
        public void ruleAttempted(RuleAttemptedEvent event) {
            check(deadline);
        }

        @Override
        public void relEquivalenceFound(RelEquivalenceEvent event) {
        }

        @Override
        public void ruleProductionSucceeded(RuleProductionEvent event) {
        }

        @Override
        public void relDiscarded(RelDiscardedEvent event) {
        }

        @Override
        public void relChosen(RelChosenEvent event) {
        }
    }
}
