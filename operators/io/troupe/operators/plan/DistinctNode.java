package io.troupe.operators.plan;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.List;

/** SELECT DISTINCT: one row per distinct combination of values, NULLs equal to each other. */
final class DistinctNode extends Plan {

    private final Plan input;

    DistinctNode(Plan input) {
        this.input = input;
    }

    @Override
    public List<Plan> children() {
        return List.of(input);
    }

    @Override
    public String label() {
        return "Distinct";
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        return input.deriveSchema(catalog);
    }

    @Override
    PipelineBuilder compile(PlanCompiler compiler) {
        throw new PlanException(label(), "distinct is not implemented yet");
    }
}
