package io.troupe.operators.profile;

import io.troupe.operators.exec.CollectSink;
import io.troupe.operators.exec.ExecutionProbe;
import io.troupe.operators.exec.Operator;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.fragment.ExchangeSpec;
import io.troupe.operators.fragment.FragmentPlan;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanCompiler;
import io.troupe.operators.sort.SortedSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import static io.troupe.operators.profile.ParticipantCounters.BATCHES;
import static io.troupe.operators.profile.ParticipantCounters.NANOS;
import static io.troupe.operators.profile.ParticipantCounters.ROWS;

/**
 * EXPLAIN ANALYZE's probe: set on the {@link io.troupe.operators.exec.ExecContext} of one query, it
 * gives every participant that binds a pipeline its own {@link ParticipantCounters}, and after the
 * query sums them per plan node into a {@link QueryProfile} ({@link #profile}).
 *
 * <p>From sites to nodes: a reader counts for the node its source was compiled for, an operator for
 * its node, a tail for the node of the pipeline's sink (the Gather for the result's collector), as
 * {@code PlanCompiler.origin} records them; the exchange's line (the Gather's, or the Gather Merge's)
 * sits where the plan put that exchange ({@code PlanCompiler.drawnAbove}): above the root, or above
 * the sort whose runs a Gather Merge merges. An operator's rows out are the rows into the next site
 * of its chain, and its own time is its time minus the next site's (the next site is called only from
 * inside it). A node with an operator and a sink (a hash join: probe and build) shows its sink as a
 * separate "Hash" line over the input that feeds it, as PostgreSQL does. A shared subplan
 * ({@code Plan.share}) ran once: its "CTE" line, under the root, counts the rows its sink kept (no
 * source of its own reads them), and each use's "CTE Scan" line the rows that use read. A use that
 * appears twice in the tree as one object (not aliased apart) shows the sum of both on each line.
 *
 * <p><b>Gather Merge.</b> When the plan's exchange at the top is a Gather Merge, the workers ran a
 * pipeline of their own ({@code SortedStreams.streamPipeline}: a {@link SortedSource.Streams} reader
 * into the exchange's channel) and the Gather Merge ran the operators above the sort over the merge,
 * as the leader ({@code SortedStreams.chain}). The streams' source counts for the node of the source
 * it derives from (the sort). The sort's rows out are the rows the merge pushed into that chain (its
 * global order, after a top-N's window), so they are the leader's; a worker's line of the sort shows
 * its rows in and the time it spent reading its stream. What each worker streamed is the Gather
 * Merge's rows in (by worker; a worker streams whichever run it claimed, not necessarily the one it
 * sorted); its rows are what the merge pushed on, as the sort's (the leader's), and its time the
 * workers' sends and the leader's hand-over into the result. The nodes above it ran once, in the
 * Gather Merge: the leader's.
 *
 * <h2>Concurrency and happens-before</h2>
 * {@link #bind} and {@link #finalized} may come from any thread; they and {@link #profile} synchronize
 * on this. The counts themselves are written without synchronization, each by its participant only,
 * and read by {@link #profile}, which must run after the query completed. That read sees every write:
 * with the leader alone everything runs on the caller's thread; with workers each participant's last
 * write precedes its done report (a worker's {@code WorkerDone}, the exchange's {@code Exchange.Done}: an
 * actor message, whose send happens before its receipt), the coordinator completes the query's future
 * only after receiving every report of every pipeline, and the caller reads after that future
 * completed. A failed or cancelled query is never profiled.
 */
public final class Profiler implements ExecutionProbe {

    private final List<ParticipantCounters> participants = new ArrayList<>();
    private final Map<Pipeline, Long> finalizeNanos = new IdentityHashMap<>();
    /** Per compiled sink or operator, what its memory account held at its peak and spilled. */
    private final Map<Object, NodeProfile.Memory> memory = new IdentityHashMap<>();

    @Override
    public synchronized Recorder bind(Pipeline pipeline, int participant) {
        ParticipantCounters counters = new ParticipantCounters(pipeline, participant);
        participants.add(counters);
        return counters;
    }

