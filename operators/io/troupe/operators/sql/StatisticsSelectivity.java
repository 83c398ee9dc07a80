package io.troupe.operators.sql;

import io.troupe.operators.table.TableStatistics;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Calcite's selectivity of a predicate over a scan, from the table's statistics, and over a join: an
 * equality between a column of either side is 1 / the larger of the two columns' distinct counts there
 * (every value of the side with fewer finds a match, the textbook estimate). Of several such equalities only
 * the most selective counts: the columns of a composite key are correlated (lineitem's (partkey, suppkey) is
 * one of partsupp's rows), and their product, which assumes them independent, put TPC-H q9's 6M-row join
 * below partsupp's size and so on the build side of every join above it. Part of
 * {@link StatisticsMetadata}; public because Calcite's generated dispatch calls it. Stateless.
 */
public final class StatisticsSelectivity implements MetadataHandler<BuiltInMetadata.Selectivity> {

    @Override
    public MetadataDef<BuiltInMetadata.Selectivity> getDef() {
        return BuiltInMetadata.Selectivity.DEF;
    }

    public Double getSelectivity(TableScan scan, RelMetadataQuery mq, RexNode predicate) {
        TableStatistics stats = StatisticsMetadata.of(scan);
        return stats == null ? RelMdUtil.guessSelectivity(predicate)
                : StatisticsMetadata.selectivity(stats, scan.getCluster().getRexBuilder(), predicate);
    }

    public Double getSelectivity(Join join, RelMetadataQuery mq, RexNode predicate) {
        if (predicate == null) {
            return 1.0;
        }
        int leftCount = join.getLeft().getRowType().getFieldCount();
        double keys = 1;
        double others = 1;
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            Double distinct = conjunct.getKind() == SqlKind.EQUALS ? largerDistinct(join, mq,
                    ((RexCall) conjunct).getOperands().get(0), ((RexCall) conjunct).getOperands().get(1), leftCount)
                    : null;
            if (distinct == null) {
                others *= RelMdUtil.guessSelectivity(conjunct);
            } else {
                keys = Math.min(keys, 1 / Math.max(1, distinct));
            }
        }
        return keys * others;
    }

    /** The larger distinct count of two columns, one of each side; null unless {@code a = b} is such. */
    private static Double largerDistinct(Join join, RelMetadataQuery mq, RexNode a, RexNode b, int leftCount) {
        if (!(a instanceof RexInputRef x) || !(b instanceof RexInputRef y)) {
            return null;
        }
        int left = Math.min(x.getIndex(), y.getIndex());
        int right = Math.max(x.getIndex(), y.getIndex());
        if (left >= leftCount || right < leftCount) {
            return null;
        }
        Double l = distinct(mq, join.getLeft(), left);
        Double r = distinct(mq, join.getRight(), right - leftCount);
        return l == null || r == null ? null : Math.max(l, r);
    }

    private static Double distinct(RelMetadataQuery mq, RelNode side, int field) {
        return mq.getDistinctRowCount(side, ImmutableBitSet.of(field), null);
    }
}
