package io.troupe.operators.join;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The spilled partitions of one hash join, which every participant of its probe pipeline joins once
 * the last prober finished: claimed one at a time, and a joined partition that spilled again adds
 * its own partitions.
 *
 * <pre>
 *   PROBING   probers still run: a claim finds nothing and the claimer is not ready (BLOCKED)
 *   OPEN      the last prober opened it with the join's spilled partitions; claims take them;
 *             drained once none is queued or being joined
 * </pre>
 *
 * <p>Counting. {@code pending} counts partitions queued or being joined; a partition's own
 * partitions are added before it completes, so {@code pending} reaches zero only when no partition
 * is left anywhere, and a claimer that finds nothing to claim while it is not zero waits (BLOCKED),
 * as a partition being joined may still add some.
 *
 * <p>Exclusive partitions. A partition that did not fit ({@link #retry}; the others being joined
 * may have held the memory) is queued again as exclusive: it is joined alone, once no other
 * partition is being joined, and while it waits or runs no other partition starts. Alone, it fits,
 * spills by the next level's bits (its buffers may then trail the account, see {@code BuildWorker}:
 * what is refused is other operators' memory) or, when it cannot be split, fails for good; so two
 * such partitions never take turns refusing each other, and none is loaded again and again while
 * the others run.
 *
 * <h2>Concurrency</h2>
 * Threadsafe: every method takes this object's monitor (once per partition claimed or completed,
 * and once per look of a waiting claimer). The monitor also orders the files a partition's joiner
 * wrote before it added its partitions before their reads by another claimer; the join's own files
 * were finished by the last prober before it opened the queue.
 */
final class PartitionQueue {

    /** The queue's life. */
    private enum State { PROBING, OPEN }

    private final ArrayDeque<PartitionTask> queued = new ArrayDeque<>();
    private final ArrayDeque<PartitionTask> exclusive = new ArrayDeque<>();
    private State state = State.PROBING;
    private int pending;
    private int running;
    private boolean exclusiveRunning;

    /** Opens the queue with the join's spilled partitions (by its last prober, once). */
    synchronized void open(List<PartitionTask> tasks) {
        add(tasks);
        state = State.OPEN;
    }

    /** Adds the partitions of a partition being joined (before it completes). */
    synchronized void add(List<PartitionTask> tasks) {
        pending += tasks.size();
        queued.addAll(tasks);
    }

    /** A partition to join, or null when none can be claimed now (then see {@link #drained()}). */
    synchronized PartitionTask claim() {
        if (state != State.OPEN || exclusiveRunning) {
            return null;
        }
        PartitionTask task;
        if (!exclusive.isEmpty()) {
            if (running > 0) {
                return null;
            }
            task = exclusive.poll();
            exclusiveRunning = true;
        } else {
            task = queued.poll();
            if (task == null) {
                return null;
            }
        }
        running++;
        return task;
    }

    /** True once the queue opened and no partition is queued or being joined: every claimer is done. */
    synchronized boolean drained() {
        return state == State.OPEN && pending == 0;
    }

    /** {@code task}, claimed, is joined (its own partitions, if any, were added before). */
    synchronized void complete(PartitionTask task) {
        release(task);
        pending--;
    }

    /**
     * {@code task}, claimed, did not fit: queues it again, to be joined alone, unless it was joined
     * alone already (no partition of this join held memory beside it), when it returns false and the
     * caller fails.
     */
    synchronized boolean retry(PartitionTask task) {
        if (task.exclusive()) {
            return false;
        }
        release(task);
        exclusive.add(task.exclusively());
        return true;
    }

    private void release(PartitionTask task) {
        if (task.exclusive()) {
            exclusiveRunning = false;
        }
        running--;
    }
}
