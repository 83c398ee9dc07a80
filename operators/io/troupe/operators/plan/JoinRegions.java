package io.troupe.operators.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static io.troupe.operators.Arguments.notNull;

/**
 * The join regions of a plan built with the Java API, for a cost-based planner to order: a region is a tree of
 * inner joins and filters (not HAVING) over table scans, with at least one join. Inner joins commute and every
 * filter and join condition in it is a predicate over its scans' rows together, so the planner may place each
 * predicate and order the joins as it likes, as long as the region's output has the same columns in the same
 * order. A join over anything else (an aggregate, a projection, an outer join) runs as written; regions inside
 * its inputs are still found. Shared subplans ({@link Plan#share}) are left as they are, and so is a pinned
 * subplan ({@link Plan#pin}).
 *
 * <p>{@link #rewrite} walks the plan top down and hands each largest region to an {@link Orderer}, which returns
 * its plan or null to keep it as written; the rest of the plan is rebuilt around them. Where every row of a region
 * reaches a projection or an aggregate before the plan's output, through nodes that read only the columns they
 * name (filters, joins, sorts, limits, aliases, windows; not a DISTINCT or a UNION ALL, which read every column),
 * the region may keep only the columns that some expression of the plan names: the orderer is told their names,
 * SQL's column pruning for a plan whose scans carry every column. Stateless; threadsafe.
 */
public final class JoinRegions {

    /** A node of a region, as the Java API wrote it. */
    public sealed interface Node permits Scan, Filter, Join {
    }

    /** A table scan: {@code plan} is the scan node itself, whose columns are {@code alias.column}. */
    public record Scan(Plan plan, String table, String alias) implements Node {
    }

    /** A filter of {@code input}'s rows. */
    public record Filter(Node input, Expr predicate) implements Node {
    }

    /** An inner hash join, {@code right} the build side as written. */
    public record Join(Node left, Node right, Expr on) implements Node {
    }

    /** Plans one region. */
    @FunctionalInterface
    public interface Orderer {

        /**
         * A plan of {@code region} with the same output (columns, their names and order, and rows), or null to
         * run the region as written.
         *
         * @param named the names (lower case, without qualifier) of the columns that the plan's expressions
         *              name, of which alone the output may keep those the region has, in their order; null when
         *              the output must keep every column
         */
        Plan order(Node region, Set<String> named);
    }

    private JoinRegions() {
    }

    /** {@code plan} with each of its largest join regions replaced by the plan {@code orderer} makes of it. */
    public static Plan rewrite(Plan plan, Orderer orderer) {
        notNull(plan, "JoinRegions.rewrite", "plan");
        notNull(orderer, "JoinRegions.rewrite", "orderer");
        Set<String> named = new HashSet<>();
        Set<Plan> narrowable = Collections.newSetFromMap(new IdentityHashMap<>());
        walk(plan, false, named, narrowable);
        return new ParameterBinding(List.of(), node -> {
            if (node instanceof PinnedNode) {
                return node;
            }
            Node region = hasJoin(node) ? region(node) : null;
            return region == null ? null : orderer.order(region, narrowable.contains(node) ? named : null);
        }).plan(plan);
    }

    /**
     * Collects the column names that {@code node}'s expressions and its subtree's name, and the nodes whose columns
     * reach a projection or an aggregate ({@code projected}) through nodes that read only the columns they name.
     * A shared subplan's nodes are not narrowable; their names are collected all the same.
     */
    private static void walk(Plan node, boolean projected, Set<String> named, Set<Plan> narrowable) {
        if (projected) {
            narrowable.add(node);
        }
        for (Expr e : expressions(node)) {
            names(e, named);
        }
        boolean below = node instanceof ProjectNode || node instanceof AggregateNode
                || projected && (node instanceof FilterNode || node instanceof JoinNode || node instanceof SortNode
                || node instanceof LimitNode || node instanceof AliasNode || node instanceof WindowNode);
        for (Plan child : node.children()) {
            walk(child, below, named, narrowable);
        }
        if (node instanceof CteScanNode scan) {
            walk(scan.cte(), false, named, narrowable);
        }
    }

    private static List<Expr> expressions(Plan node) {
        List<Expr> found = new ArrayList<>();
        if (node instanceof FilterNode filter) {
            found.add(filter.predicate());
        } else if (node instanceof ProjectNode project) {
            found.addAll(project.columns());
        } else if (node instanceof JoinNode join) {
            found.add(join.on());
        } else if (node instanceof AggregateNode aggregate) {
            found.addAll(aggregate.groupBy());
            found.addAll(aggregate.aggregates());
        } else if (node instanceof SortNode sort) {
            sort.keys().forEach(k -> found.add(k.expr()));
        } else if (node instanceof WindowNode window) {
            found.addAll(window.partitionBy());
            window.orderBy().forEach(k -> found.add(k.expr()));
            found.addAll(window.functions());
        }
        return found;
    }

    private static void names(Expr e, Set<String> named) {
        if (e instanceof ColumnRef ref) {
            String reference = ref.reference();
            named.add(reference.substring(reference.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT));
        }
        for (Expr child : e.children()) {
            names(child, named);
        }
    }

    private static boolean hasJoin(Plan node) {
        return node instanceof JoinNode || node instanceof FilterNode && hasJoin(node.children().get(0));
    }

    /** The region rooted at {@code node}, or null when something under it is not a scan, a filter or an inner join. */
    private static Node region(Plan node) {
        if (node instanceof ScanNode scan) {
            return new Scan(scan, scan.table(), scan.alias());
        }
        if (node instanceof FilterNode filter && !filter.isHaving()) {
            Node input = region(filter.children().get(0));
            return input == null ? null : new Filter(input, filter.predicate());
        }
        if (node instanceof JoinNode join && join.type() == JoinType.INNER) {
            Node left = region(join.children().get(0));
            Node right = left == null ? null : region(join.children().get(1));
            return right == null ? null : new Join(left, right, join.on());
        }
        return null;
    }
}
