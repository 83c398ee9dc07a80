package io.troupe.operators.plan;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.CollectSink;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.exec.TeeSink;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Turns a validated {@link Plan} into {@link Pipeline}s: streaming nodes extend their child's
 * pipeline, pipeline breakers (join build, aggregate, sort) end it in a sink and start a new one
 * whose source reads what the sink published.
 *
 * <p>Not threadsafe: one compiler compiles one query.
 */
public final class PlanCompiler {

    private final Catalog catalog;
    private final TroupeSettings settings;
    private final List<Pipeline> pipelines = new ArrayList<>();
    private int nextKey;
    /** The plan node each source, operator and sink was compiled for (EXPLAIN ANALYZE). */
    private final Map<Object, Plan> origins = new IdentityHashMap<>();
    /** The nodes whose compile is running, innermost first. */
    private final Deque<Plan> compiling = new ArrayDeque<>();
    /** Each shared subplan compiled so far, once per query. */
    private final Map<CteNode, Materialised> materialised = new IdentityHashMap<>();

    public PlanCompiler(Catalog catalog, TroupeSettings settings) {
        this.catalog = catalog;
        this.settings = settings;
    }

    /** The compiled form of a query: its pipelines and where its result is published. */
    public record CompiledQuery(Schema schema, List<Pipeline> pipelines, StateKey<CollectSink.Collected> result) {
    }

    /** Validates and compiles {@code plan}; the last pipeline collects the result. */
    public CompiledQuery compile(Plan plan) {
        Schema schema = plan.validate(catalog);
        StateKey<CollectSink.Collected> result = newKey("result", CollectSink.Collected.class);
        plan.compile(this).into(new CollectSink(result, "the result"));
        return new CompiledQuery(schema, List.copyOf(pipelines), result);
    }

    public Catalog catalog() {
        return catalog;
    }

    /** The settings operators are configured from (batch size, match-flag policy ...). */
    public TroupeSettings settings() {
        return settings;
    }

    /** A new pipeline builder reading from {@code source}. */
    public PipelineBuilder source(Source source) {
        recordOrigin(source);
        return new PipelineBuilder(this, source);
    }

    /**
     * The plan node that {@code compiled} (a {@link Source}, an {@link io.troupe.operators.exec.Operator}
     * or a {@link Sink} of the compiled pipelines) was compiled for; null for what no node made (the
     * result's {@link CollectSink}).
     */
    public Plan origin(Object compiled) {
        return origins.get(compiled);
    }

    /** Where a shared subplan's batches are kept: the pipeline that keeps them, and the key it publishes them under. */
    record Materialised(Pipeline producer, StateKey<CollectSink.Collected> result) {
    }

    /**
     * Compiles {@code cte}'s subplan into a pipeline that keeps its batches (a {@link CollectSink},
     * whose origin is {@code cte}), the first time one of its uses asks; later uses get the same.
     */
    Materialised materialise(CteNode cte) {
        Materialised kept = materialised.get(cte);
        if (kept == null) {
            StateKey<CollectSink.Collected> result = newKey("cte-" + cte.name(), CollectSink.Collected.class);
            Pipeline producer = compiling(cte,
                    () -> cte.compile(this).into(new CollectSink(result, "CTE " + cte.name())));
            kept = new Materialised(producer, result);
            materialised.put(cte, kept);
        }
        return kept;
    }

    /** Runs {@code body} (the compile of {@code node}) with {@code node} as the origin of what it adds. */
    <T> T compiling(Plan node, Supplier<T> body) {
        compiling.push(node);
        try {
            return body.get();
        } finally {
            compiling.pop();
        }
    }

    /**
     * Records the innermost node being compiled as {@code compiled}'s origin (the first to add it),
     * and a tee's sinks' (whose memory accounts EXPLAIN ANALYZE shows on that node).
     */
    void recordOrigin(Object compiled) {
        Plan node = compiling.peek();
        if (node != null) {
            origins.putIfAbsent(compiled, node);
        }
        if (compiled instanceof TeeSink tee) {
            tee.sinks().forEach(this::recordOrigin);
        }
    }

    /** A key unique to this query, for a sink to publish its result to later pipelines. */
    public <T> StateKey<T> newKey(String name, Class<T> type) {
        return new StateKey<>(name + "#" + (nextKey++), type);
    }

    Pipeline register(List<Pipeline.Branch> branches, Sink sink, List<Pipeline> dependencies) {
        Pipeline p = new Pipeline(pipelines.size(), branches, sink, dependencies);
        pipelines.add(p);
        return p;
    }
}
