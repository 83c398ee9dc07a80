package io.troupe.operators.sql;

import io.troupe.operators.table.TableStatistics;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Calcite's count of distinct rows a scan's columns hold, from the table's statistics: the product of
 * the columns' distinct counts (one more for a column with NULLs), at most the rows; under a predicate,
 * what as many rows as it keeps would hold of them, a column it holds equal to a constant counting one. Part of {@link StatisticsMetadata}; public because
 * Calcite's generated dispatch calls it. Stateless.
 */
public final class StatisticsDistinctRows implements MetadataHandler<BuiltInMetadata.DistinctRowCount> {

    @Override
    public MetadataDef<BuiltInMetadata.DistinctRowCount> getDef() {
        return BuiltInMetadata.DistinctRowCount.DEF;
    }

    public Double getDistinctRowCount(TableScan scan, RelMetadataQuery mq, ImmutableBitSet columns,
                                      RexNode predicate) {
        TableStatistics stats = StatisticsMetadata.of(scan);
        if (stats == null) {
            return null;
        }
        double rows = stats.rowCount();
        Set<Integer> fixed = equalToConstants(predicate);
        double distinct = 1;
        for (int c : columns) {
            if (!fixed.contains(c)) {
                distinct *= stats.column(c).distinct() + (stats.column(c).nulls() > 0 ? 1 : 0);
            }
        }
        distinct = Math.min(distinct, rows);
        if (predicate == null) {
            return distinct;
        }
        double kept = rows * StatisticsMetadata.selectivity(stats, scan.getCluster().getRexBuilder(), predicate);
        return RelMdUtil.numDistinctVals(distinct, kept);
    }

    /** The columns {@code predicate} holds equal to a constant (d_year = 2001): one value each in what it keeps. */
    private static Set<Integer> equalToConstants(RexNode predicate) {
        Set<Integer> fixed = new HashSet<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            if (conjunct.getKind() == SqlKind.EQUALS) {
                List<RexNode> sides = ((RexCall) conjunct).getOperands();
                for (int i = 0; i < 2; i++) {
                    if (sides.get(i) instanceof RexInputRef ref && RexUtil.isConstant(sides.get(1 - i))) {
                        fixed.add(ref.getIndex());
                    }
                }
            }
        }
        return fixed;
    }
}
