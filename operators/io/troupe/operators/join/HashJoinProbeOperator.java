package io.troupe.operators.join;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Operator;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.types.DataType;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The probe side of a hash join: a streaming operator over the join's left input that looks each
 * row's key up in the {@link HashJoinTable} the build pipeline published, and emits the joined
 * rows (left columns, then right columns; left columns only for SEMI and ANTI). For RIGHT, FULL and
 * RIGHT_ANTI joins the last prober to finish emits the build rows nobody matched, for RIGHT_SEMI
 * those somebody did (and the probes emit nothing). When the build
 * spilled, the probers write their rows to the partitions' files instead ({@link SpillingProbe}) and
 * the last opens the partitions to {@link SpilledPartitionsSource}.
 *
 * <p>Immutable and threadsafe. The state of an execution is a {@link ProbeState} shared by the
 * probers (one per worker, each not threadsafe). See note on parallelism in
 * {@code package-info.java}.
 */
public final class HashJoinProbeOperator implements Operator {

    private final StateKey<HashJoinTable> key;
    private final JoinType type;
    private final Expression[] keys;
    private final Expression residual;
    private final DataType[] leftTypes;
    private final TroupeSettings.MatchFlags matchFlags;
    /** Both sides came repartitioned by the join keys: see {@link #needsWholeInput()}. */
    private final boolean keysMeet;

    /**
     * @param key        where the build pipeline published the table
     * @param type       the join type
     * @param keys       the probe-side key expressions, over the left input's columns
     * @param residual   what a pair of rows with equal keys must also pass to match, over the left
     *                   columns then the build's (null: nothing); the build then keeps its columns
     * @param leftTypes  the left input's column types
     * @param matchFlags how probes record matches (lesson 1: in any table built with flags)
     * @param keysMeet   both sides reach this probe repartitioned by the join keys (a spread query's
     *                   repartitioned join): each node's table then holds every build row of the keys whose
     *                   every probe it sees, so the build rows a join emits at the end are its own to emit
     */
    public HashJoinProbeOperator(StateKey<HashJoinTable> key, JoinType type, List<Expression> keys,
                                 Expression residual, DataType[] leftTypes, TroupeSettings.MatchFlags matchFlags,
                                 boolean keysMeet) {
        this.key = key;
        this.type = type;
        this.keys = keys.toArray(new Expression[0]);
        this.residual = residual;
        this.leftTypes = leftTypes.clone();
        this.matchFlags = matchFlags;
        this.keysMeet = keysMeet;
    }

    /**
     * A join that emits build rows at the end (RIGHT, FULL, RIGHT_SEMI, RIGHT_ANTI) decides on them once every
     * probe of their keys was seen by the table that holds them, which a broadcast table on every node is not.
     */
    @Override
    public boolean needsWholeInput() {
        return type.needsMatchFlags() && !keysMeet;
    }

    @Override
    public OperatorState open(ExecContext ctx) {
        HashJoinTable table = ctx.lookup(key);
        table.requirePhase(JoinPhase.PROBING);
        return new ProbeState(table, ctx, table.partitions());
    }

    /** The state of one probe of a spilled partition's {@code table} (by the one worker joining it). */
    ProbeState partitionState(HashJoinTable table, ExecContext ctx) {
        table.requirePhase(JoinPhase.PROBING);
        return new ProbeState(table, ctx, null);
    }

    /** Where the build pipeline published the table. */
    StateKey<HashJoinTable> key() {
        return key;
    }

    JoinType type() {
        return type;
    }

    /**
     * The shared state of one execution: the table, and the count of probers still probing.
     *
     * <h2>Concurrency</h2>
     * {@code activeProbers} counts bound probers that have not finished; it becomes
     * {@link #CLOSED} when the last one takes the unmatched-row duty, after which a bind fails
     * (a late joiner would find its rows' matches ignored). The count and the table's phase are
     * the only shared state a prober writes, besides the match flags (see {@link HashJoinTable})
     * and, when the table spilled, the spill files it hands in before its decrement.
     */
    final class ProbeState implements OperatorState {

        static final int CLOSED = Integer.MIN_VALUE;

        final HashJoinTable table;
        final ExecContext ctx;
        private final AtomicInteger activeProbers = new AtomicInteger();
        /** The join's spilled partitions, which the last prober opens; null for a partition's own probe. */
        private final PartitionQueue opens;

        ProbeState(HashJoinTable table, ExecContext ctx, PartitionQueue opens) {
            this.table = table;
            this.ctx = ctx;
            this.opens = opens;
        }

        @Override
        public BatchConsumer bind(BatchConsumer downstream) {
            int active;
            do {
                active = activeProbers.get();
                if (active == CLOSED) {
                    throw new IllegalStateException("hash join prober bound after the last prober finished"
                            + " (every prober must bind before the last one finishes): " + table.name());
                }
            } while (!activeProbers.compareAndSet(active, active + 1));
            ProbeWorker prober = new ProbeWorker(this, downstream, type, keys, residual, leftTypes,
                    matchFlags == TroupeSettings.MatchFlags.CHECK_BEFORE_WRITE);
            return table.spilled() ? new SpillingProbe(prober, table, keys, leftTypes) : prober;
        }

        /**
         * Called by each prober when its input is complete. Returns true to exactly one of them,
         * the last: it moves the join to EMITTING_UNMATCHED and must call {@link #done()} after.
         */
        boolean finishProbing() {
            if (activeProbers.decrementAndGet() != 0 || !activeProbers.compareAndSet(0, CLOSED)) {
                return false;
            }
            table.advance(JoinPhase.PROBING, JoinPhase.EMITTING_UNMATCHED);
            if (table.spilled()) {
                table.finishProbeFiles();
            }
            if (opens != null) {
                opens.open(table.spilled() ? PartitionTask.of(table, type) : List.of());
            }
            return true;
        }

        void done() {
            table.advance(JoinPhase.EMITTING_UNMATCHED, JoinPhase.DONE);
        }
    }
}
