package io.troupe.operators.plan;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.List;
import java.util.Optional;

/** Renames a relation: every output column becomes {@code alias.name}. Costs nothing at run time. */
final class AliasNode extends Plan {

    private final Plan input;
    private final String alias;

    AliasNode(Plan input, String alias) {
        this.input = input;
        this.alias = alias;
    }

    String alias() {
        return alias;
    }

    @Override
    public List<Plan> children() {
        return List.of(input);
    }

    @Override
    public String label() {
        return "Alias " + alias;
    }

    @Override
    Optional<HashPlacement> hashPlacement(Catalog catalog) {
        return input.hashPlacement(catalog);
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        return input.deriveSchema(catalog).withQualifier(alias);
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return new AliasNode(binding.plan(input), alias);
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        return input.compile(compiler);
    }
}
