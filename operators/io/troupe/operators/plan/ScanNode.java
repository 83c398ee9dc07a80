package io.troupe.operators.plan;

import io.troupe.operators.TroupeException;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableScanSource;
import io.troupe.operators.types.Schema;

import java.util.List;
import java.util.Optional;

/** Reads every column of a registered table; columns are qualified by the alias (the table name by default). */
final class ScanNode extends Plan {

    private final String table;
    private final String alias;

    ScanNode(String table, String alias) {
        this.table = table;
        this.alias = alias;
    }

    String table() {
        return table;
    }

    String alias() {
        return alias;
    }

    @Override
    Plan aliased(String newAlias) {
        return new ScanNode(table, newAlias);
    }

    @Override
    public List<Plan> children() {
        return List.of();
    }

    @Override
    public String label() {
        return "Scan " + table + (alias.equalsIgnoreCase(table) ? "" : " AS " + alias);
    }

    private Table resolve(Catalog catalog) {
        try {
            return catalog.table(table);
        } catch (TroupeException e) {
            throw new PlanException(label(), e.getMessage());
        }
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        return resolve(catalog).schema().withQualifier(alias);
    }

    @Override
    Optional<HashPlacement> hashPlacement(Catalog catalog) {
        Table t = resolve(catalog);
        Table.Part part = t.part();
        return part == null || part.column() == null ? Optional.empty()
                : Optional.of(new HashPlacement(t.schema().resolve(part.column()), part));
    }

    @Override
    boolean sameRowsAs(Plan other, Catalog catalog) {
        return other instanceof ScanNode scan && scan.resolve(catalog) == resolve(catalog);
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return this;
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        return compiler.source(TableScanSource.ofAllColumns(resolve(compiler.catalog())));
    }
}
