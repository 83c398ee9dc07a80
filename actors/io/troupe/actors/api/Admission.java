package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.memory.QueryMemory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Admission control (after Trino's resource groups, with DuckDB's per-query memory reservations): at
 * most {@code max-concurrent} queries run at once, each admitted with its share of the memory budget
 * set aside ({@link MemoryArena#tryAdmit}); the others wait in a bounded FIFO queue, each for at most
 * {@code queue-timeout}. A query is rejected at once when the queue is full, or when its share could
 * never fit; a running query is never failed to make room.
 *
 * <p>How a query goes through: {@link #admit} answers a future of the query's {@link QueryMemory},
 * complete at once when a slot and the memory are free and nobody waits before it, otherwise when
 * {@link #finished} of an earlier query frees them (in queue order: the head waits for memory rather
 * than letting later, smaller queries overtake it), or exceptionally with a
 * {@link QueryRejectedException}. The caller calls {@link #finished} exactly once per admitted query,
 * after the query released its memory; {@link #withdraw} takes a query out of the queue when its caller
 * gives up before it was admitted.
 *
 * <h2>Concurrency</h2>
 * Threadsafe: the running count and the queue are guarded by this object's monitor, and every
 * decision is made under it; futures are completed outside it, so a caller's continuation never runs
 * under the lock. Queue timeouts run on one daemon timer thread, started with the first query that
 * waits; an admitted or withdrawn query's timer is cancelled and dropped at once (no waiter, and no
 * query's state, is kept until its timeout would have fired).
 */
final class Admission implements AutoCloseable {

    /** A query in the queue. */
    private static final class Waiter {
        final long queryId;
        final long reservationBytes;
        final long enqueuedNanos = System.nanoTime();
        final CompletableFuture<QueryMemory> admitted = new CompletableFuture<>();
        ScheduledFuture<?> timeout;

        Waiter(long queryId, long reservationBytes) {
            this.queryId = queryId;
            this.reservationBytes = reservationBytes;
        }
    }

    private final MemoryArena arena;
    private final TroupeSettings.Admission settings;
    private final long reservationBytes;
    private final long limitBytes;
    private final AtomicLong admittedTotal = new AtomicLong();
    private final AtomicLong rejectedTotal = new AtomicLong();
    // Guarded by this.
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
    private int running;
    private ScheduledThreadPoolExecutor timer;
    private boolean closed;

    /**
     * @param arena      the Troupe's memory, which admitted queries reserve from
     * @param settings   {@code troupe.admission.*}
     * @param limitBytes the most one query may hold ({@code troupe.memory.query-limit})
     */
    Admission(MemoryArena arena, TroupeSettings.Admission settings, long limitBytes) {
        this.arena = arena;
        this.settings = settings;
        this.limitBytes = Math.min(limitBytes, arena.budgetBytes());
        this.reservationBytes = Math.min(settings.queryMemoryBytes(arena.budgetBytes()), this.limitBytes);
    }

    /** Bytes of the budget each admitted query is given unless it asks for its own. */
    long reservationBytes() {
        return reservationBytes;
    }

    /** {@link #admit(long, long)} with the default reservation ({@code troupe.admission.query-memory}). */
    CompletableFuture<QueryMemory> admit(long queryId) {
        return admit(queryId, reservationBytes);
    }

    /**
     * The memory of query {@code queryId} once it is admitted with {@code reservation} bytes set aside:
     * at once, later, or a {@link QueryRejectedException} (at once when the queue is full or the
     * reservation could never fit, later when it waited too long).
     */
    CompletableFuture<QueryMemory> admit(long queryId, long reservation) {
        QueryMemory now = null;
        QueryRejectedException rejected = null;
        Waiter waiter = null;
        synchronized (this) {
            if (closed) {
                rejected = new QueryRejectedException(QueryRejectedException.Reason.CLOSED,
                        "query " + queryId + " rejected: the Troupe closed");
            } else if (reservation > limitBytes) {
                rejected = new QueryRejectedException(QueryRejectedException.Reason.NEVER_FITS, "query " + queryId
                        + " rejected: it asks for " + reservation + " bytes of memory, more than a query may ever hold ("
                        + limitBytes + " bytes: troupe.memory.budget = " + arena.budgetBytes()
                        + ", troupe.memory.query-limit)");
            } else if (queue.isEmpty() && running < settings.maxConcurrent()
                    && (now = arena.tryAdmit(queryId, reservation, limitBytes)) != null) {
                running++;
            } else if (queue.size() >= settings.queueSize()) {
                rejected = new QueryRejectedException(QueryRejectedException.Reason.QUEUE_FULL, "query " + queryId
                        + " rejected: " + queue.size() + " queries already wait to be admitted "
                        + "(troupe.admission.queue-size = " + settings.queueSize() + "), " + running
                        + " run (troupe.admission.max-concurrent = " + settings.maxConcurrent() + ")");
            } else {
                waiter = new Waiter(queryId, reservation);
                queue.addLast(waiter);
                Waiter w = waiter;
                waiter.timeout = timer().schedule(() -> expire(w), settings.queueTimeout().toNanos(),
                        TimeUnit.NANOSECONDS);
            }
        }
        if (now != null) {
            admittedTotal.incrementAndGet();
            return CompletableFuture.completedFuture(now);
        }
        if (rejected != null) {
            rejectedTotal.incrementAndGet();
            return CompletableFuture.failedFuture(rejected);
        }
        return waiter.admitted;
    }

    /** An admitted query has ended and released its memory: the next waiting queries may start. */
    void finished() {
        List<Waiter> admitted = new ArrayList<>();
        List<QueryMemory> memories = new ArrayList<>();
        synchronized (this) {
            if (running <= 0) {
                throw new IllegalStateException("admission: a query finished that was never admitted");
            }
            running--;
            while (!closed && !queue.isEmpty() && running < settings.maxConcurrent()) {
                Waiter head = queue.peekFirst();
                QueryMemory memory = arena.tryAdmit(head.queryId, head.reservationBytes, limitBytes);
                if (memory == null) {
                    break;
                }
                queue.pollFirst();
                head.timeout.cancel(false);
                running++;
                admitted.add(head);
                memories.add(memory);
            }
        }
        for (int i = 0; i < admitted.size(); i++) {
            admittedTotal.incrementAndGet();
            if (!admitted.get(i).admitted.complete(memories.get(i))) {
                // The caller gave up in the very instant it was admitted: it will never run.
                memories.get(i).releaseAll();
                finished();
            }
        }
    }

    /** Takes query {@code queryId} out of the queue if it still waits there (its caller gave up); true if it did. */
    boolean withdraw(long queryId, String reason) {
        Waiter found = null;
        synchronized (this) {
            for (Waiter w : queue) {
                if (w.queryId == queryId) {
                    found = w;
                    break;
                }
            }
            if (found == null) {
                return false;
            }
            queue.remove(found);
            found.timeout.cancel(false);
        }
        rejectedTotal.incrementAndGet();
        found.admitted.completeExceptionally(new QueryCancelledException(
                "query " + queryId + " cancelled while it waited to be admitted: " + reason));
        return true;
    }

    private void expire(Waiter waiter) {
        synchronized (this) {
            if (!queue.remove(waiter)) {
                return;
            }
        }
        rejectedTotal.incrementAndGet();
        waiter.admitted.completeExceptionally(new QueryRejectedException(QueryRejectedException.Reason.QUEUE_TIMEOUT,
                "query " + waiter.queryId + " rejected: it waited " + millis(System.nanoTime() - waiter.enqueuedNanos)
                        + " ms to be admitted (troupe.admission.queue-timeout = " + settings.queueTimeout().toMillis()
                        + " ms)"));
    }

    /** Queries running now (admitted and not finished). */
    synchronized int running() {
        return running;
    }

    /** Queries waiting to be admitted now. */
    synchronized int queued() {
        return queue.size();
    }

    /** Queries admitted since start. */
    long admittedTotal() {
        return admittedTotal.get();
    }

    /** Queries rejected (queue full, timed out, never fits, closed) or withdrawn from the queue since start. */
    long rejectedTotal() {
        return rejectedTotal.get();
    }

    /** Rejects every waiting query and stops the timer; running queries are the caller's to stop. */
    @Override
    public void close() {
        List<Waiter> waiting;
        synchronized (this) {
            closed = true;
            waiting = new ArrayList<>(queue);
            queue.clear();
            if (timer != null) {
                timer.shutdownNow();
            }
        }
        for (Waiter w : waiting) {
            rejectedTotal.incrementAndGet();
            w.admitted.completeExceptionally(new QueryRejectedException(QueryRejectedException.Reason.CLOSED,
                    "query " + w.queryId + " rejected: the Troupe closed while it waited to be admitted"));
        }
    }

    /** The timer of queue timeouts, started with the first query that waits. Under this object's monitor. */
    private ScheduledThreadPoolExecutor timer() {
        if (timer == null) {
            timer = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "troupe-admission-timer");
                t.setDaemon(true);
                return t;
            });
            timer.setRemoveOnCancelPolicy(true);
        }
        return timer;
    }

    private static long millis(long nanos) {
        return Duration.ofNanos(nanos).toMillis();
    }
}
