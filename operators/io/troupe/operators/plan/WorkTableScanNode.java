package io.troupe.operators.plan;

import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.recursive.WorkTableSource;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.List;

/**
 * A recursive union's work table as its recursive term reads it (PostgreSQL's "WorkTable Scan"): the rows the last
 * round added. Its columns are the non-recursive term's, qualified by the union's name or by this scan's own alias.
 * Only a {@link RecursiveUnionNode}'s recursive term may hold it; see {@link Plan#recursiveUnion}.
 *
 * <p>Immutable and threadsafe.
 */
final class WorkTableScanNode extends Plan {

    private final RecursiveUnionNode.WorkTable table;
    private final String alias;

    WorkTableScanNode(RecursiveUnionNode.WorkTable table, String alias) {
        this.table = table;
        this.alias = alias;
    }

    RecursiveUnionNode.WorkTable table() {
        return table;
    }

    String alias() {
        return alias;
    }

    @Override
    Plan aliased(String newAlias) {
        return new WorkTableScanNode(table, newAlias);
    }

    @Override
    public List<Plan> children() {
        return List.of();
    }

    @Override
    public String label() {
        return "WorkTable Scan on " + table.name()
                + (alias.equals(table.name()) || AliasNode.internal(alias) ? "" : " AS " + alias);
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        return table.schema(catalog).withQualifier(alias);
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return this;
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        RecursiveUnionNode.WorkTableRead read = compiler.workTable(table);
        if (read == null) {
            throw new PlanException(label(), "a work table is read only inside the recursive term of its recursive"
                    + " union");
        }
        return compiler.source(new WorkTableSource(read.key())).dependsOn(read.producer(), ExchangeKind.Forward.KEPT,
                this);
    }
}
