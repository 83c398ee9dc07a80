package io.troupe.operators.plan;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Renames a relation: every output column becomes {@code alias.name}. Costs nothing at run time. An alias that
 * SQL's lowering makes to keep the columns of its relations apart ({@code $1}, {@code $2}, ...: no statement
 * names it) is not {@link #explained}, and its columns show by their names alone.
 */
final class AliasNode extends Plan {

    /** The aliases SQL's lowering makes: a dollar and a number, which no SQL name is. */
    private static final Pattern INTERNAL = Pattern.compile("\\$\\d+");

    private final Plan input;
    private final String alias;

    AliasNode(Plan input, String alias) {
        this.input = input;
        this.alias = alias;
    }

    String alias() {
        return alias;
    }

    /** Whether {@code alias} is one that SQL's lowering made, which EXPLAIN does not show. */
    static boolean internal(String alias) {
        return alias != null && INTERNAL.matcher(alias).matches();
    }

    @Override
    public boolean explained() {
        return !internal(alias);
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
