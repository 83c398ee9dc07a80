package io.troupe.operators.fragment;

import io.troupe.operators.exec.Operator;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.PipelineRun;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.exec.Source;
import io.troupe.operators.sort.SortedStreams;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * How a compiled query runs spread over several nodes (JVMs) that each hold every table: where each
 * pipeline runs ({@link Placement}) and where the rows entering its sink go ({@link #route}). Every
 * node compiles the same plan into the same pipelines and derives the same spread plan from them, so
 * nothing of it is shipped; node 0 is the coordinator, which makes the result.
 *
 * <h2>The model</h2>
 * A pipeline placed on {@link Placement#EVERY_NODE every node} reads on each node only that node's
 * {@link ScanShare} of its base inputs (tables, generate_series); one placed on the
 * {@link Placement#COORDINATOR coordinator} reads all of them there. Its sink is where rows change
 * nodes: each worker routes every row entering the sink by the pipeline's route, an
 * {@link ExchangeKind}: {@code Broadcast} to every node (a join's build side: every node probes its
 * share against the whole table), {@code Repartition} by the hash of its keys (an aggregate's groups
 * meet on one node), {@code Gather} to the coordinator, {@code Forward} nowhere (a shared subplan's
 * kept rows stay where they were made). A node's sink takes the rows routed to it from its own workers
 * and from every other node; it finalizes once all of them ended, and the pipelines reading it run on
 * that node's part.
 *
 * <h2>Where a pipeline must run on the coordinator</h2>
 * Fixed-point rules, each keeping results exact:
 * <ul>
 *   <li>it belongs to a loop's body ({@link io.troupe.operators.exec.Sink#loopStart}: WITH RECURSIVE's recursive
 *       term), whose rounds the coordinator runs alone;</li>
 *   <li>it holds an operator that needs all of its input in one place ({@link Operator#needsWholeInput}:
 *       a LIMIT, a RIGHT or FULL join's probe);</li>
 *   <li>it reads a sink whose rows were gathered (a global aggregate, a sort: a sort's input is
 *       gathered and sorted on the coordinator), or a shared subplan kept on the coordinator;</li>
 *   <li>a sink read by a pipeline on the coordinator gathers there instead of repartitioning or
 *       staying put, so that the coordinator reads all of it;</li>
 *   <li>a sink fed to readers of different routes (count(DISTINCT)'s tee) gathers, and so does the
 *       result.</li>
 * </ul>
 * A broadcast read only on the coordinator gathers there, since no other node would read it.
 *
 * <p>Immutable; data only (pipeline ids, {@link Placement}s and {@link ExchangeKind}s), except
 * {@link #shares}, which maps the compiled sources of the pipelines it was made from.
 */
public final class SpreadPlan {

    /** The node that coordinates a spread query and makes its result. */
    public static final int COORDINATOR = 0;

    /** Where a pipeline runs. */
    public enum Placement {
        /** On every node, each reading its share of the base inputs. */
        EVERY_NODE,
        /** On the coordinator alone, reading all of them. */
        COORDINATOR
    }

    private final List<Pipeline> ordered;
    private final Map<Integer, Placement> placements;
    private final Map<Integer, ExchangeKind> routes;

    private SpreadPlan(List<Pipeline> ordered, Map<Integer, Placement> placements, Map<Integer, ExchangeKind> routes) {
        this.ordered = ordered;
        this.placements = placements;
        this.routes = routes;
    }

    /**
     * The spread plan of {@code pipelines}, whose boundaries {@code fragments} declares (the exchange
     * each pipeline reads its dependencies through).
     */
    public static SpreadPlan of(List<Pipeline> pipelines, FragmentPlan fragments) {
        List<Pipeline> ordered = PipelineRun.inDependencyOrder(pipelines);
        Map<Integer, List<Pipeline>> readers = new HashMap<>();
        for (Pipeline p : ordered) {
            for (Pipeline d : new LinkedHashSet<>(p.dependencies())) {
                readers.computeIfAbsent(d.id(), k -> new ArrayList<>()).add(p);
            }
        }
        Map<Integer, ExchangeKind> routes = new HashMap<>();
        for (Pipeline p : ordered) {
            routes.put(p.id(), declaredRoute(p, fragments, readers.containsKey(p.id())));
        }
        // A loop's body (WITH RECURSIVE's recursive term) runs its rounds on the coordinator, which alone decides
        // whether another round runs: no node waits on another between rounds.
        Set<Integer> onCoordinator = new LinkedHashSet<>();
        for (Pipeline p : ordered) {
            for (int id = p.sink().loopStart(); id >= 0 && id <= p.id(); id++) {
                onCoordinator.add(id);
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Pipeline p : ordered) {
                if (!onCoordinator.contains(p.id()) && mustRunOnCoordinator(p, routes, onCoordinator)) {
                    onCoordinator.add(p.id());
                    changed = true;
                }
            }
            for (Pipeline d : ordered) {
                ExchangeKind route = routes.get(d.id());
                boolean readOnCoordinator = readers.getOrDefault(d.id(), List.of()).stream()
                        .anyMatch(r -> onCoordinator.contains(r.id()));
                boolean spreadAway = route instanceof ExchangeKind.Repartition
                        || route instanceof ExchangeKind.Forward && !onCoordinator.contains(d.id());
                if (readOnCoordinator && spreadAway) {
                    routes.put(d.id(), new ExchangeKind.Gather());
                    changed = true;
                }
            }
        }
        for (Pipeline d : ordered) {
            List<Pipeline> rs = readers.getOrDefault(d.id(), List.of());
            if (routes.get(d.id()) instanceof ExchangeKind.Broadcast && rs.stream().allMatch(
                    r -> onCoordinator.contains(r.id()))) {
                routes.put(d.id(), new ExchangeKind.Gather());
            }
        }
        Map<Integer, Placement> placements = new HashMap<>();
        for (Pipeline p : ordered) {
            placements.put(p.id(), onCoordinator.contains(p.id()) ? Placement.COORDINATOR : Placement.EVERY_NODE);
            if (onCoordinator.contains(p.id()) && p.branches().stream().anyMatch(b -> b.source().partitioned())) {
                throw new IllegalArgumentException("pipeline " + p.id() + " (into " + p.sink().role() + ") must run on"
                        + " the coordinator alone, but it scans a table partitioned across the nodes, whose rows are"
                        + " not all there: a spread query cannot run it (a RIGHT or FULL join with"
                        + " troupe.spread.join = broadcast, a UNION ALL beside a gathered input, or a WITH RECURSIVE"
                        + " whose recursive term reads such a table)");
            }
        }
        return new SpreadPlan(ordered, placements, routes);
    }

    /**
     * The route the compiler declared for the rows entering {@code p}'s sink: the one kind of every
     * exchange that reads it (a Gather Merge gathers: the sort runs on the coordinator), else a Gather;
     * the result is gathered.
     */
    private static ExchangeKind declaredRoute(Pipeline p, FragmentPlan fragments, boolean read) {
        Set<ExchangeKind> kinds = new LinkedHashSet<>();
        for (ExchangeSpec e : fragments.exchanges()) {
            if (e.from() == p.id() && e.to() != ExchangeSpec.RESULT) {
                kinds.add(e.kind() instanceof ExchangeKind.GatherMerge ? new ExchangeKind.Gather() : e.kind());
            }
        }
        return read && kinds.size() == 1 ? kinds.iterator().next() : new ExchangeKind.Gather();
    }

    private static boolean mustRunOnCoordinator(Pipeline p, Map<Integer, ExchangeKind> routes,
                                                Set<Integer> onCoordinator) {
        for (Pipeline.Branch branch : p.branches()) {
            for (Operator operator : branch.operators()) {
                if (operator.needsWholeInput()) {
                    return true;
                }
            }
        }
        for (Pipeline d : p.dependencies()) {
            ExchangeKind route = routes.get(d.id());
            if (route instanceof ExchangeKind.Gather
                    || route instanceof ExchangeKind.Forward && onCoordinator.contains(d.id())) {
                return true;
            }
        }
        return false;
    }

    /** Where pipeline {@code pipeline} runs. */
    public Placement placement(int pipeline) {
        return require(placements, pipeline);
    }

    /** The exchange in front of pipeline {@code pipeline}'s sink as EXPLAIN draws it: "Gather to the coordinator" ... */
    public String label(int pipeline) {
        ExchangeKind route = route(pipeline);
        return route instanceof ExchangeKind.Gather ? "Gather to the coordinator" : route.label();
    }

    /** Where the rows entering pipeline {@code pipeline}'s sink go: Broadcast, Repartition, Gather or Forward. */
    public ExchangeKind route(int pipeline) {
        return require(routes, pipeline);
    }

    /**
     * How many workers each node runs of pipeline {@code pipeline}, given {@code workers} a pipeline: one
     * for a pipeline that reads a sort's output, whose order a second worker would interleave.
     */
    public int workers(int pipeline, int workers) {
        return ordered.stream().filter(p -> p.id() == pipeline).findFirst()
                .flatMap(SortedStreams::of).isPresent() ? 1 : workers;
    }

    /** Whether pipeline {@code pipeline} makes the query's result (it runs last, and its sink collects the rows). */
    public boolean makesResult(int pipeline) {
        return ordered.get(ordered.size() - 1).id() == pipeline;
    }

    /** Whether node {@code node} runs pipeline {@code pipeline}'s workers. */
    public boolean runsOn(int pipeline, int node) {
        return placement(pipeline) == Placement.EVERY_NODE || node == COORDINATOR;
    }

    /** The nodes, of {@code nodes}, to which node {@code from} sends rows entering pipeline {@code pipeline}'s sink. */
    public List<Integer> destinations(int pipeline, int from, int nodes) {
        ExchangeKind route = route(pipeline);
        if (!runsOn(pipeline, from)) {
            return List.of();
        }
        if (route instanceof ExchangeKind.Gather) {
            return List.of(COORDINATOR);
        }
        if (route instanceof ExchangeKind.Forward) {
            return List.of(from);
        }
        List<Integer> all = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            all.add(n);
        }
        return all;
    }

    /** The other nodes, of {@code nodes}, that send rows to node {@code to}'s sink of pipeline {@code pipeline}. */
    public List<Integer> sendersTo(int pipeline, int to, int nodes) {
        List<Integer> senders = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            if (n != to && destinations(pipeline, n, nodes).contains(to)) {
                senders.add(n);
            }
        }
        return senders;
    }

    /** Whether node {@code node} takes part in pipeline {@code pipeline}: runs its workers, or receives rows for its sink. */
    public boolean involves(int pipeline, int node, int nodes) {
        return runsOn(pipeline, node) || !sendersTo(pipeline, node, nodes).isEmpty();
    }

    /**
     * The share of every base source that node {@code node} of {@code nodes} reads: its share in the
     * pipelines on every node, all of it in those on the coordinator; all of a table partitioned across
     * the nodes, whose part here is this node's share already.
     */
    public Function<Source, ScanShare> shares(int node, int nodes) {
        Map<Source, ScanShare> shares = new IdentityHashMap<>();
        ScanShare share = new ScanShare(node, nodes);
        for (Pipeline p : ordered) {
            if (placement(p.id()) == Placement.EVERY_NODE) {
                p.branches().stream().filter(b -> !b.source().partitioned())
                        .forEach(b -> shares.put(b.source(), share));
            }
        }
        return source -> shares.getOrDefault(source, ScanShare.WHOLE);
    }

    /** One pipeline a line, in the order they run: {@code pipeline 0 (hash-build): every node, Broadcast}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Pipeline p : ordered) {
            sb.append("pipeline ").append(p.id()).append(" (").append(p.sink().role()).append("): ")
                    .append(placement(p.id()) == Placement.EVERY_NODE ? "every node" : "coordinator").append(", ")
                    .append(route(p.id()).label()).append('\n');
        }
        return sb.toString();
    }

    private static <T> T require(Map<Integer, T> byPipeline, int pipeline) {
        T value = byPipeline.get(pipeline);
        if (value == null) {
            throw new IllegalArgumentException("no pipeline " + pipeline + " in this spread plan");
        }
        return value;
    }
}
