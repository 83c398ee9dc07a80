package io.troupe.operators.plan;

import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.stream.ProjectOperator;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * SELECT's column list. A bare column keeps its qualifier (so {@code t1.i} still resolves
 * above the projection); a computed column is unqualified and named by its alias or its text.
 */
final class ProjectNode extends Plan {

    private final Plan input;
    private final List<Expr> columns;

    ProjectNode(Plan input, List<Expr> columns) {
        this.input = input;
        this.columns = List.copyOf(columns);
    }

    List<Expr> columns() {
        return columns;
    }

    @Override
    public List<Plan> children() {
        return List.of(input);
    }

    @Override
    public String label() {
        return "Project " + columns.stream().map(Expr::toString).collect(Collectors.joining(", "));
    }

    private List<Expression> bind(Schema inputSchema) {
        if (columns.isEmpty()) {
            throw new PlanException(label(), "a projection needs at least one column");
        }
        List<Expression> bound = new ArrayList<>();
        for (Expr e : columns) {
            bound.add(e.bind(inputSchema, label()));
        }
        return bound;
    }

    /** The input's placement, where the projection keeps its column as it is. */
    @Override
    Optional<HashPlacement> hashPlacement(Catalog catalog) {
        Optional<HashPlacement> placed = input.hashPlacement(catalog);
        if (placed.isPresent()) {
            List<Expression> bound = bind(input.deriveSchema(catalog));
            for (int i = 0; i < bound.size(); i++) {
                if (bound.get(i) instanceof ColumnExpression c && c.index() == placed.get().column()) {
                    return Optional.of(placed.get().at(i));
                }
            }
        }
        return Optional.empty();
    }

    /** The same rows as {@code other}'s where both keep the same columns of inputs with the same rows. */
    @Override
    boolean sameRowsAs(Plan other, Catalog catalog) {
        return other instanceof ProjectNode project && input.sameRowsAs(project.input, catalog)
                && ColumnExpression.sameColumns(bind(input.deriveSchema(catalog)),
                project.bind(project.input.deriveSchema(catalog)));
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        Schema inputSchema = input.deriveSchema(catalog);
        List<Expression> bound = bind(inputSchema);
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Expr e = columns.get(i);
            if (e instanceof ColumnRef ref) {
                fields.add(inputSchema.field(inputSchema.resolve(ref.reference())));
            } else {
                fields.add(new Field(null, e.outputName(), bound.get(i).type(), true));
            }
        }
        return new Schema(fields);
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return new ProjectNode(binding.plan(input), binding.exprs(columns));
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        List<Expression> bound = bind(input.deriveSchema(compiler.catalog()));
        return input.compile(compiler).then(new ProjectOperator(bound));
    }
}
