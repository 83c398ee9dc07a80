package io.troupe.operators.plan;

import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.table.Table;

import java.util.List;
import java.util.Optional;

/**
 * Where a plan's rows sit across the nodes of a spread query when they sit by a hash: each node holds
 * those whose {@code column} (of the plan's output) hashes to its part of a table partitioned by that
 * column ({@link Table.Part}), nothing having moved them since the scan. Rows placed so need no
 * Repartition by a key that includes the column: equal keys are on one node already. Two inputs placed
 * by the same number of parts, at the same part on this node, by columns of one type, are co-located on
 * those columns: equal values hash to the same part in both (every node checks its own parts; a node that
 * judges otherwise plans otherwise and refuses its part, so the query fails, never its rows).
 *
 * @param column the output column the rows are placed by
 * @param part   this node's part
 */
record HashPlacement(int column, Table.Part part) {

    /**
     * Where the rows of {@code input} go to be grouped by {@code keys} (an aggregate's, a DISTINCT's): in a
     * spread query, nowhere when the input sits by one of the keys already, else {@link ExchangeKind#grouped}.
     */
    static ExchangeKind grouping(PlanCompiler compiler, Plan input, List<Expression> keys) {
        if (compiler.spread()) {
            Optional<HashPlacement> placed = input.hashPlacement(compiler.catalog());
            Optional<Expression> key = keys.stream().filter(k -> placed.isPresent() && placed.get().isColumn(k))
                    .findFirst();
            if (key.isPresent()) {
                return new ExchangeKind.Forward("co-located: partitioned by hash of " + key.get());
            }
        }
        return ExchangeKind.grouped(keys);
    }

    /**
     * The pair of {@code keys} and {@code otherKeys} (a join's, pair by pair) on which this and
     * {@code other} are co-located (the same number of parts, the same part here, both keys the columns
     * themselves, of one type), or -1.
     */
    int coLocatedPair(HashPlacement other, List<Expression> keys, List<Expression> otherKeys) {
        if (part.count() == other.part.count() && part.index() == other.part.index()) {
            for (int k = 0; k < keys.size(); k++) {
                if (isColumn(keys.get(k)) && other.isColumn(otherKeys.get(k))
                        && keys.get(k).type().equals(otherKeys.get(k).type())) {
                    return k;
                }
            }
        }
        return -1;
    }

    private boolean isColumn(Expression key) {
        return key instanceof ColumnExpression c && c.index() == column;
    }

    /** This placement, the rows' column now at output {@code index} (a projection kept it). */
    HashPlacement at(int index) {
        return new HashPlacement(index, part);
    }
}
