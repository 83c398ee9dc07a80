package io.troupe.operators.plan;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * UNION ALL: both inputs' rows. Compiles to one pipeline with a branch per input, so the nodes
 * above the union run once per branch with no copy in between. Columns are named by the left input.
 */
final class UnionAllNode extends Plan {

    private final Plan left;
    private final Plan right;

    UnionAllNode(Plan left, Plan right) {
        this.left = left;
        this.right = right;
    }

    @Override
    public List<Plan> children() {
        return List.of(left, right);
    }

    @Override
    public String label() {
        return "Union All";
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        Schema l = left.deriveSchema(catalog);
        Schema r = right.deriveSchema(catalog);
        if (l.size() != r.size()) {
            throw new PlanException(label(), "inputs have " + l.size() + " and " + r.size() + " columns");
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            Field lf = l.field(i);
            Field rf = r.field(i);
            if (!lf.type().equals(rf.type())) {
                throw new PlanException(label(), "column " + (i + 1) + " is " + lf.type() + " (" + lf.name()
                        + ") on the left but " + rf.type() + " (" + rf.name() + ") on the right; cast one side");
            }
            fields.add(new Field(null, lf.name(), lf.type(), lf.nullable() || rf.nullable()));
        }
        return new Schema(fields);
    }

    @Override
    Plan withParameters(ParameterBinding binding) {
        return new UnionAllNode(binding.plan(left), binding.plan(right));
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        return left.compile(compiler).union(right.compile(compiler));
    }
}
