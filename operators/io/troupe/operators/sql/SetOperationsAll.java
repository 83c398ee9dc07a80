package io.troupe.operators.sql;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * INTERSECT ALL and EXCEPT ALL as their distinct forms over rows numbered by occurrence: each input gains
 * {@code row_number() OVER (PARTITION BY every column)}, so a row that an input holds n times becomes the n
 * distinct rows (row, 1) .. (row, n). Of those, INTERSECT keeps the numbers every input has (up to the least
 * count) and EXCEPT those of the left input beyond the right's count: SQL's multiset rules, with NULLs equal
 * as set operations treat them. The distinct forms then run as before (Calcite's counted UNION ALL); the
 * numbering is a window per input, in parallel by its partitions. EXCEPT ALL of several inputs is taken two
 * at a time, left to right, as its counts subtract in turn.
 */
final class SetOperationsAll extends RelHomogeneousShuttle {

    private SetOperationsAll() {
    }

    static RelNode rewrite(RelNode rel) {
        return rel.accept(new SetOperationsAll());
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other);
        if (!(rel instanceof SetOp op) || !op.all || !(op instanceof Intersect || op instanceof Minus)) {
            return rel;
        }
        RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null);
        List<String> names = op.getRowType().getFieldNames();
        if (op instanceof Intersect) {
            for (RelNode input : op.getInputs()) {
                numbered(builder, input);
            }
            builder.intersect(false, op.getInputs().size());
        } else {
            builder.push(op.getInputs().get(0));
            for (RelNode input : op.getInputs().subList(1, op.getInputs().size())) {
                numbered(builder, builder.build());
                numbered(builder, input);
                builder.minus(false, 2);
                builder.project(builder.fields().subList(0, names.size()), names);
            }
            return builder.build();
        }
        return builder.project(builder.fields().subList(0, names.size()), names).build();
    }

    /** {@code input} with its rows' occurrence numbers after its columns. */
    private static void numbered(RelBuilder builder, RelNode input) {
        builder.push(input);
        List<RexNode> fields = new ArrayList<>(builder.fields());
        fields.add(builder.aggregateCall(SqlStdOperatorTable.ROW_NUMBER).over()
                .partitionBy(builder.fields()).toRex());
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
        names.add("$occurrence");
        builder.project(fields, names);
    }
}
