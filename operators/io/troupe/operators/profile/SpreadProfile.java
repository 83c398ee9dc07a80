package io.troupe.operators.profile;

import io.troupe.operators.exec.ExecutionProbe;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * EXPLAIN ANALYZE of a query spread over nodes: every node's {@link PartProfile}, merged into one
 * report. Per plan node, the total over the nodes and what each node (and each of its workers) did;
 * per exchange between nodes, the batches, rows and payload bytes each node sent and received. The
 * coordinator builds it from the parts' profiles (its own and those that came with the others' ends),
 * so it is data that crosses JVMs as they do. {@link #render()} prints it as {@link QueryProfile} does,
 * with a "Node n" line under each plan node and its workers under that, and each exchange between
 * nodes as a line above the node whose output crosses it:
 *
 * <pre>
 * Gather to the coordinator (actual rows=3 batches=3 time=0.210 ms)
 *   Nodes: 3, Workers Planned: 2 per node
 *   Sent: batches=2 rows=2 bytes=184, received: batches=2 rows=2 bytes=184
 *   Node 0 (node 127.0.0.1:25521): rows=1 batches=1 time=0.070 ms
 *     Worker 0: rows=1 batches=1 time=0.070 ms
 *     Node 0 sent: batches=0 rows=0 bytes=0, received: batches=2 rows=2 bytes=184
 *   ...
 *       ->  Hash Aggregate sum(orders.amount) AS total (actual rows=3 batches=3 rows in=8000 ...)
 *             Node 0 (node 127.0.0.1:25521): rows=1 batches=1 rows in=2667 batches in=11 time=1.902 ms
 *               Worker 0: ...
 *             ->  Repartition by hash (customers.region) (sent: batches=22 rows=5334 bytes=84128, ...)
 *                   Node 0 sent: batches=8 rows=1790 bytes=28240, received: batches=7 rows=1777 bytes=28052
 *                   ...
 *                   ->  Hash Join INNER on (orders.customer = customers.id) (actual rows=8000 ...)
 * Execution Time: 31.406 ms
 * </pre>
 *
 * A node's numbers are its own: what its workers read, pushed and emitted (a breaker's rows in are what
 * they pushed towards its exchange, before it routed them; its rows out, what it emitted on that node),
 * so each plan node's rows summed over the nodes are the query's, as in one JVM. Times are summed over
 * workers and nodes; Execution Time is the coordinator's, from its part's start to its end.
 *
 * @param parts          each node's part, by node index from 0 (the coordinator)
 * @param workers        workers per node
 * @param executionNanos the query's wall-clock time on the coordinator
 */
public record SpreadProfile(List<PartProfile> parts, int workers, long executionNanos) {

    private static final String STEP = "      ";

