package io.troupe.operators.sql;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * WHERE's {@code EXISTS}, {@code NOT EXISTS} and {@code IN} subqueries as semi and anti joins, before
 * Calcite removes the others. A subquery qualifies when it is a conjunct of the filter (so that a row is
 * kept only when it is TRUE: IN's NULLs then drop the row as a failed match does) and its correlation with
 * the outer row sits only in the WHERE right under its SELECT: {@code EXISTS (SELECT .. FROM r WHERE
 * r.k = o.k AND r.s <> o.s AND r.d > r.c)} becomes {@code o SEMI JOIN (r WHERE r.d > r.c) ON r.k = o.k AND
 * r.s <> o.s}, the uncorrelated conjuncts staying with r and the correlated ones (with IN's equalities)
 * becoming the join's condition, which the hash join splits into keys and a residual. Calcite's own
 * removal would join the outer rows with an aggregate of r's distinct correlation values (TPC-H q4 grouped
 * 3.8 million lineitem rows by order key to keep 57 thousand orders; q21 read lineitem five times); a semi
 * join reads r once and, built on its smaller side ({@link RelLowering}), keeps the outer rows by match flags.
 * NOT IN (NULL rules a plain anti join does not have), an uncorrelated EXISTS (a constant, better
 * computed once) and anything else are left to Calcite.
 */
final class SemiJoins extends RelShuttleImpl {

    private SemiJoins() {
    }

    /** {@code rel} with every qualifying subquery of its filters, at any depth, as a semi or anti join. */
    static RelNode rewrite(RelNode rel) {
        return rel.accept(new SemiJoins());
    }

    @Override
    public RelNode visit(LogicalFilter filter) {
        Filter visited = (Filter) super.visit(filter);
        RelNode input = visited.getInput();
        List<RexNode> kept = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(visited.getCondition())) {
            RelNode joined = semiJoin(conjunct, input, visited.getVariablesSet());
            if (joined == null) {
                kept.add(conjunct);
            } else {
                input = joined;
            }
        }
        if (input == visited.getInput()) {
            return visited;
        }
        RexBuilder rexBuilder = visited.getCluster().getRexBuilder();
        return kept.isEmpty() ? input
                : visited.copy(visited.getTraitSet(), input, RexUtil.composeConjunction(rexBuilder, kept));
    }

    /** {@code outer} semi or anti joined with the conjunct's subquery, or null when it does not qualify. */
    private static RelNode semiJoin(RexNode conjunct, RelNode outer, Set<CorrelationId> outerVariables) {
        boolean anti = conjunct.isA(SqlKind.NOT);
        RexNode operand = anti ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
        if (!(operand instanceof RexSubQuery subQuery)
                || !(subQuery.isA(SqlKind.EXISTS) || subQuery.isA(SqlKind.IN) && !anti)) {
            return null;
        }
        boolean in = subQuery.isA(SqlKind.IN);
        RelNode rel = subQuery.rel;
        Project select = rel instanceof Project p ? p : null;
        RelNode below = select == null ? rel : select.getInput();
        Filter where = below instanceof Filter f ? f : null;
        RelNode source = where == null ? below : where.getInput();
        if (in && select != null && (select.getProjects().size() != subQuery.getOperands().size()
                || RexUtil.SubQueryFinder.find(select.getProjects()) != null
                || refersTo(select.getProjects(), outerVariables))
                || refersTo(source, outerVariables)) {
            return null;
        }
        // The subquery's own subqueries, correlated to its rows or not, stay with it: only what refers to the
        // outer row moves into the join's condition.
        List<RexNode> local = new ArrayList<>();
        List<RexNode> onOuter = new ArrayList<>();
        for (RexNode c : where == null ? List.<RexNode>of() : RelOptUtil.conjunctions(where.getCondition())) {
            (refersTo(List.of(c), outerVariables) ? onOuter : local).add(c);
        }
        if (!in && onOuter.isEmpty() || RexUtil.SubQueryFinder.find(onOuter) != null) {
            return null;
        }
        int outerCount = outer.getRowType().getFieldCount();
        RexBuilder rexBuilder = outer.getCluster().getRexBuilder();
        ToJoinCondition toJoin = new ToJoinCondition(rexBuilder, outerVariables, outerCount);
        List<RexNode> condition = new ArrayList<>();
        for (RexNode c : onOuter) {
            RexNode rewritten = c.accept(toJoin);
            if (toJoin.foreign) {
                return null;
            }
            condition.add(rewritten);
        }
        if (in) {
            for (int i = 0; i < subQuery.getOperands().size(); i++) {
                RexNode inner = select == null ? rexBuilder.makeInputRef(source, i) : select.getProjects().get(i);
                condition.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
                        subQuery.getOperands().get(i), RexUtil.shift(inner, outerCount)));
            }
        }
        RelNode inner = rewrite(local.isEmpty() ? source
                : where.copy(where.getTraitSet(), source, RexUtil.composeConjunction(rexBuilder, local)));
        return LogicalJoin.create(outer, inner, List.of(), RexUtil.composeConjunction(rexBuilder, condition),
                Set.of(), anti ? JoinRelType.ANTI : JoinRelType.SEMI);
    }

    /** Whether any of {@code expressions}, or a subquery in one, refers to a row of {@code variables}. */
    private static boolean refersTo(List<RexNode> expressions, Set<CorrelationId> variables) {
        Finder finder = new Finder(variables);
        for (RexNode e : expressions) {
            finder.accept(e);
        }
        return finder.found;
    }

    /** Whether any expression of {@code rel}'s tree, or of a subquery in one, refers to a row of {@code variables}. */
    private static boolean refersTo(RelNode rel, Set<CorrelationId> variables) {
        Finder finder = new Finder(variables);
        finder.go(rel);
        return finder.found;
    }

    /** Looks for references to the rows of some correlation variables, into subqueries and their inputs. */
    private static final class Finder extends RelVisitor {
        private final Set<CorrelationId> variables;
        private final RexShuttle expressions = new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                found |= variables.contains(variable.id);
                return variable;
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                go(subQuery.rel);
                return super.visitSubQuery(subQuery);
            }
        };
        boolean found;

        Finder(Set<CorrelationId> variables) {
            this.variables = variables;
        }

        RexNode accept(RexNode e) {
            return e.accept(expressions);
        }

        @Override
        public void visit(RelNode node, int ordinal, RelNode parent) {
            node.accept(expressions);
            super.visit(node, ordinal, parent);
        }
    }

    /**
     * A correlated conjunct as a join condition: the outer row's fields ({@code $cor0.f}) become the join's
     * left fields, the subquery's own shift past them. {@link #foreign} tells of a correlation to a row
     * further out, which a join with this outer input cannot see.
     */
    private static final class ToJoinCondition extends RexShuttle {
        private final RexBuilder rexBuilder;
        private final Set<CorrelationId> outerVariables;
        private final int outerCount;
        boolean foreign;

        ToJoinCondition(RexBuilder rexBuilder, Set<CorrelationId> outerVariables, int outerCount) {
            this.rexBuilder = rexBuilder;
            this.outerVariables = outerVariables;
            this.outerCount = outerCount;
        }

        @Override
        public RexNode visitFieldAccess(RexFieldAccess access) {
            if (access.getReferenceExpr() instanceof RexCorrelVariable variable) {
                if (!outerVariables.contains(variable.id)) {
                    foreign = true;
                    return access;
                }
                return rexBuilder.makeInputRef(access.getType(), access.getField().getIndex());
            }
            return super.visitFieldAccess(access);
        }

        @Override
        public RexNode visitCorrelVariable(RexCorrelVariable variable) {
            foreign = true;
            return variable;
        }

        @Override
        public RexNode visitInputRef(RexInputRef ref) {
            return rexBuilder.makeInputRef(ref.getType(), ref.getIndex() + outerCount);
        }
    }
}
