package io.troupe.operators.join;

import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;

/**
 * The branch of a hash join's probe pipeline that joins the join's spilled partitions: compiled
 * after the branch that probes (so every participant drives it once its own probing is done), its
 * branch feeds the operators above the join. Each participant's reader is a {@link PartitionJoiner};
 * they claim partitions from the join's {@link PartitionQueue}. When the build did not spill the
 * branch is empty and the executor binds nothing for it.
 *
 * <p>Immutable and threadsafe.
 */
public final class SpilledPartitionsSource implements Source {

    private final HashJoinProbeOperator probe;

    /** The spilled partitions of the join that {@code probe} probes. */
    public SpilledPartitionsSource(HashJoinProbeOperator probe) {
        this.probe = probe;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        HashJoinTable table = ctx.lookup(probe.key());
        return new SourceState() {
            @Override
            public SourceReader reader() {
                return new PartitionJoiner(table, probe, ctx);
            }

            @Override
            public boolean empty() {
                return !table.spilled();
            }
        };
    }

    @Override
    public String toString() {
        return "spilled partitions of " + probe;
    }
}
