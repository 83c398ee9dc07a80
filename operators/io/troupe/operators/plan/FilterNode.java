package io.troupe.operators.plan;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.stream.FilterOperator;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Schema;

import java.util.List;
import java.util.Optional;

/** WHERE, or HAVING when it filters the output of an aggregate. */
final class FilterNode extends Plan {

    private final Plan input;
    private final Expr predicate;
    private final boolean having;

    FilterNode(Plan input, Expr predicate, boolean having) {
        this.input = input;
        this.predicate = predicate;
        this.having = having;
    }

    Expr predicate() {
        return predicate;
    }

    boolean isHaving() {
        return having;
    }

    @Override
    public List<Plan> children() {
        return List.of(input);
    }

    @Override
    public String label() {
        return (having ? "Having " : "Filter ") + predicate;
    }

    private Expression bind(Schema inputSchema) {
        Expression bound = predicate.bind(inputSchema, label());
        if (!bound.type().equals(DataType.BOOLEAN)) {
            throw new PlanException(label(), "the condition " + predicate + " is " + bound.type()
                    + ", not BOOLEAN");
        }
        return bound;
    }

    @Override
    Optional<HashPlacement> hashPlacement(Catalog catalog) {
        return input.hashPlacement(catalog);
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        if (having && !(input instanceof AggregateNode)) {
            throw new PlanException(label(), "HAVING must follow aggregate(); use filter() elsewhere");
        }
        Schema schema = input.deriveSchema(catalog);
        bind(schema);
        return schema;
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return new FilterNode(binding.plan(input), binding.expr(predicate), having);
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        Expression bound = bind(input.deriveSchema(compiler.catalog()));
        return input.compile(compiler).then(new FilterOperator(bound));
    }
}
