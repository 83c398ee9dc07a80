package io.troupe.operators.plan;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.List;
import java.util.Optional;

/**
 * A subplan to run as written ({@link Plan#pin}): the optimizer leaves it and everything under it as it is. Not an
 * operator: a query drops its pins before it compiles ({@link #strip}), and a pin compiled all the same compiles
 * to its input.
 */
final class PinnedNode extends Plan {

    private final Plan input;

    PinnedNode(Plan input) {
        this.input = input;
    }

    Plan input() {
        return input;
    }

    /** {@code plan} without its pins: itself when it has none, else rebuilt around the pinned subplans. */
    static Plan strip(Plan plan) {
        if (!pinned(plan)) {
            return plan;
        }
        return new ParameterBinding(List.of(), node -> node instanceof PinnedNode pin ? strip(pin.input) : null)
                .plan(plan);
    }

    private static boolean pinned(Plan node) {
        if (node instanceof PinnedNode) {
            return true;
        }
        for (Plan child : node.children()) {
            if (pinned(child)) {
                return true;
            }
        }
        return node.cte() != null && pinned(node.cte());
    }

    @Override
    public List<Plan> children() {
        return List.of(input);
    }

    @Override
    public String label() {
        return "Pinned";
    }

    @Override
    Optional<HashPlacement> hashPlacement(Catalog catalog) {
        return input.hashPlacement(catalog);
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        return input.deriveSchema(catalog);
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return new PinnedNode(binding.plan(input));
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        return input.compile(compiler);
    }
}
