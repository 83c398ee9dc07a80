package io.troupe.operators.profile;

import io.troupe.operators.exec.ExecutionProbe;
import io.troupe.operators.exec.QueryResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The result of EXPLAIN ANALYZE: the query's rows, and its plan with what each node did
 * ({@link NodeProfile} says what each number means), rendered as PostgreSQL prints it:
 *
 * <pre>
 * Gather (actual rows=1 batches=1 time=0.012 ms)
 *   Workers Planned: 2
 *   Workers Launched: 2
 *       ->  Hash Aggregate count(*) AS count (actual rows=1 batches=1 rows in=1000000 batches in=489 time=3.104 ms)
 *             Worker 0: rows=0 batches=0 rows in=501760 batches in=245 time=1.570 ms
 *             Leader: rows=1 batches=1 rows in=0 batches in=0 time=0.004 ms
 *             ->  Hash Join INNER on (t1.i = t2.i) (actual rows=1000000 batches=489 time=98.304 ms)
 *                   Worker 0: rows=501760 batches=245 time=49.018 ms
 *                   ...
 * Execution Time: 181.432 ms
 * </pre>
 *
 * With workers the plan's exchange that moves batches has a line where the plan put it: a Gather
 * over the whole plan, or a Gather Merge (with its rows in) over the sort of an ORDER BY at the top,
 * under the nodes that run after the merge (see {@link Profiler}). It says, as PostgreSQL does, how
 * many workers were planned and how many were launched (spawned and bound, in the pipeline with the
 * fewest), and every node lists what each
 * participant did ("Worker n", and "Leader" where the leader ran morsels itself). The leader alone
 * (0 workers) has no Gather and no participant lines. Times are in milliseconds with three decimals;
 * the last line is the query's wall-clock time from start to result.
 *
 * <p>Immutable.
 */
public final class QueryProfile {

    private static final String STEP = "      ";

    private final NodeProfile root;
    private final int workersPlanned;
    private final int workersLaunched;
    private final long executionNanos;
    private final QueryResult result;

    QueryProfile(NodeProfile root, int workersPlanned, int workersLaunched, long executionNanos, QueryResult result) {
        this.root = root;
        this.workersPlanned = workersPlanned;
        this.workersLaunched = workersLaunched;
        this.executionNanos = executionNanos;
        this.result = result;
    }

    /** The top line: the Gather with workers (under a Gather Merge, the plan's root), else the plan's root. */
    public NodeProfile root() {
        return root;
    }

    /** Every line, depth first, in the order they are printed. */
    public List<NodeProfile> nodes() {
        List<NodeProfile> all = new ArrayList<>();
        collect(root, all);
        return all;
    }

    private static void collect(NodeProfile node, List<NodeProfile> into) {
        into.add(node);
        for (NodeProfile child : node.children()) {
            collect(child, into);
        }
    }

    /** The first line (depth first) whose label starts with {@code prefix}. */
    public NodeProfile find(String prefix) {
        for (NodeProfile node : nodes()) {
            if (node.label().startsWith(prefix)) {
                return node;
            }
        }
        throw new IllegalArgumentException("no node of this profile starts with '" + prefix + "': " + render());
    }

    /** Workers the query asked for; 0 for the leader alone. */
    public int workersPlanned() {
        return workersPlanned;
    }

    /** Workers that were spawned and bound their chains, in the pipeline with the fewest. */
    public int workersLaunched() {
        return workersLaunched;
    }

    /** Wall-clock time from the query's start to its result. */
    public long executionNanos() {
        return executionNanos;
    }

    /** The query's rows: it ran for real. */
    public QueryResult result() {
        return result;
    }

    /** The plan with its actual rows, batches and times, one node a line; see the class comment. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        render(root, 0, sb);
        sb.append("Execution Time: ").append(millis(executionNanos)).append('\n');
        return sb.toString();
    }

    private void render(NodeProfile node, int depth, StringBuilder sb) {
        String indent = STEP.repeat(depth);
        sb.append(indent).append(depth == 0 ? "" : "->  ").append(node.label());
        actual(node.kind(), node.total(), node.breaker(), node.timed(), sb);
        String detail = indent + (depth == 0 ? "  " : STEP);
        if (node.kind() == NodeProfile.Kind.GATHER) {
            sb.append(detail).append("Workers Planned: ").append(workersPlanned).append('\n');
            sb.append(detail).append("Workers Launched: ").append(workersLaunched).append('\n');
        }
        NodeProfile.Memory memory = node.memory();
        if (memory.peakBytes() > 0 || memory.spilledBytes() > 0) {
            sb.append(detail).append("Memory: peak=").append(bytes(memory.peakBytes()));
            if (memory.spilledBytes() > 0) {
                sb.append(" spilled=").append(bytes(memory.spilledBytes()));
            }
            sb.append('\n');
        }
        if (workersPlanned > 0) {
            // Workers by index, then the leader (its key, LEADER, sorts first).
            for (Map.Entry<Integer, Counts> e : node.participants().entrySet()) {
                if (e.getKey() != ExecutionProbe.LEADER) {
                    participant("Worker " + e.getKey(), e.getValue(), node, detail, sb);
                }
            }
            Counts leader = node.participants().get(ExecutionProbe.LEADER);
            if (leader != null) {
                participant("Leader", leader, node, detail, sb);
            }
        }
        for (NodeProfile child : node.children()) {
            render(child, depth + 1, sb);
        }
    }

    private static void participant(String name, Counts counts, NodeProfile node, String indent, StringBuilder sb) {
        sb.append(indent).append(name).append(": ");
        counts(counts, node.breaker(), true, sb);
        sb.append('\n');
    }

    /** A line's counts after its label: {@code " (actual rows=...)"}, or PostgreSQL's {@code " (never executed)"}. */
    static void actual(NodeProfile.Kind kind, Counts c, boolean breaker, boolean timed, StringBuilder sb) {
        if (kind == NodeProfile.Kind.NEVER_EXECUTED) {
            sb.append(" (never executed)\n");
            return;
        }
        sb.append(" (actual ");
        counts(c, breaker, timed, sb);
        sb.append(")\n");
    }

    static void counts(Counts c, boolean breaker, boolean timed, StringBuilder sb) {
        sb.append("rows=").append(c.rows()).append(" batches=").append(c.batches());
        if (breaker) {
            sb.append(" rows in=").append(c.rowsIn()).append(" batches in=").append(c.batchesIn());
        }
        if (timed) {
            sb.append(" time=").append(millis(c.nanos()));
        }
    }

    /** Bytes as PostgreSQL's EXPLAIN prints memory: in kB, rounded up. */
    static String bytes(long bytes) {
        return (bytes + 1023) / 1024 + "kB";
    }

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }

    @Override
    public String toString() {
        return render();
    }
}
