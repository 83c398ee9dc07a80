package io.troupe.operators.plan;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.List;

/**
 * A shared subplan, PostgreSQL's "CTE name": what {@link Plan#share} made, computed once per query
 * however many {@link CteScanNode}s read it. It is no node of the tree it is used in (its uses have
 * no children); EXPLAIN prints it once under the root, and {@link PlanCompiler#materialise} compiles
 * it once per query into a pipeline ending in a sink that keeps its batches.
 *
 * <p>Immutable and threadsafe, as every plan; its identity is what makes two uses read one result.
 */
final class CteNode extends Plan {

    private final Plan subplan;
    private final String name;

    CteNode(Plan subplan, String name) {
        this.subplan = subplan;
        this.name = name;
    }

    String name() {
        return name;
    }

    @Override
    public List<Plan> children() {
        return List.of(subplan);
    }

    @Override
    public String label() {
        return "CTE " + name;
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        return subplan.deriveSchema(catalog);
    }

    /** The subplan's pipeline, which {@link PlanCompiler#materialise} ends in the sink that keeps it. */
    @Override
    Plan withParameters(ParameterBinding binding) {
        return new CteNode(binding.plan(subplan), name);
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        return subplan.compile(compiler);
    }
}
