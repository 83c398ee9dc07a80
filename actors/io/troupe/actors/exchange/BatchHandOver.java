package io.troupe.actors.exchange;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.memory.MemoryReservation;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/*
 * How the hand-over works, and why.
 *
 * A streaming query's Gather (one actor) hands result batches to the caller of QueryStream (one
 * thread) through a queue of at most `capacity` batches. The caller pulls; when it is slow the queue
 * fills, and the Gather must stop taking batches from its channels, so that the workers' channels
 * fill and the workers wait on them: back-pressure all the way down, with bounded memory.
 *
 * The Gather never blocks its dispatcher thread on a full queue. Before each round it asks for
 * room(); it polls its channels for at most that many batches, and runs a batch of its own share
 * of the pipeline (leader participation) only when there is room. A leader step may emit more
 * batches than there was room for (a join multiplies rows): those wait in `overflow`, which only
 * the Gather touches, and count against the room, so the queue itself never holds more than
 * `capacity` and nothing more is taken in until the overflow has moved over.
 *
 * With no room, the Gather parks: parkIfFull(wake) records, under the lock, that the producer waits,
 * and the Gather stops sending itself polls. The caller's take() runs `wake` (which tells the Gather
 * to resume) once it has freed half the queue: one wake-up per half queue, never per batch
 * (lesson 3), and none at all while the Gather is not parked. Both sides decide under the lock, so
 * a wake-up cannot be lost: either the Gather sees the room when it checks, or the caller sees the
 * parked flag when it takes.
 *
 * Memory: a batch is reserved from the query's memory when the producer hands it in, and given back
 * when the consumer takes it (or it is dropped): what waits here counts against the budget like any
 * operator's memory. A batch the budget has no room for still goes through, uncounted: the hand-over
 * is bounded by its capacity (and one step's overflow) either way, and failing a query for its last
 * few result batches, after everything below it ran, would buy nothing.
 *
 * The end (or the failure) of the query is not the Gather's to say: the caller of QueryStream ends
 * the hand-over once the query's coordinator has finished, that is once every actor of the query
 * has stopped and its channels are closed, so that a stream that returned its last batch leaves
 * nothing running. A failure is delivered ahead of batches still queued.
 */

/**
 * The bounded hand-over between the Gather of a streaming query (the producer, through the
 * {@link BatchConsumer} side and {@link #room()}, {@link #parkIfFull}) and the thread that consumes
 * the stream ({@link #take}). See the protocol comment at the top of this file.
 *
 * <p>Threadsafe: one producer (the Gather's actor), one consumer thread, and any thread for
 * {@link #end}, {@link #fail} and {@link #discard}. Batches are handed over as they are (no copy):
 * the consumer owns each batch it takes.
 */
public final class BatchHandOver implements BatchConsumer {

    /** Where the hand-over stands for the consumer. */
    private enum State { OPEN, ENDED, FAILED, DISCARDED }

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Guarded by lock. */
    private final ArrayDeque<Held> queue;
    /** Guarded by lock. */
    private State state = State.OPEN;
    /** Guarded by lock. */
    private Throwable failure;
    /** Guarded by lock: the producer waits for room and must be woken with this. */
    private Runnable parkedProducer;
    /** Guarded by lock: the most batches the queue ever held, and batches that entered it. */
    private int mostHeld;
    private long batchesIn;
    /** The producer's own: batches a leader step emitted beyond the room. */
    private final ArrayDeque<Held> overflow = new ArrayDeque<>();

    /** A batch waiting here and the bytes of it the query's memory counts (0 when the budget had no room). */
    private record Held(Batch batch, long countedBytes) {
    }

    /** The query's account of what waits here. */
    private final MemoryReservation memory;

