package io.troupe.operators.plan;

import io.troupe.operators.exec.CollectSink;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.scan.CollectedScanSource;
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
    Plan withParameters(ParameterBinding binding) {
        return new LimitNode(binding.plan(input), count, offset);
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        if (input instanceof SortNode sort) {
            return sort.compileTopN(compiler, count, offset);
        }
        if (compiler.spread()) {
            // Each node passes at most OFFSET + LIMIT of its rows, which gather; the coordinator limits them.
            long end = count > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + count;
            StateKey<CollectSink.Collected> kept = compiler.newKey("limited", CollectSink.Collected.class);
            Pipeline perNode = input.compile(compiler).then(LimitOperator.perNode(end))
                    .into(new CollectSink(kept, "the rows every node passes to " + label()));
            return compiler.source(new CollectedScanSource(kept))
                    .dependsOn(perNode, new ExchangeKind.Gather(), input)
                    .then(new LimitOperator(count, offset));
        }
        return input.compile(compiler).then(new LimitOperator(count, offset));
    }
}
