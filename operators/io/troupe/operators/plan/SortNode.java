package io.troupe.operators.plan;

import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.sort.OrderKey;
import io.troupe.operators.sort.SortSink;
import io.troupe.operators.sort.SortSpec;
import io.troupe.operators.sort.SortedResult;
import io.troupe.operators.sort.SortedSource;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * ORDER BY: sorts its input by the keys in turn. Compiles to a {@link SortSink} ending the input's
 * pipeline (each worker sorts a run of its own) and a {@link SortedSource} starting the next; a
 * {@link LimitNode} directly above fuses with it into a top-N ({@link #compileTopN}). Where that
 * next pipeline is the query's last, the parallel executor reads it as one sorted stream per worker
 * merged by a Gather Merge ({@code SortedStreams}); elsewhere one reader merges the runs.
 */
final class SortNode extends Plan {

    private final Plan input;
    private final List<SortKey> keys;

    SortNode(Plan input, List<SortKey> keys) {
        this.input = input;
        this.keys = List.copyOf(keys);
    }

    List<SortKey> keys() {
        return keys;
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
    Plan withParameters(ParameterBinding binding) {
        return new SortNode(binding.plan(input), binding.keys(keys));
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        StateKey<SortedResult> key = compiler.newKey("sort", SortedResult.class);
        SortSpec spec = spec(compiler);
        return compileInto(compiler, spec, SortSink.sort(spec, key), key);
    }

    /** ORDER BY ... LIMIT count OFFSET offset: one sink that keeps only the rows it will emit. */
    PipelineBuilder compileTopN(PlanCompiler compiler, long count, long offset) {
        StateKey<SortedResult> key = compiler.newKey("topn", SortedResult.class);
        // Compiled for the Limit above, but a sort: EXPLAIN ANALYZE counts it as this node.
        SortSpec spec = spec(compiler);
        return compiler.compiling(this,
                () -> compileInto(compiler, spec, SortSink.topN(spec, count, offset, key), key));
    }

    /** The sort's pipeline into {@code sink}; its runs are read through a Gather Merge in {@code spec}'s order. */
    private PipelineBuilder compileInto(PlanCompiler compiler, SortSpec spec, SortSink sink,
                                        StateKey<SortedResult> key) {
        Pipeline sorted = input.compile(compiler).into(sink);
        return compiler.source(new SortedSource(key))
                .dependsOn(sorted, new ExchangeKind.GatherMerge(spec.keys()), this);
    }

    private SortSpec spec(PlanCompiler compiler) {
        Schema in = input.deriveSchema(compiler.catalog());
        List<OrderKey> bound = new ArrayList<>(keys.size());
        for (SortKey k : keys) {
            bound.add(new OrderKey(k.expr().bind(in, label()), k.ascending(), k.nullsFirst()));
        }
        return new SortSpec(bound, in.size(), label());
    }
}