    @Override
    public synchronized void finalized(Pipeline pipeline, long nanos) {
        finalizeNanos.merge(pipeline, nanos, Long::sum);
    }

    @Override
    public synchronized void memory(List<MemoryReservation> reservations) {
        for (MemoryReservation r : reservations) {
            memory.merge(r.owner(), new NodeProfile.Memory(r.peakBytes(), r.spilledBytes()), NodeProfile.Memory::plus);
        }
    }

    /**
     * The profile of the completed query.
     *
     * @param plan           the plan that ran
     * @param query          what it was compiled into: its pipelines and exchanges
     * @param compiler       what compiled it: the plan node of each source, operator, sink and exchange
     * @param workersPlanned the workers it asked for (0: the leader alone)
     * @param executionNanos its wall-clock time
     * @param result         its rows
     */
    public synchronized QueryProfile profile(Plan plan, PlanCompiler.CompiledQuery query, PlanCompiler compiler,
                                             int workersPlanned, long executionNanos, QueryResult result) {
        FragmentPlan fragments = workersPlanned == 0 ? query.fragments().leaderAlone() : query.fragments();
        List<ExchangeSpec> channels = fragments.overChannels();
        if (channels.size() > 1) {
            throw new IllegalStateException("EXPLAIN ANALYZE draws one exchange over channels, the plan has "
                    + channels);
        }
        ExchangeSpec top = channels.isEmpty() ? null : channels.get(0);
        return new Summary(query.pipelines(), compiler::origin, top == null ? null : top.kind().label(),
                top != null && top.kind() instanceof ExchangeKind.GatherMerge,
                top == null ? null : compiler.drawnAbove(top), false)
                .profile(plan, workersPlanned, executionNanos, result);
    }

    /**
     * The profile of this node's part of a completed query spread over nodes ({@code SpreadPlan}): as
     * {@link #profile}, with two differences. The line at the top is the "Gather to the coordinator"
     * over the root, its rows those this node's workers sent towards the result (on every node the
     * pipeline that makes it runs on; a sort's Gather Merge runs on the coordinator alone, in place, so
     * there is none). A node that this node's part did not run (its pipeline runs on the coordinator
     * alone) has a line of zeros rather than its children's counts. Every number is this node's: what
     * its workers read, pushed and emitted, before the exchanges routed the rows between nodes.
     *
     * @param workers the workers per node
     */
    public synchronized QueryProfile profilePart(Plan plan, PlanCompiler.CompiledQuery query, PlanCompiler compiler,
                                                 int workers, long executionNanos, QueryResult result) {
        return new Summary(query.pipelines(), compiler::origin, "Gather to the coordinator", false, plan, true)
                .profile(plan, workers, executionNanos, result);
    }

    /** Counts of one line being summed: totals, and per participant. */
    private static final class Tally {
        Counts total = Counts.ZERO;
        final TreeMap<Integer, Counts> participants = new TreeMap<>();

        void add(int participant, Counts counts) {
            total = total.plus(counts);
            participants.merge(participant, counts, Counts::plus);
        }

        /** Time of no participant's (a finalize on the executor's thread). */
        void addTime(long nanos) {
            total = total.plus(new Counts(0, 0, 0, 0, nanos));
        }
    }

    /** One summing of the counts into lines. Not threadsafe; runs under the profiler's lock. */
    private final class Summary {
        private final Function<Object, Plan> origins;
        private final Map<Plan, Tally> nodes = new IdentityHashMap<>();
        private final Map<Plan, Tally> builds = new IdentityHashMap<>();
        /** Per node with a build side, the node whose output feeds the build. */
        private final Map<Plan, Plan> buildInputs = new IdentityHashMap<>();
        private final Set<Plan> breakers = Collections.newSetFromMap(new IdentityHashMap<>());
        /** Shared subplans (CTE lines): their sink keeps the batches that their uses' sources read. */
        private final Set<Plan> kept = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Tally gather = new Tally();
        /** Memory by plan node; a hash join's build account goes to its Hash line ({@code buildMemory}). */
        private final Map<Plan, NodeProfile.Memory> nodeMemory = new IdentityHashMap<>();
        private final Map<Plan, NodeProfile.Memory> buildMemory = new IdentityHashMap<>();