    /**
     * @throws IllegalArgumentException when the parts are not nodes 0..n-1 in order, or do not have the
     *         same lines (they ran another plan)
     */
    public SpreadProfile {
        parts = List.copyOf(parts);
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a spread profile needs a part of every node, got none");
        }
        List<PartProfile.Line> first = parts.get(0).lines();
        for (int n = 0; n < parts.size(); n++) {
            PartProfile part = parts.get(n);
            if (part.node() != n) {
                throw new IllegalArgumentException("part " + n + " of a spread profile is node " + part.node()
                        + "'s: the parts go by node index from 0");
            }
            List<PartProfile.Line> lines = part.lines();
            boolean alike = lines.size() == first.size();
            for (int i = 0; alike && i < lines.size(); i++) {
                PartProfile.Line line = lines.get(i);
                alike = line.label().equals(first.get(i).label()) && line.depth() == first.get(i).depth();
            }
            if (!alike) {
                throw new IllegalArgumentException(part.name() + " profiled other lines than " + parts.get(0).name()
                        + ": " + labels(lines) + " against " + labels(first));
            }
        }
    }

    private static List<String> labels(List<PartProfile.Line> lines) {
        return lines.stream().map(PartProfile.Line::label).toList();
    }

    /** One line of the report: a plan node (or a join's build side, or the top Gather) over every node. */
    public record Line(String label, int depth, NodeProfile.Kind kind, boolean timed, boolean breaker, Counts total,
                       List<PartProfile.Line> byNode) {

        /** Node {@code node}'s counts at this line. */
        public Counts node(int node) {
            return byNode.get(node).total();
        }
    }

    /**
     * One exchange between nodes: what each node sent and received ({@link PartProfile.Traffic}; a node
     * that took no part has zeros).
     */
    public record Exchange(int pipeline, String label, int line, List<PartProfile.Traffic> byNode) {

        /** What every node sent and received, summed. */
        public PartProfile.Traffic total() {
            long[] sum = new long[6];
            for (PartProfile.Traffic t : byNode) {
                sum[0] += t.sentBatches();
                sum[1] += t.sentRows();
                sum[2] += t.sentBytes();
                sum[3] += t.receivedBatches();
                sum[4] += t.receivedRows();
                sum[5] += t.receivedBytes();
            }
            return new PartProfile.Traffic(pipeline, label, line, sum[0], sum[1], sum[2], sum[3], sum[4], sum[5]);
        }
    }

    /** How many nodes ran the query. */
    public int nodes() {
        return parts.size();
    }

    /** Every line, depth first, each with its total over the nodes and every node's. */
    public List<Line> lines() {
        List<Line> merged = new ArrayList<>();
        List<PartProfile.Line> first = parts.get(0).lines();
        for (int i = 0; i < first.size(); i++) {
            List<PartProfile.Line> byNode = new ArrayList<>();
            Counts total = Counts.ZERO;
            boolean timed = false;
            for (PartProfile part : parts) {
                PartProfile.Line line = part.lines().get(i);
                byNode.add(line);
                total = total.plus(line.total());
                timed |= line.timed();
            }
            PartProfile.Line line = first.get(i);
            merged.add(new Line(line.label(), line.depth(), line.kind(), timed, line.breaker(), total, byNode));
        }
        return merged;
    }

    /** The first line (depth first) whose label starts with {@code prefix}. */
    public Line find(String prefix) {
        return lines().stream().filter(l -> l.label().startsWith(prefix)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("no line of this profile starts with '" + prefix + "': "
                        + render()));
    }

    /** Every exchange between nodes that some node sent into or received from, by pipeline. */
    public List<Exchange> exchanges() {
        TreeMap<Integer, PartProfile.Traffic> seen = new TreeMap<>();
        parts.forEach(p -> p.traffic().forEach(t -> seen.putIfAbsent(t.pipeline(), t)));
        List<Exchange> exchanges = new ArrayList<>();
        for (PartProfile.Traffic any : seen.values()) {
            List<PartProfile.Traffic> byNode = new ArrayList<>();
            for (PartProfile part : parts) {
                byNode.add(part.traffic().stream().filter(t -> t.pipeline() == any.pipeline()).findFirst()
                        .orElse(new PartProfile.Traffic(any.pipeline(), any.label(), any.line(), 0, 0, 0, 0, 0, 0)));
            }
            exchanges.add(new Exchange(any.pipeline(), any.label(), any.line(), byNode));
        }
        return exchanges;
    }

    /** The report, one line a plan node with a line per node under it; see the class comment. */
    public String render() {
        List<Line> lines = lines();
        List<Exchange> exchanges = exchanges();
        StringBuilder sb = new StringBuilder();
        render(lines, exchanges, 0, 0, sb);
        sb.append("Execution Time: ").append(QueryProfile.millis(executionNanos)).append('\n');
        return sb.toString();
    }

    /** Renders line {@code index} at {@code depth} with its subtree; returns the index after the subtree. */
    private int render(List<Line> lines, List<Exchange> exchanges, int index, int depth, StringBuilder sb) {
        Line line = lines.get(index);
        for (Exchange e : exchanges) {
            if (e.line() == index && index != 0) {
                String indent = STEP.repeat(depth);
                sb.append(indent).append(depth == 0 ? "" : "->  ").append(e.label()).append(" (");
                traffic("sent", e.total(), sb);
                sb.append(")\n");
                nodeTraffic(e, indent + (depth == 0 ? "  " : STEP), sb);
                depth++;
            }
        }
        String indent = STEP.repeat(depth);
        sb.append(indent).append(depth == 0 ? "" : "->  ").append(line.label());
        QueryProfile.actual(line.kind(), line.total(), line.breaker(), line.timed(), sb);
        String detail = indent + (depth == 0 ? "  " : STEP);
        if (index == 0) {
            sb.append(detail).append("Nodes: ").append(nodes()).append(", Workers Planned: ").append(workers())
                    .append(" per node\n");
            for (Exchange e : exchanges) {
                if (e.line() == 0) {
                    sb.append(detail);
                    traffic("Sent", e.total(), sb);
                    sb.append('\n');
                    nodeTraffic(e, detail, sb);
                }
            }
        }
        if (line.timed()) {
            for (int n = 0; n < nodes(); n++) {
                node(n, line, detail, sb);
            }
        }
        int next = index + 1;
        while (next < lines.size() && lines.get(next).depth() > line.depth()) {
            next = render(lines, exchanges, next, depth + 1, sb);
        }
        return next;
    }

    private void node(int n, Line line, String indent, StringBuilder sb) {
        PartProfile.Line here = line.byNode().get(n);
        String name = parts.get(n).name();
        sb.append(indent).append("Node ").append(n).append(name.equals("node " + n) ? "" : " (" + name + ")")
                .append(": ");
        QueryProfile.counts(here.total(), line.breaker(), true, sb);
        NodeProfile.Memory memory = here.memory();
        if (memory.peakBytes() > 0) {
            sb.append(" memory peak=").append(QueryProfile.bytes(memory.peakBytes()));
        }
        if (memory.spilledBytes() > 0) {
            sb.append(" spilled=").append(QueryProfile.bytes(memory.spilledBytes()));
        }
        sb.append('\n');
        // Workers by index, then the leader (its key, LEADER, sorts first).
        for (PartProfile.Worker w : here.workers()) {
            if (w.index() != ExecutionProbe.LEADER) {
                worker("Worker " + w.index(), w.counts(), line.breaker(), indent + "  ", sb);
            }
        }
        for (PartProfile.Worker w : here.workers()) {
            if (w.index() == ExecutionProbe.LEADER) {
                worker("Leader", w.counts(), line.breaker(), indent + "  ", sb);
            }
        }
    }

    private static void worker(String name, Counts counts, boolean breaker, String indent, StringBuilder sb) {
        sb.append(indent).append(name).append(": ");
        QueryProfile.counts(counts, breaker, true, sb);
        sb.append('\n');
    }

    private static void nodeTraffic(Exchange e, String indent, StringBuilder sb) {
        for (int n = 0; n < e.byNode().size(); n++) {
            PartProfile.Traffic t = e.byNode().get(n);
            sb.append(indent).append("Node ").append(n).append(' ');
            traffic("sent", t, sb);
            sb.append('\n');
        }
    }

    /** "sent: batches=.. rows=.. bytes=.., received: batches=.. rows=.. bytes=..", {@code sent} naming the first. */
    private static void traffic(String sent, PartProfile.Traffic t, StringBuilder sb) {
        sb.append(sent).append(": batches=").append(t.sentBatches()).append(" rows=").append(t.sentRows())
                .append(" bytes=").append(t.sentBytes()).append(", received: batches=").append(t.receivedBatches())
                .append(" rows=").append(t.receivedRows()).append(" bytes=").append(t.receivedBytes());
    }

    @Override
    public String toString() {
        return render();
    }
}
