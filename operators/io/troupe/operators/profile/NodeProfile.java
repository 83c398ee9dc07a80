package io.troupe.operators.profile;

import io.troupe.operators.exec.ExecutionProbe;
import io.troupe.operators.plan.Plan;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;

/**
 * One line of EXPLAIN ANALYZE: a plan node (or the build side of a hash join, or the Gather) with
 * what it did over the whole query, summed over every participant, and what each participant did.
 *
 * <p>The numbers, by kind of node:
 * <ul>
 *   <li>a scan or series: {@code rows}/{@code batches} it read; time in its readers;</li>
 *   <li>a streaming node (filter, project, limit, the probe of a hash join): rows/batches it pushed on;
 *       time in its operator minus the time in the operators it pushed into (its own time);</li>
 *   <li>a pipeline breaker (aggregate, distinct, sort, also a sort compiled with the limit above it
 *       into a top-N): rows/batches it emitted from its result, and {@code rowsIn}/{@code batchesIn}
 *       pushed into its sink; time in its sink (accept and finish), in its finalize (the preparation,
 *       every worker's finalize work such as a partition merge, and the publication: summed, not
 *       counted in any participant's time) and in the readers of its result;</li>
 *   <li>{@link Kind#HASH}, the build side of a hash join: {@code rows}/{@code batches} pushed into the
 *       hash table ({@code rowsIn} is the same); time in the build sink and its finalize (the
 *       bucket allocation and every worker's inserts, summed);</li>
 *   <li>{@link Kind#GATHER}: rows/batches that reached the query's result; time the participants
 *       spent handing them over (a worker's send into its gather channel, waits on a full channel
 *       included; the leader's hand-over). A "Gather Merge" (above the sort of an ORDER BY at the
 *       top) is a breaker: its rows in are what each worker streamed into its channel, its rows what
 *       the merge pushed on into the nodes above it (the leader's, as the sort's rows out); those
 *       nodes ran in it and count as the leader's, see {@link Profiler};</li>
 *   <li>a shared subplan's {@code CTE} line (under the root, once however many uses read it):
 *       rows/batches its sink kept ({@code rowsIn} is the same); time in that sink and its finalize;
 *       each use's {@code CTE Scan} line counts as a scan, the rows it read of what was kept;</li>
 *   <li>a node that compiles to nothing of its own (an alias, a union all, a limit whose sort became a
 *       top-N): the rows and batches of its children, no time ({@link #timed()} is false) and no
 *       participants;</li>
 *   <li>{@link Kind#NEVER_EXECUTED}, a node that nothing in its subtree was compiled for (the build
 *       side of a spread self join, which reads the rows its probe side's repartition left on each
 *       node instead): PostgreSQL's "(never executed)", zeros.</li>
 * </ul>
 * Times are summed over participants, so with several workers a node's time may exceed the query's
 * wall-clock time. Participants are keyed by worker index, {@link ExecutionProbe#LEADER} for the
 * leader; the workers of different pipelines share indices (the workers of a breaker's sink and of
 * its result are listed together by index).
 *
 * <p>Immutable.
 */
public final class NodeProfile {

    /** What the line stands for. */
    public enum Kind { PLAN, HASH, GATHER, NEVER_EXECUTED }

    private final String label;
    private final Kind kind;
    private final Plan node;
    private final boolean timed;
    private final boolean breaker;
    private final Counts total;
    private final SortedMap<Integer, Counts> participants;
    private final List<NodeProfile> children;
    private final Memory memory;

    /**
     * What a node's operators held of the query's memory at their peak, and wrote to spill files.
     * A node with several accounts (a hash join's build) shows their sum.
     */
    public record Memory(long peakBytes, long spilledBytes) {
        /** No account: the node holds nothing beyond the batches it passes on. */
        public static final Memory NONE = new Memory(0, 0);

        Memory plus(Memory other) {
            return new Memory(peakBytes + other.peakBytes, spilledBytes + other.spilledBytes);
        }
    }

    NodeProfile(String label, Kind kind, Plan node, boolean timed, boolean breaker, Counts total,
                SortedMap<Integer, Counts> participants, List<NodeProfile> children, Memory memory) {
        this.label = label;
        this.kind = kind;
        this.node = node;
        this.timed = timed;
        this.breaker = breaker;
        this.total = total;
        this.participants = Collections.unmodifiableSortedMap(participants);
        this.children = List.copyOf(children);
        this.memory = memory;
    }

    /** The node's label, as EXPLAIN prints it: "Hash" for a join's build side, "Gather" or "Gather Merge". */
    public String label() {
        return label;
    }

    public Kind kind() {
        return kind;
    }

    /** The plan node: for {@link Kind#HASH}, the join; null for an exchange. */
    public Plan node() {
        return node;
    }

    /** False for a node that compiles to nothing of its own: its counts are its children's. */
    public boolean timed() {
        return timed;
    }

    /** True for a pipeline breaker: it has rows in as well as rows out. */
    public boolean breaker() {
        return breaker;
    }

    /** The totals over every participant (and, for the time, the sink's finalize). */
    public Counts total() {
        return total;
    }

    public long rows() {
        return total.rows();
    }

    public long batches() {
        return total.batches();
    }

    public long rowsIn() {
        return total.rowsIn();
    }

    public long nanos() {
        return total.nanos();
    }

    /** What each participant did, by worker index, the leader ({@link ExecutionProbe#LEADER}) first. */
    public SortedMap<Integer, Counts> participants() {
        return participants;
    }

    /** Its operators' peak memory and spilled bytes ({@link Memory#NONE} for a node without an account). */
    public Memory memory() {
        return memory;
    }

    /** The inputs of this node, as EXPLAIN lists them (a join's build side under a {@link Kind#HASH} line). */
    public List<NodeProfile> children() {
        return children;
    }

    @Override
    public String toString() {
        return label + " " + total;
    }
}
