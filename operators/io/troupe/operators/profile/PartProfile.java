package io.troupe.operators.profile;

import io.troupe.operators.exec.ExecutionProbe;
import io.troupe.operators.plan.Plan;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one node's part of a query spread over nodes did, as data that crosses JVMs with the part's end
 * (records of numbers, strings and lists only): its EXPLAIN ANALYZE lines ({@link Profiler#profilePart}),
 * depth first, and what crossed each exchange between nodes to and from it ({@link Traffic}).
 * {@link SpreadProfile} merges the parts of one query into its report.
 *
 * @param node           the node's index in the query (0: the coordinator)
 * @param name           the node as errors name it (its address in a cluster)
 * @param executionNanos the part's wall-clock time, from its start to its end
 * @param lines          every line of the part's profile, depth first
 * @param traffic        per exchange between nodes that this node sent into or received from
 */
public record PartProfile(int node, String name, long executionNanos, List<Line> lines, List<Traffic> traffic) {

    public PartProfile {
        lines = List.copyOf(lines);
        traffic = List.copyOf(traffic);
    }

    /**
     * One line of a part's profile ({@link NodeProfile} says what the numbers mean).
     *
     * @param label   the line's label, as EXPLAIN prints it
     * @param depth   0 for the top line, its children 1, ...
     * @param kind    a plan node, a join's build side, or the exchange at the top
     * @param timed   false for a node that compiles to nothing of its own
     * @param breaker whether it has rows in as well as rows out
     * @param total   this node's counts, over its workers
     * @param workers each worker's counts, by index ({@link ExecutionProbe#LEADER} for the leader)
     * @param memory  its operators' peak memory and spilled bytes on this node
     */
    public record Line(String label, int depth, NodeProfile.Kind kind, boolean timed, boolean breaker, Counts total,
                       List<Worker> workers, NodeProfile.Memory memory) {
        public Line {
            workers = List.copyOf(workers);
        }
    }

    /** What worker {@code index} ({@link ExecutionProbe#LEADER} for the leader) did at one line. */
    public record Worker(int index, Counts counts) {
    }

    /**
     * What crossed one exchange between nodes, as this node saw it: the batches, rows and payload bytes
     * (their encoded length, {@code BatchCodec}) its workers sent to the other nodes, and those it
     * received from them. Rows a node routes to itself cross no stream and are not counted. A batch
     * wider than a stream's largest message crosses as several (its rows and bytes are counted alike at
     * both ends; its batches, once sent and once per piece received).
     *
     * @param pipeline the pipeline whose sink's rows crossed
     * @param label    the exchange, as spread EXPLAIN draws it ("Broadcast", "Repartition by hash (k)", ...)
     * @param line     the index in {@link #lines} of the line the exchange is drawn above: the node whose
     *                 output crosses it; 0 (the top Gather's own line) for the exchange that makes the result
     */
    public record Traffic(int pipeline, String label, int line, long sentBatches, long sentRows, long sentBytes,
                          long receivedBatches, long receivedRows, long receivedBytes) {
    }

    /**
     * Node {@code node}'s part: the lines of {@code profile}, and {@code traffic} given by the plan node
     * each exchange is drawn above ({@code above}: null for the exchange that makes the result).
     */
    public static PartProfile of(int node, String name, QueryProfile profile, List<Drawn> traffic) {
        List<Line> lines = new ArrayList<>();
        Map<Plan, Integer> lineOf = new IdentityHashMap<>();
        flatten(profile.root(), 0, lines, lineOf);
        List<Traffic> placed = new ArrayList<>();
        for (Drawn d : traffic) {
            Integer line = d.above() == null ? Integer.valueOf(0) : lineOf.get(d.above());
            if (line == null) {
                throw new IllegalArgumentException("no line of this profile for the node " + d.above().label()
                        + " that " + d.label() + " is drawn above");
            }
            placed.add(new Traffic(d.pipeline(), d.label(), line, d.sentBatches(), d.sentRows(), d.sentBytes(),
                    d.receivedBatches(), d.receivedRows(), d.receivedBytes()));
        }
        return new PartProfile(node, name, profile.executionNanos(), lines, placed);
    }

    /** An exchange's traffic as the node counted it, with the plan node it is drawn above (null: the result's). */
    public record Drawn(int pipeline, String label, Plan above, long sentBatches, long sentRows, long sentBytes,
                        long receivedBatches, long receivedRows, long receivedBytes) {
    }

    private static void flatten(NodeProfile node, int depth, List<Line> into, Map<Plan, Integer> lineOf) {
        if (node.kind() == NodeProfile.Kind.PLAN) {
            lineOf.putIfAbsent(node.node(), into.size());
        }
        List<Worker> workers = new ArrayList<>();
        node.participants().forEach((index, counts) -> workers.add(new Worker(index, counts)));
        into.add(new Line(node.label(), depth, node.kind(), node.timed(), node.breaker(), node.total(), workers,
                node.memory()));
        for (NodeProfile child : node.children()) {
            flatten(child, depth + 1, into, lineOf);
        }
    }
}