        /** The label of the exchange that moved batches over channels (the Gather's line); null with the leader alone. */
        private final String exchangeLabel;
        /** The plan node the exchange's line sits above. */
        private final Plan exchangeAbove;
        /** Whether that exchange is a Gather Merge (the plan says so: nothing is inferred from what ran). */
        private final boolean gatherMerge;
        /**
         * Pipelines that start and end in one node (the steps of an aggregate with count(DISTINCT)):
         * the node's inner work, whose time is the node's and whose rows are neither its input nor its output.
         */
        private final Set<Pipeline> inner = Collections.newSetFromMap(new IdentityHashMap<>());

        /**
         * Pipelines that keep a streaming node's own input whole before the node reads it back (a spread
         * query's repartitioned join keeps its probe side, a spread LIMIT each node's first rows): the
         * node's inner work, as {@link #inner}; its rows are counted where the node reads them and emits.
         */
        private final Set<Pipeline> staged = Collections.newSetFromMap(new IdentityHashMap<>());
        /** Plan nodes that compiled to a source, an operator or a sink: a part that ran none of them shows zeros. */
        private final Set<Plan> compiled = Collections.newSetFromMap(new IdentityHashMap<>());
        /** Whether this is one node's part of a spread query ({@link #profilePart}). */
        private final boolean part;