    /** A hand-over of at most {@code capacity} batches (at least 1), reserving them from {@code memory}. */
    public BatchHandOver(int capacity, MemoryReservation memory) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.queue = new ArrayDeque<>(capacity);
        this.memory = memory;
    }

    public int capacity() {
        return capacity;
    }

    // ------------------------------------------------------------------ producer (the Gather)

    /** Producer: queues a non-empty batch, in the overflow when the queue is full. */
    @Override
    public boolean accept(Batch batch) {
        if (batch.size() > 0) {
            long bytes = batch.sizeInBytes();
            overflow.addLast(new Held(batch, memory.tryGrow(bytes) ? bytes : 0));
            moveOverflow();
        }
        return true;
    }

    /** Producer: nothing to do; the end is {@link #end()}, once the whole query has stopped. */
    @Override
    public void finish() {
        // The stream ends when the query's coordinator has finished, not when the Gather has.
    }

    /**
     * Producer: moves what it can of the overflow into the queue and returns how many batches the
     * producer may deliver now: 0 while anything is left in the overflow.
     */
    public int room() {
        moveOverflow();
        if (!overflow.isEmpty()) {
            return 0;
        }
        lock.lock();
        try {
            return state == State.DISCARDED ? capacity : capacity - queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** Producer: true once everything it delivered is in the queue (nothing is left in the overflow). */
    public boolean overflowEmpty() {
        moveOverflow();
        return overflow.isEmpty();
    }

    /**
     * Producer: when there is no room, records that the producer waits and returns true; the
     * consumer runs {@code wake} once it has freed half the queue. Returns false when there is room
     * (the producer goes on).
     */
    public boolean parkIfFull(Runnable wake) {
        lock.lock();
        try {
            // The move and the decision under one lock: a batch left in the overflow then means a full queue, which
            // the consumer halves before it wakes the producer. A move before the lock lets the consumer empty the
            // queue and wait in between, and the producer park with its overflow: a lost wake-up.
            moveOverflow();
            if (overflow.isEmpty() && (state == State.DISCARDED || queue.size() < capacity)) {
                return false;
            }
            parkedProducer = wake;
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void moveOverflow() {
        if (overflow.isEmpty()) {
            return;
        }
        lock.lock();
        try {
            boolean moved = false;
            while (!overflow.isEmpty() && (state == State.DISCARDED || queue.size() < capacity)) {
                Held held = overflow.pollFirst();
                if (state != State.DISCARDED) {
                    queue.addLast(held);
                    batchesIn++;
                    mostHeld = Math.max(mostHeld, queue.size());
                    moved = true;
                } else {
                    memory.shrink(held.countedBytes());
                }
            }
            if (moved) {
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ the end (any thread)

    /** The query finished: once the queue is drained, {@link #take} returns null. */
    public void end() {
        terminate(State.ENDED, null);
    }

    /** The query failed: the next {@link #take} throws {@code cause}, ahead of any batch still queued. */
    public void fail(Throwable cause) {
        terminate(State.FAILED, cause);
    }

    /** The consumer left: drops every queued batch; from now on the producer's batches are dropped. */
    public void discard() {
        Runnable wake = terminate(State.DISCARDED, null);
        if (wake != null) {
            wake.run();
        }
    }

    private Runnable terminate(State terminal, Throwable cause) {
        lock.lock();
        try {
            boolean allowed = terminal == State.DISCARDED ? state != State.DISCARDED : state == State.OPEN;
            if (!allowed) {
                return null;
            }
            state = terminal;
            failure = cause;
            if (terminal == State.DISCARDED) {
                for (Held dropped : queue) {
                    memory.shrink(dropped.countedBytes());
                }
                queue.clear();
            }
            changed.signalAll();
            Runnable wake = parkedProducer;
            parkedProducer = null;
            return wake;
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ consumer

    /**
     * Consumer: the next batch, waiting at most {@code timeoutNanos}; null once the query ended and
     * every batch was taken.
     *
     * @throws TimeoutException     when nothing came within the timeout (the stream stays usable)
     * @throws InterruptedException when the waiting thread was interrupted (the stream stays usable)
     * @throws IllegalStateException after {@link #discard()}
     * @throws RuntimeException     the query's failure, as given to {@link #fail}, wrapped when checked
     */
    public Batch take(long timeoutNanos) throws InterruptedException, TimeoutException {
        Batch batch;
        Runnable wake = null;
        lock.lockInterruptibly();
        try {
            long left = timeoutNanos;
            while (true) {
                if (state == State.FAILED) {
                    throw unchecked(failure);
                }
                if (state == State.DISCARDED) {
                    throw new IllegalStateException("the hand-over was discarded");
                }
                Held held = queue.pollFirst();
                if (held != null) {
                    memory.shrink(held.countedBytes());
                    batch = held.batch();
                    break;
                }
                if (state == State.ENDED) {
                    batch = null;
                    break;
                }
                if (left <= 0) {
                    throw new TimeoutException("no batch within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
                }
                left = changed.awaitNanos(left);
            }
            if (parkedProducer != null && queue.size() <= capacity / 2) {
                wake = parkedProducer;
                parkedProducer = null;
            }
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            wake.run();
        }
        return batch;
    }

    /** The most batches the queue ever held at once (never more than the capacity). */
    public int mostHeld() {
        lock.lock();
        try {
            return mostHeld;
        } finally {
            lock.unlock();
        }
    }

    /** Batches that entered the queue so far. */
    public long batchesIn() {
        lock.lock();
        try {
            return batchesIn;
        } finally {
            lock.unlock();
        }
    }

    /** True while the producer waits for room. */
    public boolean producerParked() {
        lock.lock();
        try {
            return parkedProducer != null;
        } finally {
            lock.unlock();
        }
    }

    private static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException runtime) {
            return runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(t);
    }
}
