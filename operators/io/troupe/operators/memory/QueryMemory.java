package io.troupe.operators.memory;

import io.troupe.operators.exec.QueryFailedException;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one query holds of its Troupe's {@link MemoryArena}: operators {@link #take} chunks through
 * it, and the executor returns them all with one {@link #releaseAll()} call when the query ends
 * (success, failure or cancel), after its last worker stopped, so the next query reuses them.
 *
 * <h2>Concurrency</h2>
 * Threadsafe and lock-free: any worker may take at any time. The executor calls
 * {@link #releaseAll()} only once no worker of the query runs any more (a chunk returned while a
 * worker still wrote it could be handed to another query). A take that races with or follows the
 * release gives its chunk straight back and fails, so nothing leaks: the state is written before
 * the release drains the list, and a taker checks it after adding to the list, so one of them
 * always sees the other's chunk.
 */
public final class QueryMemory {

    /** The handle's life. */
    private enum State {
        /** Operators may take chunks. */
        OPEN,
        /** The query ended: every chunk went back to the arena, and takes fail. */
        RELEASED
    }

    private final MemoryArena arena;
    private final long queryId;
    private final ConcurrentLinkedQueue<long[]> held = new ConcurrentLinkedQueue<>();
    private final AtomicLong heldBytes = new AtomicLong();
    private volatile State state = State.OPEN;

    QueryMemory(MemoryArena arena, long queryId) {
        this.arena = arena;
        this.queryId = queryId;
    }

    /** Bytes per chunk that {@link #take} hands out. */
    public int chunkBytes() {
        return arena.chunkBytes();
    }

    /** Longs per chunk that {@link #take} hands out. */
    public int chunkLongs() {
        return arena.chunkLongs();
    }

    /** Bytes this query holds now. */
    public long heldBytes() {
        return heldBytes.get();
    }

    /**
     * One chunk of {@link #chunkLongs()} longs, held until {@link #releaseAll()}. Its contents are
     * undefined (a reused chunk keeps an earlier query's data): the caller writes before it reads.
     *
     * @param operator the operator that asks, named in the error
     * @throws QueryFailedException when the chunk would pass {@code troupe.memory.budget}, or the
     *         query's memory was already released
     */
    public long[] take(String operator) {
        if (state == State.RELEASED) {
            throw released(operator);
        }
        long[] chunk = arena.take();
        if (chunk == null) {
            throw new QueryFailedException("query " + queryId + ": " + operator + " asked for "
                    + arena.chunkBytes() + " bytes of hash memory, over troupe.memory.budget = "
                    + arena.budgetBytes() + " bytes (" + arena.inUseBytes() + " bytes in use, "
                    + heldBytes.get() + " by this query)");
        }
        held.add(chunk);
        heldBytes.addAndGet(arena.chunkBytes());
        if (state == State.RELEASED) {
            drain();
            throw released(operator);
        }
        return chunk;
    }

    /** Returns every chunk the query holds to the arena; later takes fail. Idempotent. */
    public void releaseAll() {
        state = State.RELEASED;
        drain();
    }

    private void drain() {
        long[] chunk;
        while ((chunk = held.poll()) != null) {
            heldBytes.addAndGet(-arena.chunkBytes());
            arena.giveBack(chunk);
        }
    }

    private QueryFailedException released(String operator) {
        return new QueryFailedException("query " + queryId + ": " + operator
                + " asked for hash memory after the query's memory was released");
    }
}
