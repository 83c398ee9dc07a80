package io.troupe.operators.sql;

import io.troupe.operators.table.TableStatistics;

import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Calcite's count of distinct rows a scan's columns hold, from the table's statistics: the product of
 * the columns' distinct counts (one more for a column with NULLs), at most the rows; under a predicate,
 * what as many rows as it keeps would hold of them. Part of {@link StatisticsMetadata}; public because
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
        double distinct = 1;
        for (int c : columns) {
            distinct *= stats.column(c).distinct() + (stats.column(c).nulls() > 0 ? 1 : 0);
        }
        distinct = Math.min(distinct, rows);
        if (predicate == null) {
            return distinct;
        }
        double kept = rows * StatisticsMetadata.selectivity(stats, scan.getCluster().getRexBuilder(), predicate);
        return RelMdUtil.numDistinctVals(distinct, kept);
    }
}
