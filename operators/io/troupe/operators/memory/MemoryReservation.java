package io.troupe.operators.memory;

import io.troupe.operators.exec.QueryFailedException;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One operator's account of its query's memory: it reserves here before it allocates anything large
 * (a chunk, a bucket array, a grown table, a kept batch) and gives back what it frees. An operator
 * that can spill asks with {@link #tryGrow} and spills when refused; one that cannot calls
 * {@link #grow}, which fails the query with an error naming the operator, the amount and the limit.
 * Everything still held goes back with the query's {@link QueryMemory#releaseAll()}: an operator
 * need not shrink what it keeps to the end.
 *
 * <p>Threadsafe: the workers of one operator share its account.
 */
public final class MemoryReservation {

    private final QueryMemory query;
    private final Object owner;
    private final String label;
    private final AtomicLong heldBytes = new AtomicLong();
    private final AtomicLong peakBytes = new AtomicLong();
    private final AtomicLong spilledBytes = new AtomicLong();

    MemoryReservation(QueryMemory query, Object owner, String label) {
        this.query = query;
        this.owner = owner;
        this.label = label;
    }

    /** What EXPLAIN ANALYZE shows this account's peak under (the compiled sink or operator). */
    public Object owner() {
        return owner;
    }

    public String label() {
        return label;
    }

    /**
     * Reserves {@code bytes}, or returns false (having reserved nothing) when the query's limit or the
     * budget would be passed: the caller spills instead.
     *
     * @throws QueryFailedException when the query's memory was already released
     */
    public boolean tryGrow(long bytes) {
        return tryGrow(bytes, false);
    }

    /**
     * As {@link #tryGrow}, for an operator that spills when refused: refused also when less than
     * 1/{@link QueryMemory#SPILL_HEADROOM} of the query's limit or of the budget would stay free, which is
     * left to the operators that cannot spill.
     */
    public boolean tryGrowSpillable(long bytes) {
        return tryGrow(bytes, true);
    }

    private boolean tryGrow(long bytes, boolean spillable) {
        if (bytes < 0) {
            throw new IllegalArgumentException(label + ": cannot grow by " + bytes + " bytes");
        }
        if (!query.tryGrow(bytes, label, spillable)) {
            return false;
        }
        long held = heldBytes.addAndGet(bytes);
        peakBytes.accumulateAndGet(held, Math::max);
        return true;
    }

    /**
     * Reserves {@code bytes}.
     *
     * @throws QueryFailedException when the query's limit or the budget would be passed, naming both
     *         this operator and the limit
     */
    public void grow(long bytes) {
        if (!tryGrow(bytes)) {
            throw query.overBudget(label, bytes);
        }
    }

    /**
     * Gives back {@code bytes} this account holds. Giving back nothing touches nothing: operators
     * that give back a step's scratch after every batch (often none) take no lock of the query's.
     */
    public void shrink(long bytes) {
        if (bytes == 0) {
            return;
        }
        long held = heldBytes.addAndGet(-bytes);
        if (held < 0) {
            heldBytes.addAndGet(bytes);
            throw new IllegalStateException(label + " gives back " + bytes + " bytes, more than it holds");
        }
        query.shrink(bytes);
    }

    /**
     * One chunk of {@link QueryMemory#chunkLongs()} longs from the arena (lesson 2), reserved first and
     * held until the query ends. Its contents are undefined (a reused chunk keeps an earlier query's
     * data): the caller writes before it reads.
     *
     * @throws QueryFailedException over the limit or the budget, or after the query's release
     */
    public long[] takeChunk() {
        long[] chunk = tryTakeChunk();
        if (chunk == null) {
            throw query.overBudget(label, query.chunkBytes());
        }
        return chunk;
    }

    /**
     * A chunk as {@link #takeChunk()} gives it, or null (having reserved nothing) when over the limit or
     * budget. A free chunk leaves the arena's free list before its bytes are reserved: the budget counts
     * it once, on the list or here, never on both.
     */
    public long[] tryTakeChunk() {
        return tryTakeChunk(false);
    }

    /**
     * As {@link #tryTakeChunk()}, for an operator that spills when refused: refused also where
     * {@link #tryGrowSpillable} would be, so that the headroom it leaves stays for the operators that cannot.
     */
    public long[] tryTakeChunkSpillable() {
        return tryTakeChunk(true);
    }

    private long[] tryTakeChunk(boolean spillable) {
        long[] free = query.pollFreeChunk();
        boolean granted = false;
        try {
            granted = tryGrow(query.chunkBytes(), spillable);
        } finally {
            if (!granted && free != null) {
                query.returnFreeChunk(free);
            }
        }
        return granted ? query.takeChunk(free, this) : null;
    }

    /**
     * Gives back a chunk from {@link #takeChunk()} before the query ends (an operator that spilled what
     * the chunk held), so another operator or query can have it. The caller must not touch it again.
     */
    public void returnChunk(long[] chunk) {
        returnChunkKeepingItsBytes(chunk);
        shrink(query.chunkBytes());
    }

    /**
     * Gives back a chunk as {@link #returnChunk} does, but its bytes stay reserved on this account, for what
     * the caller holds instead (a spilled hash join's file buffers), until it shrinks them.
     */
    public void returnChunkKeepingItsBytes(long[] chunk) {
        query.returnChunk(chunk, label);
    }

    /**
     * Forgets what this account holds, which its query gives back ({@link QueryMemory#releaseAccountsFrom}): the
     * bytes it held. Its owner is gone: nothing grows or shrinks it again.
     */
    long close() {
        return heldBytes.getAndSet(0);
    }

    /** Bytes this account holds now. */
    public long heldBytes() {
        return heldBytes.get();
    }

    /** The most bytes this account held at once. */
    public long peakBytes() {
        return peakBytes.get();
    }

    /** Counts {@code bytes} this operator wrote to spill files instead of holding them (for EXPLAIN ANALYZE). */
    public void spilled(long bytes) {
        spilledBytes.addAndGet(bytes);
    }

    /** Bytes this operator wrote to spill files. */
    public long spilledBytes() {
        return spilledBytes.get();
    }

    /** The error a refused grow of {@code bytes} gets (for an operator that tried to spill first and could not). */
    public QueryFailedException overBudget(long bytes) {
        return query.overBudget(label, bytes);
    }

    @Override
    public String toString() {
        return label + " holds " + heldBytes.get() + " bytes (peak " + peakBytes.get() + ")";
    }
}
