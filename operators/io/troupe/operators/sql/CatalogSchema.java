package io.troupe.operators.sql;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableStatistics;
import io.troupe.operators.types.Field;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;

import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Troupe's catalog as a Calcite schema: each table's columns and types ({@link SqlTypes}), read when a
 * statement is planned so that it sees the tables registered then, and its statistics for the cost-based
 * phase ({@link Catalog#statistics}): the row count and, as keys, the columns known unique; the columns'
 * distinct counts, NULLs and ranges reach Calcite through {@link StatisticsMetadata}. The tables carry no
 * rows and no scan: Troupe's own operators read them once the plan is lowered.
 */
final class CatalogSchema extends AbstractSchema {

    private final Catalog catalog;

    CatalogSchema(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
        Map<String, org.apache.calcite.schema.Table> tables = new LinkedHashMap<>();
        for (Table table : catalog.tables()) {
            tables.put(table.name(), new Columns(catalog, table));
        }
        return tables;
    }

    /** One table's row type and statistics. */
    static final class Columns extends AbstractTable {
        private final Catalog catalog;
        private final Table table;

        Columns(Catalog catalog, Table table) {
            this.catalog = catalog;
            this.table = table;
        }

        /** The table's statistics, read on first use (see {@link Catalog#statistics}). */
        TableStatistics statistics() {
            return catalog.statistics(table.name());
        }

        @Override
        public Statistic getStatistic() {
            TableStatistics stats = statistics();
            List<ImmutableBitSet> keys = new ArrayList<>();
            for (int c = 0; c < stats.columns().size(); c++) {
                if (stats.column(c).unique()) {
                    keys.add(ImmutableBitSet.of(c));
                }
            }
            return Statistics.of(stats.rowCount(), keys);
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory factory) {
            RelDataTypeFactory.Builder row = factory.builder();
            for (Field f : table.schema().fields()) {
                row.add(f.name(), SqlTypes.toSql(f.type(), f.nullable(), factory));
            }
            return row.build();
        }
    }
}
