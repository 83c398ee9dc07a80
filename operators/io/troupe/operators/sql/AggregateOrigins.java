package io.troupe.operators.sql;

import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import java.util.Set;

/**
 * No table column is the origin of an aggregate's output: its rows are groups, not a table's rows. Calcite's
 * join ordering ({@code LoptOptimizeJoinRule}) takes a join input whose first column comes from a table for that
 * table, and two such inputs joined on keys unique in one of them for a self-join whose two sides are the same
 * rows; it then reads one side's columns from the other. Two aggregates of one table are no such thing (TPC-DS
 * q75 joins this year's sales per item with last year's: it read last year's for both). Other nodes keep
 * Calcite's origins. Part of {@link StatisticsMetadata}; public because Calcite's generated dispatch calls it.
 * Stateless.
 */
public final class AggregateOrigins implements MetadataHandler<BuiltInMetadata.ColumnOrigin> {

    @Override
    public MetadataDef<BuiltInMetadata.ColumnOrigin> getDef() {
        return BuiltInMetadata.ColumnOrigin.DEF;
    }

    /** Unknown: none of the aggregate's columns is a table's. */
    public Set<RelColumnOrigin> getColumnOrigins(Aggregate rel, RelMetadataQuery mq, int outputColumn) {
        return null;
    }
}
