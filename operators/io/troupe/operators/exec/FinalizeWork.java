package io.troupe.operators.exec;

/**
 * Work a sink shares out between its last local's {@code finish()} and its {@code finalizeSink()}:
 * the inserts of a hash join's shared table, the merge of an aggregate's partitions. The work is cut
 * into units (a chunk, a partition) that workers claim one at a time, so that every worker of the
 * pipeline can take part and none waits for another.
 *
 * <p>Threadsafe: any number of workers call {@link #step()} concurrently, each until it returns
 * false. The executor calls {@code finalizeSink()} only after every one of them has returned false,
 * which orders every unit's writes before it.
 */
@FunctionalInterface
public interface FinalizeWork {

    /** Nothing to share: the sink finalizes on one thread. */
    FinalizeWork NONE = () -> false;

    /**
     * Claims and does one unit of the work.
     *
     * @return true if it did a unit, false if none was left to claim (this worker is done)
     */
    boolean step();
}
