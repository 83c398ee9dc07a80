package io.troupe.operators.plan;

import java.util.List;

import static io.troupe.operators.Arguments.notNull;

/**
 * The join regions of a plan built with the Java API, for a cost-based planner to order: a region is a tree of
 * inner joins and filters (not HAVING) over table scans, with at least one join. Inner joins commute and every
 * filter and join condition in it is a predicate over its scans' rows together, so the planner may place each
 * predicate and order the joins as it likes, as long as the region's output has the same columns in the same
 * order. A join over anything else (an aggregate, a projection, an outer join) runs as written; regions inside
 * its inputs are still found. Shared subplans ({@link Plan#share}) are left as they are.
 *
 * <p>{@link #rewrite} walks the plan top down and hands each largest region to an {@link Orderer}, which returns
 * its plan or null to keep it as written; the rest of the plan is rebuilt around them. Stateless; threadsafe.
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
         */
        Plan order(Node region);
    }

    private JoinRegions() {
    }

    /** {@code plan} with each of its largest join regions replaced by the plan {@code orderer} makes of it. */
    public static Plan rewrite(Plan plan, Orderer orderer) {
        notNull(plan, "JoinRegions.rewrite", "plan");
        notNull(orderer, "JoinRegions.rewrite", "orderer");
        return new ParameterBinding(List.of(), node -> {
            Node region = hasJoin(node) ? region(node) : null;
            return region == null ? null : orderer.order(region);
        }).plan(plan);
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
