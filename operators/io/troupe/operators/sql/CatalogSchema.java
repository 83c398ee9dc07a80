package io.troupe.operators.sql;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.Field;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Troupe's catalog as a Calcite schema, for the validator alone: each table's columns and types
 * ({@link SqlTypes}), read when a statement is planned so that it sees the tables registered then.
 * The tables carry no rows and no scan: Troupe's own operators read them once the plan is lowered.
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
            tables.put(table.name(), new Columns(table));
        }
        return tables;
    }

    /** One table's row type. */
    private static final class Columns extends AbstractTable {
        private final Table table;

        Columns(Table table) {
            this.table = table;
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
