package io.troupe.operators.plan;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.table.TableScanSource;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL's {@code VALUES (1, 'a'), (2, 'b')} (and the one empty row under {@code SELECT 1}): constant rows, each
 * value a literal of its column's type. The node keeps the literals, so that it prints, travels and binds like
 * any other; compiling builds them into a table of the node's own, which a {@link TableScanSource} reads in
 * morsels as it reads a registered table.
 */
final class ValuesNode extends Plan {

    private final List<String> columns;
    private final List<DataType> types;
    private final List<List<Literal>> rows;

    ValuesNode(List<String> columns, List<DataType> types, List<List<Literal>> rows) {
        if (columns.size() != types.size()) {
            throw new PlanException("Values", columns.size() + " column names for " + types.size() + " types");
        }
        for (List<Literal> row : rows) {
            if (row.size() != columns.size()) {
                throw new PlanException("Values", "a row of " + row.size() + " values for " + columns.size()
                        + " columns " + columns);
            }
        }
        this.columns = List.copyOf(columns);
        this.types = List.copyOf(types);
        List<List<Literal>> copied = new ArrayList<>(rows.size());
        for (List<Literal> row : rows) {
            copied.add(List.copyOf(row));
        }
        this.rows = List.copyOf(copied);
    }

    List<String> columns() {
        return columns;
    }

    List<DataType> types() {
        return types;
    }

    List<List<Literal>> rows() {
        return rows;
    }

    @Override
    public List<Plan> children() {
        return List.of();
    }

    @Override
    public String label() {
        return "Values " + String.join(", ", columns) + " (" + rows.size() + (rows.size() == 1 ? " row)" : " rows)");
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        List<Field> fields = new ArrayList<>(columns.size());
        for (int c = 0; c < columns.size(); c++) {
            boolean nullable = false;
            for (List<Literal> row : rows) {
                nullable |= row.get(c).value() == null;
            }
            fields.add(new Field(null, columns.get(c), types.get(c), nullable));
        }
        return new Schema(fields);
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return this;
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        Schema schema = deriveSchema(compiler.catalog());
        TableBuilder table = new TableBuilder("values", schema);
        Object[] values = new Object[columns.size()];
        for (List<Literal> row : rows) {
            for (int c = 0; c < values.length; c++) {
                values[c] = row.get(c).value();
            }
            table.addRow(values);
        }
        return compiler.source(TableScanSource.ofAllColumns(table.build()));
    }
}
