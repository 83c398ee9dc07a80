package io.troupe.golden;

import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.List;

/**
 * A table declared in a golden file: its schema and its rows as Java values (already checked
 * against the column types when the file was read). Immutable.
 *
 * @param name   the table name, as plans scan it and SQL selects from it
 * @param schema the columns (NOT NULL ones are not nullable)
 * @param rows   the rows, values as {@link TableBuilder#addRow} takes them
 * @param line   the file line of the {@code table} header
 */
record TableDef(String name, Schema schema, List<List<Object>> rows, int line) {

    TableDef {
        rows = List.copyOf(rows.stream().map(java.util.Collections::unmodifiableList).toList());
    }

    /** The Troupe table, cut into chunks of {@code chunkRows} rows (each chunk is one scanned batch). */
    Table build(int chunkRows) {
        TableBuilder b = new TableBuilder(name, schema, chunkRows);
        for (List<Object> row : rows) {
            b.addRow(row.toArray());
        }
        return b.build();
    }

    /** {@code CREATE TABLE} for DuckDB, with the same types and NOT NULL constraints. */
    String createSql() {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(name).append(" (");
        for (int c = 0; c < schema.size(); c++) {
            Field f = schema.field(c);
            sb.append(c == 0 ? "" : ", ").append(f.name()).append(' ').append(GoldenValues.duckDbType(f.type()));
            if (!f.nullable()) {
                sb.append(" NOT NULL");
            }
        }
        return sb.append(')').toString();
    }

    /** {@code INSERT} for DuckDB with one parameter per column. */
    String insertSql() {
        return "INSERT INTO " + name + " VALUES (" + "?, ".repeat(Math.max(0, schema.size() - 1)) + "?)";
    }
}
