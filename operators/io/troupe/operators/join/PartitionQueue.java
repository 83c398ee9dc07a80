package io.troupe.operators.join;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The spilled partitions of one hash join, which every participant of its probe pipeline joins once
 * the last prober finished: claimed one at a time from a lock-free queue, and joined partitions
 * that spilled again add theirs.
 *
 * <pre>
 *   PROBING   probers still run: a claim finds nothing and the claimer is not ready (BLOCKED)
 *   OPEN      the last prober opened it with the join's spilled partitions; claims take them;
 *             drained once none is queued or being joined
 * </pre>
 *
 * <p>Counting. {@code pending} counts partitions queued or being joined; a partition's own
 * partitions are added before it completes, so {@code pending} reaches zero only when no partition
 * is left anywhere, and a claimer that finds the queue empty while it is not zero waits (BLOCKED),
 * as one being joined may still add some. An exclusive partition (one that did not fit beside the
 * others, see {@link #retry}) is joined only while no other exclusive one is, so that two of them
 * never take turns refusing each other.
 *
 * <h2>Concurrency</h2>
 * Threadsafe: a concurrent queue, atomic counters, and the state a volatile written once, after
 * the partitions it opens with are queued (so a claimer that sees OPEN sees them, and the files
 * that the probers finished before their last decrement).
 */
final class PartitionQueue {

    /** The queue's life. */
    private enum State { PROBING, OPEN }

    private final ConcurrentLinkedQueue<PartitionTask> queued = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicBoolean exclusiveRunning = new AtomicBoolean();
    private volatile State state = State.PROBING;

    /** Opens the queue with the join's spilled partitions (by its last prober, once). */
    void open(List<PartitionTask> tasks) {
        add(tasks);
        state = State.OPEN;
    }

    /** Adds the partitions of a partition being joined (before it completes). */
    void add(List<PartitionTask> tasks) {
        pending.addAndGet(tasks.size());
        queued.addAll(tasks);
    }

    /** A partition to join, or null when none can be claimed now (then see {@link #drained()}). */
    PartitionTask claim() {
        if (state != State.OPEN) {
            return null;
        }
        PartitionTask task = queued.poll();
        if (task == null) {
            return null;
        }
        if (task.exclusive() && !exclusiveRunning.compareAndSet(false, true)) {
            queued.add(task);
            return null;
        }
        running.incrementAndGet();
        return task;
    }

    /** True once the queue opened and no partition is queued or being joined: every claimer is done. */
    boolean drained() {
        return state == State.OPEN && pending.get() == 0;
    }

    /** {@code task}, claimed, is joined (its own partitions, if any, were added before). */
    void complete(PartitionTask task) {
        release(task);
        pending.decrementAndGet();
    }

    /**
     * {@code task}, claimed, did not fit: queues it again as exclusive, unless no other partition is
     * being joined (nobody will give memory back), when it returns false and the caller fails.
     */
    boolean retry(PartitionTask task) {
        if (running.get() <= 1) {
            return false;
        }
        release(task);
        queued.add(task.exclusively());
        return true;
    }

    private void release(PartitionTask task) {
        if (task.exclusive()) {
            exclusiveRunning.set(false);
        }
        running.decrementAndGet();
    }
}
