package io.troupe.operators.plan;

import io.troupe.operators.stream.LimitOperator;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.List;

/**
 * LIMIT count OFFSET offset. Directly over a sort it fuses with it into a top-N sink
 * ({@link SortNode#compileTopN}); elsewhere it is the streaming {@link LimitOperator}, which
 * stops its producers once the rows are out.
 */
final class LimitNode extends Plan {

    private final Plan input;
    private final long count;
    private final long offset;

    LimitNode(Plan input, long count, long offset) {
        this.input = input;
        this.count = count;
        this.offset = offset;
    }

    Plan input() {
        return input;
    }

    long count() {
        return count;
    }

    long offset() {
        return offset;
    }

    @Override
    public List<Plan> children() {
        return List.of(input);
    }

    @Override
    public String label() {
        return "Limit " + count + (offset == 0 ? "" : " Offset " + offset);
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        if (count < 0 || offset < 0) {
            throw new PlanException(label(), "LIMIT and OFFSET must not be negative");
        }
        return input.deriveSchema(catalog);
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        if (input instanceof SortNode sort) {
            return sort.compileTopN(compiler, count, offset);
        }
        return input.compile(compiler).then(new LimitOperator(count, offset));
    }
}
