package io.troupe.operators.plan;

import io.troupe.operators.agg.AggregateResult;
import io.troupe.operators.agg.HashAggregateSink;
import io.troupe.operators.agg.HashAggregateSource;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * SELECT DISTINCT: one row per distinct combination of values, NULLs equal to each other.
 * Compiles to a hash aggregate with every column a key and no aggregates.
 */
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
    Plan withParameters(ParameterBinding binding) {
        return new DistinctNode(binding.plan(input));
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        Schema in = input.deriveSchema(compiler.catalog());
        List<Expression> keys = new ArrayList<>();
        for (int c = 0; c < in.size(); c++) {
            keys.add(new ColumnExpression(c, in.type(c), in.field(c).qualifiedName()));
        }
        StateKey<AggregateResult> result = compiler.newKey("distinct", AggregateResult.class);
        Pipeline build = input.compile(compiler).into(new HashAggregateSink(keys, List.of(), result));
        return compiler.source(new HashAggregateSource(result))
                .dependsOn(build, HashPlacement.grouping(compiler, input, keys), input);
    }
}
