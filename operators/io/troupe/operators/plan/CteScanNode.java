package io.troupe.operators.plan;

import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.scan.CollectedScanSource;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.List;

/**
 * One use of a shared subplan (PostgreSQL's "CTE Scan"): reads the batches the subplan's
 * materialising pipeline kept, in morsels of one batch, once that pipeline finished. Its columns are
 * the subplan's, qualified by the subplan's name or by this use's own alias ({@code shared.as("y")}),
 * as a table scan's are by the table's name or its alias. Whichever use compiles first compiles the
 * subplan, once per query ({@link PlanCompiler#materialise}).
 */
final class CteScanNode extends Plan {

    private final CteNode cte;
    /** The qualifier of this use's columns: the subplan's name unless aliased. */
    private final String alias;

    CteScanNode(CteNode cte, String alias) {
        this.cte = cte;
        this.alias = alias;
    }

    String alias() {
        return alias;
    }

    @Override
    Plan aliased(String newAlias) {
        return new CteScanNode(cte, newAlias);
    }

    @Override
    CteNode cte() {
        return cte;
    }

    /** None: the subplan is the {@link CteNode}'s child, printed and profiled once. */
    @Override
    public List<Plan> children() {
        return List.of();
    }

    @Override
    public String label() {
        return "CTE Scan on " + cte.name() + (alias.equals(cte.name()) ? "" : " AS " + alias);
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        return cte.deriveSchema(catalog).withQualifier(alias);
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return new CteScanNode((CteNode) binding.plan(cte), alias);
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        PlanCompiler.Materialised kept = compiler.materialise(cte);
        return compiler.source(new CollectedScanSource(kept.result()))
                .dependsOn(kept.producer(), ExchangeKind.Forward.KEPT, cte);
    }
}
