package io.troupe.operators.memory;

import io.troupe.operators.exec.QueryFailedException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one query holds of its Troupe's {@link MemoryArena}: operators reserve through a
 * {@link MemoryReservation} each ({@link #reservation}) before they allocate, and the executor
 * returns everything with one {@link #releaseAll()} call when the query ends (success, failure or
 * cancel), after its last worker stopped, so the next query can use it.
 *
 * <p>A query may have been admitted with a reservation ({@link MemoryArena#tryAdmit}): it uses that
 * first, then grows into the free part of the budget, never past its limit. So the arena holds, for
 * this query, {@code max(reservation, used)} bytes.
 *
 * <h2>Concurrency</h2>
 * Threadsafe: any worker may grow or shrink at any time. Grows, shrinks and the release take this
 * object's monitor (once per chunk or batch, so the lock is not on the per-row path); the arena's
 * budget moves by CAS inside it. The executor calls {@link #releaseAll()} only once no worker of the
 * query runs any more (a chunk returned while a worker still wrote it could be handed to another
 * query). A grow after the release fails: the state is checked under the monitor, and a chunk that
 * was being fetched when the release came is given straight back by its taker.
 */
public final class QueryMemory {

    /** Operators that can spill leave 1/SPILL_HEADROOM of the limit and of the budget to those that cannot. */
    static final int SPILL_HEADROOM = 8;

    /** The handle's life. */
    private enum State {
        /** Operators may reserve. */
        OPEN,
        /** The query ended: everything went back to the arena, and grows fail. */
        RELEASED
    }

    private final MemoryArena arena;
    private final long queryId;
    private final long reservationBytes;
    private final long limitBytes;
    // Guarded by this. Each chunk held, with the account that took it.
    private final Map<long[], MemoryReservation> chunks = new IdentityHashMap<>();
    private final List<MemoryReservation> reservations = new ArrayList<>();
    private long usedBytes;
    private long peakBytes;
    private State state = State.OPEN;

    QueryMemory(MemoryArena arena, long queryId, long reservationBytes, long limitBytes) {
        this.arena = arena;
        this.queryId = queryId;
        this.reservationBytes = reservationBytes;
        this.limitBytes = limitBytes;
    }

    public long queryId() {
        return queryId;
    }

    /** Bytes per chunk that {@link MemoryReservation#takeChunk()} hands out. */
    public int chunkBytes() {
        return arena.chunkBytes();
    }

    /** Longs per chunk that {@link MemoryReservation#takeChunk()} hands out. */
    public int chunkLongs() {
        return arena.chunkLongs();
    }

    /** Bytes set aside for this query when it was admitted (0 without admission). */
    public long reservationBytes() {
        return reservationBytes;
    }

    /** The most bytes this query may hold. */
    public long limitBytes() {
        return limitBytes;
    }

    /** Bytes this query's operators hold now. */
    public synchronized long heldBytes() {
        return usedBytes;
    }

    /** The most bytes this query's operators held at once. */
    public synchronized long peakBytes() {
        return peakBytes;
    }

    /**
     * A new account for one operator of this query (one per operator state, shared by its workers).
     *
     * @param owner what EXPLAIN ANALYZE shows its peak under: the compiled sink or operator
     * @param label the operator in error messages ("hash join j1 build")
     */
    public synchronized MemoryReservation reservation(Object owner, String label) {
        MemoryReservation r = new MemoryReservation(this, owner, label);
        reservations.add(r);
        return r;
    }

    /** Every account opened so far, for EXPLAIN ANALYZE's peaks. */
    public synchronized List<MemoryReservation> reservations() {
        return List.copyOf(reservations);
    }

    /** How many accounts this query opened so far, less those {@link #releaseAccountsFrom} closed: a mark for it. */
    public synchronized int accountsOpened() {
        return reservations.size();
    }

    /**
     * Gives back everything the accounts opened after the first {@code mark} ({@link #accountsOpened()}) hold, their
     * chunks to the arena, and forgets them (EXPLAIN ANALYZE then shows none of their peaks): for a loop whose body
     * is about to run again (WITH RECURSIVE), whose operators of the last round nobody reads any more. Called, like
     * {@link #releaseAll()}, only while no worker of the query runs. Nothing once released.
     */
    public synchronized void releaseAccountsFrom(int mark) {
        if (state == State.RELEASED || mark >= reservations.size()) {
            return;
        }
        List<MemoryReservation> closed = reservations.subList(mark, reservations.size());
        Set<MemoryReservation> closing = Collections.newSetFromMap(new IdentityHashMap<>());
        closing.addAll(closed);
        for (Iterator<Map.Entry<long[], MemoryReservation>> it = chunks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<long[], MemoryReservation> held = it.next();
            if (closing.contains(held.getValue())) {
                arena.giveBack(held.getKey());
                it.remove();
            }
        }
        for (MemoryReservation r : closed) {
            shrink(r.close());
        }
        closed.clear();
    }

    /** Returns everything this query holds to the arena; later grows fail. Idempotent. */
    public synchronized void releaseAll() {
        if (state == State.RELEASED) {
            return;
        }
        state = State.RELEASED;
        for (long[] chunk : chunks.keySet()) {
            arena.giveBack(chunk);
        }
        chunks.clear();
        arena.unreserve(Math.max(reservationBytes, usedBytes));
        usedBytes = 0;
    }

    /**
     * Adds {@code bytes} to what the query uses; false (having added nothing) when that would pass the
     * query's limit or the budget. For an operator that can spill ({@code spillable}), false unless
     * 1/{@link #SPILL_HEADROOM} of the query's limit and of the budget stay free after it: what cannot spill (an
     * aggregate without keys) gets that last share, so that an operator which could have spilled never starves
     * one that cannot.
     *
     * @throws QueryFailedException when the query's memory was already released
     */
    synchronized boolean tryGrow(long bytes, String label, boolean spillable) {
        if (state == State.RELEASED) {
            throw released(label);
        }
        long after = usedBytes + bytes;
        if (after > limitBytes - (spillable ? limitBytes / SPILL_HEADROOM : 0)) {
            return false;
        }
        long excess = after - Math.max(reservationBytes, usedBytes);
        if (excess > 0 && !arena.tryReserve(excess, spillable ? arena.budgetBytes() / SPILL_HEADROOM : 0)) {
            return false;
        }
        usedBytes = after;
        peakBytes = Math.max(peakBytes, after);
        return true;
    }

    /** Takes {@code bytes} back from what the query uses (nothing once released: all went back then). */
    synchronized void shrink(long bytes) {
        if (state == State.RELEASED) {
            return;
        }
        long after = usedBytes - bytes;
        assert after >= 0 : "query " + queryId + " shrinks below zero: " + after;
        long returned = Math.max(reservationBytes, usedBytes) - Math.max(reservationBytes, after);
        if (returned > 0) {
            arena.unreserve(returned);
        }
        usedBytes = after;
    }

    /** A chunk off the arena's free list, not yet reserved; null when the list is empty. */
    long[] pollFreeChunk() {
        return arena.pollFreeChunk();
    }

    /** Puts back a chunk from {@link #pollFreeChunk()} whose bytes could not be reserved. */
    void returnFreeChunk(long[] chunk) {
        arena.giveBack(chunk);
    }

    /**
     * A chunk whose bytes the caller reserved, kept until the release: {@code free} (from {@link
     * #pollFreeChunk()}), or a new one when that is null.
     */
    long[] takeChunk(long[] free, MemoryReservation taker) {
        long[] chunk = free != null ? free : arena.newChunk();
        synchronized (this) {
            if (state == State.OPEN) {
                chunks.put(chunk, taker);
                return chunk;
            }
        }
        arena.giveBack(chunk);
        throw released(taker.label());
    }

    /** Gives a chunk from {@link #takeChunk} back to the arena before the query ends (its bytes the caller shrinks). */
    void returnChunk(long[] chunk, String label) {
        synchronized (this) {
            if (state == State.RELEASED) {
                return;
            }
            if (chunks.remove(chunk) == null) {
                throw new IllegalArgumentException(label + " returns a chunk query " + queryId + " does not hold");
            }
        }
        arena.giveBack(chunk);
    }

    /** The error for a grow the budget refused: what was asked, and which limit it passed. */
    synchronized QueryFailedException overBudget(String label, long bytes) {
        String over = usedBytes + bytes > limitBytes && limitBytes < arena.budgetBytes()
                ? "over the query's limit troupe.memory.query-limit = " + limitBytes + " bytes"
                : "over troupe.memory.budget = " + arena.budgetBytes() + " bytes (" + arena.inUseBytes()
                + " bytes held by all queries)";
        return new QueryFailedException("query " + queryId + ": " + label + " asked for " + bytes + " bytes, "
                + over + "; this query holds " + usedBytes + " bytes");
    }

    private QueryFailedException released(String label) {
        return new QueryFailedException("query " + queryId + ": " + label
                + " asked for memory after the query's memory was released");
    }
}
