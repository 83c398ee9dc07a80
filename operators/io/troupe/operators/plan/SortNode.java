package io.troupe.operators.plan;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.List;
import java.util.stream.Collectors;

/** ORDER BY: sorts its input by the keys in turn. */
final class SortNode extends Plan {

    private final Plan input;
    private final List<SortKey> keys;

    SortNode(Plan input, List<SortKey> keys) {
        this.input = input;
        this.keys = List.copyOf(keys);
    }

    @Override
    public List<Plan> children() {
        return List.of(input);
    }

    @Override
    public String label() {
        return "Sort " + keys.stream().map(SortKey::toString).collect(Collectors.joining(", "));
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        Schema in = input.deriveSchema(catalog);
        if (keys.isEmpty()) {
            throw new PlanException(label(), "a sort needs at least one key");
        }
        for (SortKey k : keys) {
            k.expr().bind(in, label());
        }
        return in;
    }

    @Override
    PipelineBuilder compile(PlanCompiler compiler) {
        throw new PlanException(label(), "sort is not implemented yet");
    }
}
