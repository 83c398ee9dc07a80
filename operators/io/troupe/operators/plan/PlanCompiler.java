package io.troupe.operators.plan;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.CollectSink;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.exec.TeeSink;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.fragment.ExchangeSpec;
import io.troupe.operators.fragment.FragmentPlan;
import io.troupe.operators.fragment.SpreadPlan;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.Schema;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Turns a validated {@link Plan} into {@link Pipeline}s: streaming nodes extend their child's
 * pipeline, pipeline breakers (join build, aggregate, sort) end it in a sink and start a new one
 * whose source reads what the sink published. Each breaker names the exchange through which its
 * result is read where producers and consumers may not share memory (a join's build side is
 * broadcast, an aggregate's input repartitioned by its keys ...), and the compiled query is cut
 * into fragments at those exchanges ({@link FragmentPlan#cut}).
 *
 * <p>Not threadsafe: one compiler compiles one query.
 */
public final class PlanCompiler {

    private final Catalog catalog;
    private final TroupeSettings settings;
    /** Whether the query runs spread over nodes. */
    private final boolean spread;
    private final List<Pipeline> pipelines = new ArrayList<>();
    private int nextKey;
    /** The plan node each source, operator and sink was compiled for (EXPLAIN ANALYZE). */
    private final Map<Object, Plan> origins = new IdentityHashMap<>();
    /** The nodes whose compile is running, innermost first. */
    private final Deque<Plan> compiling = new ArrayDeque<>();
    /** Each shared subplan compiled so far, once per query. */
    private final Map<CteNode, Materialised> materialised = new IdentityHashMap<>();
    /** Each pipeline boundary: how the consumer reads the producer's result ({@link Read}). */
    private final Map<Edge, Read> reads = new HashMap<>();
    /** Where each work table is read, while the recursive term of its recursive union compiles. */
    private final Map<RecursiveUnionNode.WorkTable, RecursiveUnionNode.WorkTableRead> workTables = new IdentityHashMap<>();
    /** The plan node EXPLAIN draws the result's Gather above: the root. */
    private Plan root;

    public PlanCompiler(Catalog catalog, TroupeSettings settings) {
        this(catalog, settings, false);
    }

    /**
     * A compiler for a query that runs in one JVM, or with {@code spread} over several nodes: then a hash
     * join may repartition both of its sides instead of broadcasting its build side
     * ({@code troupe.spread.join}), which compiles differently (see {@code JoinNode}).
     */
    public PlanCompiler(Catalog catalog, TroupeSettings settings, boolean spread) {
        this.catalog = catalog;
        this.settings = settings;
        this.spread = spread;
    }

    /**
     * The compiled form of a query: its pipelines, where its result is published, and its fragments
     * with the exchanges between them.
     */
    public record CompiledQuery(Schema schema, List<Pipeline> pipelines, StateKey<CollectSink.Collected> result,
                                FragmentPlan fragments) {
    }

    /**
     * How a pipeline reads what an earlier one's sink made: through an exchange of kind {@code through},
     * drawn by EXPLAIN above the plan node {@code above}. Compile-time only.
     */
    record Read(Pipeline producer, ExchangeKind through, Plan above) {
    }

    /** A pipeline boundary, by pipeline ids. */
    private record Edge(int from, int to) {
    }

    /**
     * Validates and compiles {@code plan}, its calls of the catalog's functions of its own bound to them ({@code
     * UserFunctions.resolve}); the last pipeline collects the result, gathered from every worker.
     */
    public CompiledQuery compile(Plan plan) {
        if (root != null) {
            throw new IllegalStateException("a PlanCompiler compiles one query, and this one compiled one already");
        }
        root = catalog.functions().resolve(plan);
        Schema schema = root.validate(catalog);
        StateKey<CollectSink.Collected> result = newKey("result", CollectSink.Collected.class);
        root.compile(this).into(new CollectSink(result, "the result"));
        FragmentPlan fragments = FragmentPlan.cut(pipelines, (producer, consumer) -> {
            Read read = reads.get(new Edge(producer.id(), consumer.id()));
            return read == null ? null : read.through();
        });
        return new CompiledQuery(schema, List.copyOf(pipelines), result, fragments);
    }

    /** The plan node that EXPLAIN draws {@code exchange} above: the node whose output crosses it. */
    public Plan drawnAbove(ExchangeSpec exchange) {
        return exchange.to() == ExchangeSpec.RESULT ? root
                : reads.get(new Edge(exchange.from(), exchange.to())).above();
    }

    /**
     * EXPLAIN of the plan this compiler compiled into {@code query}, run by {@code workers} workers:
     * the plan tree ({@link Plan#explain}) with a line for every exchange that moves batches, above
     * the node whose output crosses it, as PostgreSQL draws a Gather or a Gather Merge ("Workers
     * Planned"). Elided exchanges are not drawn, nor, with the leader alone (0 workers), any.
     */
    public String explain(CompiledQuery query, int workers) {
        FragmentPlan fragments = workers == 0 ? query.fragments().leaderAlone() : query.fragments();
        Map<Plan, List<Plan.Drawn>> above = new IdentityHashMap<>();
        for (ExchangeSpec e : fragments.overChannels()) {
            above.computeIfAbsent(drawnAbove(e), n -> new ArrayList<>())
                    .add(new Plan.Drawn(e.kind().label(), List.of("Workers Planned: " + workers)));
        }
        return draw(above);
    }

    /**
     * EXPLAIN of the plan this compiler compiled into {@code query}, spread over {@code nodes} nodes with
     * {@code workers} workers each ({@link SpreadPlan}): above the node whose output crosses it, every
     * exchange between nodes with its route (Broadcast, Repartition by hash, Gather to the coordinator),
     * whether the nodes or the coordinator alone send it, and the workers per node. A shared subplan's
     * rows stay where they were made (Forward) and are not drawn; an input co-located on its keys is,
     * as the Forward that spares it an exchange. One sink's rows move once however many pipelines read
     * them, so a node's output is drawn crossing each exchange once (a self join's reused repartition).
     */
    public String explainSpread(CompiledQuery query, SpreadPlan spread, int nodes, int workers) {
        Map<Plan, List<Plan.Drawn>> above = new IdentityHashMap<>();
        Map<Plan, Set<Integer>> drawnFrom = new IdentityHashMap<>();
        for (ExchangeSpec e : query.fragments().exchanges()) {
            ExchangeKind route = spread.route(e.from());
            if (route instanceof ExchangeKind.Forward forward && forward.why().isEmpty()
                    || !drawnFrom.computeIfAbsent(drawnAbove(e), n -> new HashSet<>()).add(e.from())) {
                continue;
            }
            String from = spread.placement(e.from()) == SpreadPlan.Placement.EVERY_NODE ? "every node"
                    : "the coordinator";
            above.computeIfAbsent(drawnAbove(e), n -> new ArrayList<>()).add(new Plan.Drawn(spread.label(e.from()),
                    List.of("Nodes: " + nodes + (route instanceof ExchangeKind.Forward ? ", stays on each node"
                                    : ", sent from " + from),
                            "Workers Planned: " + spread.workers(e.from(), workers) + " per node")));
        }
        return draw(above);
    }

    private String draw(Map<Plan, List<Plan.Drawn>> above) {
        StringBuilder sb = new StringBuilder();
        root.explain(catalog, sb, 0, root.sharedSubplans(), n -> above.getOrDefault(n, List.of()));
        return sb.toString();
    }

    public Catalog catalog() {
        return catalog;
    }

    /** Whether the query is compiled to run spread over nodes. */
    public boolean spread() {
        return spread;
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

    /** Runs {@code body} (the compile of a recursive term) with the scans of {@code table} reading through {@code read}. */
    <T> T withWorkTable(RecursiveUnionNode.WorkTable table, RecursiveUnionNode.WorkTableRead read, Supplier<T> body) {
        workTables.put(table, read);
        try {
            return body.get();
        } finally {
            workTables.remove(table);
        }
    }

    /** Where a scan of {@code table} reads, while the recursive term of its union compiles; null elsewhere. */
    RecursiveUnionNode.WorkTableRead workTable(RecursiveUnionNode.WorkTable table) {
        return workTables.get(table);
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

    Pipeline register(List<Pipeline.Branch> branches, Sink sink, List<Read> through) {
        List<Pipeline> dependencies = new ArrayList<>();
        for (Read read : through) {
            dependencies.add(read.producer());
        }
        Pipeline p = new Pipeline(pipelines.size(), branches, sink, dependencies);
        pipelines.add(p);
        for (Read read : through) {
            Read other = reads.putIfAbsent(new Edge(read.producer().id(), p.id()), read);
            if (other != null && !other.through().equals(read.through())) {
                throw new IllegalStateException("pipeline " + p.id() + " reads pipeline " + read.producer().id()
                        + " through two exchanges: " + other.through().label() + " and " + read.through().label());
            }
        }
        return p;
    }
}