        Summary(List<Pipeline> pipelines, Function<Object, Plan> origins, String exchangeLabel, boolean gatherMerge,
                Plan exchangeAbove, boolean part) {
            // Sorted streams are made at run time: they count for the source they derive from.
            this.origins = compiled -> origins.apply(compiled instanceof SortedSource.Streams streams
                    ? streams.sorted() : compiled);
            this.exchangeLabel = exchangeLabel;
            this.exchangeAbove = exchangeAbove;
            this.gatherMerge = gatherMerge;
            this.part = part;
            Set<Plan> streaming = Collections.newSetFromMap(new IdentityHashMap<>());
            Set<Plan> sourced = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Pipeline p : pipelines) {
                for (Pipeline.Branch branch : p.branches()) {
                    sourced.add(this.origins.apply(branch.source()));
                    for (Operator op : branch.operators()) {
                        streaming.add(origins.apply(op));
                    }
                }
                compiled.add(origins.apply(p.sink()));
            }
            compiled.addAll(sourced);
            compiled.addAll(streaming);
            for (Pipeline p : pipelines) {
                Plan sinkNode = origins.apply(p.sink());
                if (sinkNode == null) {
                    continue;
                }
                if (p.branches().stream().allMatch(b -> this.origins.apply(b.source()) == sinkNode)) {
                    inner.add(p);
                }
                if (streaming.contains(sinkNode) && p.sink() instanceof CollectSink) {
                    staged.add(p);
                } else if (streaming.contains(sinkNode)) {
                    buildInputs.put(sinkNode, origins.apply(p.branches().get(0).source()));
                    builds.put(sinkNode, new Tally());
                } else if (sourced.contains(sinkNode)) {
                    breakers.add(sinkNode);
                } else {
                    kept.add(sinkNode);
                }
            }
            for (ParticipantCounters counters : participants) {
                sum(counters);
            }
            Set<Object> sinks = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Pipeline p : pipelines) {
                if (!staged.contains(p)) {
                    sinks.add(p.sink());
                }
            }
            for (Map.Entry<Object, NodeProfile.Memory> e : memory.entrySet()) {
                Plan node = this.origins.apply(e.getKey());
                if (node != null) {
                    boolean build = sinks.contains(e.getKey()) && builds.containsKey(node);
                    (build ? buildMemory : nodeMemory).merge(node, e.getValue(), NodeProfile.Memory::plus);
                }
            }
            for (Map.Entry<Pipeline, Long> e : finalizeNanos.entrySet()) {
                sinkTally(e.getKey()).addTime(e.getValue());
            }
        }

        private Tally sinkTally(Pipeline p) {
            Plan node = origins.apply(p.sink());
            if (node == null) {
                return gather;
            }
            if (staged.contains(p)) {
                return nodes.computeIfAbsent(node, n -> new Tally());
            }
            Tally build = builds.get(node);
            return build != null ? build : nodes.computeIfAbsent(node, n -> new Tally());
        }

        private void sum(ParticipantCounters c) {
            Pipeline p = c.pipeline();
            int who = c.participant();
            for (int b = 0; b < p.branches().size(); b++) {
                Pipeline.Branch branch = p.branches().get(b);
                int source = c.firstSite(b);
                boolean streams = branch.source() instanceof SortedSource.Streams;
                Counts read;
                if (c.pushed(b)) {
                    // The merge pushed the sort's output in: its own time is the site's less the next one's.
                    read = new Counts(c.get(source, ROWS), c.get(source, BATCHES), 0, 0,
                            c.get(source, NANOS) - c.get(source + 1, NANOS));
                    // What the merge pushed on is the Gather Merge's output too.
                    gather.add(who, new Counts(c.get(source, ROWS), c.get(source, BATCHES), 0, 0, 0));
                } else if (streams) {
                    // A worker's sorted stream: its rows are the Gather Merge's rows in, not the sort's output.
                    read = new Counts(0, 0, 0, 0, c.get(source, NANOS));
                } else if (inner.contains(p) || readsOwnInput(branch)) {
                    read = new Counts(0, 0, 0, 0, c.get(source, NANOS));
                } else {
                    read = new Counts(c.get(source, ROWS), c.get(source, BATCHES), 0, 0, c.get(source, NANOS));
                }
                nodeTally(branch.source()).add(who, read);
                List<Operator> ops = branch.operators();
                for (int i = 0; i < ops.size(); i++) {
                    int site = source + 1 + i;
                    long nanos = c.get(site, NANOS) - c.get(site + 1, NANOS);
                    boolean innerStep = staged.contains(p) && origins.apply(ops.get(i)) == origins.apply(p.sink());
                    nodeTally(ops.get(i)).add(who, innerStep ? new Counts(0, 0, 0, 0, nanos)
                            : new Counts(c.get(site + 1, ROWS), c.get(site + 1, BATCHES), 0, 0, nanos));
                }
                int tail = source + ops.size() + 1;
                long rows = c.get(tail, ROWS);
                long batches = c.get(tail, BATCHES);
                Plan sinkNode = origins.apply(p.sink());
                long nanos = c.get(tail, NANOS);
                Counts counts;
                if (sinkNode == null && gatherMerge) {
                    // A worker's stream is what the Gather Merge takes in; the hand-over into the result is time.
                    counts = streams ? new Counts(0, 0, rows, batches, nanos) : new Counts(0, 0, 0, 0, nanos);
                } else if (staged.contains(p)) {
                    counts = new Counts(0, 0, 0, 0, nanos);
                } else if (sinkNode == null || builds.containsKey(sinkNode) || kept.contains(sinkNode)) {
                    // What a Gather, a hash build or a shared subplan takes in is what its line shows as its rows.
                    counts = new Counts(rows, batches, rows, batches, nanos);
                } else if (inner.contains(p)) {
                    counts = new Counts(0, 0, 0, 0, nanos);
                } else {
                    counts = new Counts(0, 0, rows, batches, nanos);
                }
                sinkTally(p).add(who, counts);
            }
        }

        /** Whether {@code branch}'s source reads what its first operator's node kept of its input ({@link #staged}). */
        private boolean readsOwnInput(Pipeline.Branch branch) {
            Plan node = origins.apply(branch.source());
            return !branch.operators().isEmpty() && node == origins.apply(branch.operators().get(0))
                    && staged.stream().anyMatch(p -> origins.apply(p.sink()) == node);
        }

        private Tally nodeTally(Object compiled) {
            Plan node = origins.apply(compiled);
            if (node == null) {
                throw new IllegalStateException("EXPLAIN ANALYZE: no plan node compiled " + compiled);
            }
            return nodes.computeIfAbsent(node, n -> new Tally());
        }

        QueryProfile profile(Plan plan, int workersPlanned, long executionNanos, QueryResult result) {
            // The shared subplans ran once: one CTE line each, under the root, before its children.
            List<NodeProfile> shared = new ArrayList<>();
            for (Plan cte : plan.sharedSubplans()) {
                shared.add(line(cte, List.of()));
            }
            NodeProfile root = line(plan, shared);
            int launched = workersPlanned == 0 ? 0 : launched();
            return new QueryProfile(root, workersPlanned, launched, executionNanos, result);
        }

        /** The fewest workers (not the leader) that bound any one pipeline. */
        private int launched() {
            Map<Pipeline, Set<Integer>> bound = new IdentityHashMap<>();
            for (ParticipantCounters c : participants) {
                if (c.participant() != LEADER) {
                    bound.computeIfAbsent(c.pipeline(), p -> new HashSet<>()).add(c.participant());
                }
            }
            return bound.values().stream().mapToInt(Set::size).min().orElse(0);
        }

        /**
         * {@code node}'s line, with {@code shared} (the CTE lines, under the root only) before its
         * children, under the exchange's line when the plan put the exchange above it.
         */
        private NodeProfile line(Plan node, List<NodeProfile> shared) {
            NodeProfile line = node.explained() ? nodeLine(node, shared) : line(node.children().get(0), shared);
            if (node != exchangeAbove) {
                return line;
            }
            return new NodeProfile(exchangeLabel, NodeProfile.Kind.GATHER, null, true, gatherMerge,
                    gather.total, gather.participants, List.of(line), NodeProfile.Memory.NONE);
        }

        private NodeProfile nodeLine(Plan node, List<NodeProfile> shared) {
            List<NodeProfile> children = new ArrayList<>();
            Plan buildInput = buildInputs.get(node);
            for (Plan child : node.children()) {
                NodeProfile line = line(child, List.of());
                if (buildInput != null && contains(child, buildInput)) {
                    Tally build = builds.get(node);
                    line = new NodeProfile("Hash", NodeProfile.Kind.HASH, node, true, false, build.total,
                            build.participants, List.of(line), buildMemory.getOrDefault(node, NodeProfile.Memory.NONE));
                }
                children.add(line);
            }
            Tally tally = nodes.get(node);
            if (tally == null && part && compiled.contains(node)) {
                // Its pipeline ran on other nodes only.
                tally = new Tally();
            }
            if (tally == null && !compiled.contains(node)
                    && children.stream().allMatch(c -> c.kind() == NodeProfile.Kind.NEVER_EXECUTED)) {
                return new NodeProfile(node.label(), NodeProfile.Kind.NEVER_EXECUTED, node, false, false, Counts.ZERO,
                        new TreeMap<>(), children, NodeProfile.Memory.NONE);
            }
            if (tally == null) {
                Counts passed = Counts.ZERO;
                for (NodeProfile child : children) {
                    passed = passed.plus(new Counts(child.rows(), child.batches(), 0, 0, 0));
                }
                return new NodeProfile(node.label(), NodeProfile.Kind.PLAN, node, false, false, passed,
                        new TreeMap<>(), withShared(shared, children), NodeProfile.Memory.NONE);
            }
            return new NodeProfile(node.label(), NodeProfile.Kind.PLAN, node, true, breakers.contains(node),
                    tally.total, tally.participants, withShared(shared, children),
                    nodeMemory.getOrDefault(node, NodeProfile.Memory.NONE));
        }

        private static List<NodeProfile> withShared(List<NodeProfile> shared, List<NodeProfile> children) {
            if (shared.isEmpty()) {
                return children;
            }
            List<NodeProfile> all = new ArrayList<>(shared);
            all.addAll(children);
            return all;
        }

        private boolean contains(Plan tree, Plan node) {
            if (tree == node) {
                return true;
            }
            for (Plan child : tree.children()) {
                if (contains(child, node)) {
                    return true;
                }
            }
            return false;
        }
    }
}
