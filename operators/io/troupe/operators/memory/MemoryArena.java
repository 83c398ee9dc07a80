package io.troupe.operators.memory;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory of one Troupe: the budget that every running query reserves from
 * ({@code troupe.memory.budget}), and the cache of hash-table chunks (lesson 2, seed 001: a parallel
 * hash join that allocates its memory on demand stops scaling; preallocated memory and large chunks
 * let it scale on).
 *
 * <h2>The budget</h2>
 * Queries hold memory through their {@link QueryMemory} ({@link #forQuery}), operators through a
 * {@link MemoryReservation} each, and every large allocation is reserved before it is made. A query
 * may be admitted with a reservation ({@link #tryAdmit}): those bytes are set aside for it at once,
 * so that it never waits for them or spills below them; past its reservation it grows into whatever
 * of the budget nobody holds, up to its own limit. The arena counts, per query, the larger of its
 * reservation and what it uses ({@link #reservedBytes()}); a grow that would take that past the budget
 * is refused, and the operator spills or fails with an error that names the budget, never an
 * OutOfMemoryError. The budget covers what queries build (hash tables, aggregate tables, sort runs,
 * kept subplans, results, hand-over buffers); registered tables live outside it, in the rest of the
 * heap (reference.conf says how to size both).
 *
 * <h2>The chunk cache</h2>
 * Chunks of {@link #chunkBytes()} bytes as {@code long[]}, chosen by {@code troupe.memory.preallocate}:
 * <ul>
 *   <li><b>preallocated</b> (&gt; 0): that many bytes of chunks are allocated and pre-touched (every
 *       page written) when the arena is made, so that no query pays the allocator or a page fault in
 *       its hot loop; a returned chunk goes back to the free list and the next query reuses it. The
 *       free list keeps at most the preallocated amount: chunks a query needed beyond it are
 *       allocated on demand and dropped when returned.</li>
 *   <li><b>on demand</b> (0, the "off" position): every chunk is a fresh allocation and a returned
 *       chunk is left to the garbage collector, as the baseline the lesson measures against.</li>
 * </ul>
 * A chunk is counted against the budget while a query holds it (through its reservation) and while
 * it waits on the free list: the free list is a cache inside the budget, so that the heap the arena
 * may keep is the budget, whatever the workload. A reservation that fits the budget but not beside the
 * free chunks drops free chunks until it fits (a GROUP BY under pressure takes the memory a join's
 * chunks left). A chunk comes back dirty: its owner writes every slot it reads.
 *
 * <h2>Concurrency</h2>
 * Threadsafe and lock-free: the free list is a {@link ConcurrentLinkedQueue} (a CAS per take and
 * per return) and the budget an {@link AtomicLong} moved by CAS. Queries move it once per chunk or
 * batch (thousands of rows), never per row.
 */
public final class MemoryArena {

    /** The smallest chunk: one 4 KiB page. */
    public static final int MIN_CHUNK_BYTES = 4 * 1024;
    /** The largest chunk (row ids in a chunk must stay far below 2^31). */
    public static final int MAX_CHUNK_BYTES = 64 * 1024 * 1024;
    private static final int PAGE_LONGS = 4096 / Long.BYTES;

    private final int chunkBytes;
    private final int chunkLongs;
    private final long budgetBytes;
    /** Free chunks the list may keep: the preallocated ones. */
    private final long retainedChunks;
    private final ConcurrentLinkedQueue<long[]> free = new ConcurrentLinkedQueue<>();
    /** Chunks now on the free list (the queue's size() is not constant-time). */
    private final AtomicLong freeChunks = new AtomicLong();
    /** Per query, the larger of its reservation and its use, summed over the running queries. */
    private final AtomicLong reservedBytes = new AtomicLong();
    private final AtomicLong allocatedChunks = new AtomicLong();

    /**
     * @param chunkBytes       bytes per chunk, a power of two in {@value #MIN_CHUNK_BYTES}..{@value #MAX_CHUNK_BYTES}
     * @param preallocateBytes bytes of chunks to allocate and pre-touch now and keep for reuse (rounded
     *                         down to whole chunks); 0 allocates every chunk on demand
     * @param budgetBytes      the most bytes all queries together may hold
     */
    public MemoryArena(int chunkBytes, long preallocateBytes, long budgetBytes) {
        if (chunkBytes < MIN_CHUNK_BYTES || chunkBytes > MAX_CHUNK_BYTES || Integer.bitCount(chunkBytes) != 1) {
            throw new IllegalArgumentException("troupe.hash.chunk-size must be a power of two in "
                    + MIN_CHUNK_BYTES + ".." + MAX_CHUNK_BYTES + " bytes, got " + chunkBytes);
        }
        if (preallocateBytes < 0) {
            throw new IllegalArgumentException("troupe.memory.preallocate must not be negative, got " + preallocateBytes);
        }
        if (budgetBytes < chunkBytes) {
            throw new IllegalArgumentException("troupe.memory.budget must hold at least one chunk of "
                    + chunkBytes + " bytes, got " + budgetBytes);
        }
        long heap = Runtime.getRuntime().maxMemory();
        if (preallocateBytes > heap) {
            throw new IllegalArgumentException("troupe.memory.preallocate (" + preallocateBytes
                    + " bytes) is larger than the maximum heap (" + heap + " bytes, -Xmx)");
        }
        if (preallocateBytes > budgetBytes) {
            throw new IllegalArgumentException("troupe.memory.preallocate (" + preallocateBytes
                    + " bytes) is larger than troupe.memory.budget (" + budgetBytes
                    + " bytes): queries could never use what it keeps");
        }
        this.chunkBytes = chunkBytes;
        this.chunkLongs = chunkBytes / Long.BYTES;
        this.budgetBytes = budgetBytes;
        this.retainedChunks = preallocateBytes / chunkBytes;
        for (long i = 0; i < retainedChunks; i++) {
            free.add(preTouched(newChunk()));
            freeChunks.incrementAndGet();
        }
    }

    /** An arena that allocates on demand under no budget: for contexts made outside a Troupe (tests, tools). */
    public static MemoryArena onDemand(int chunkBytes) {
        return new MemoryArena(chunkBytes, 0, Long.MAX_VALUE);
    }

    public int chunkBytes() {
        return chunkBytes;
    }

    /** Longs per chunk. */
    public int chunkLongs() {
        return chunkLongs;
    }

    public long budgetBytes() {
        return budgetBytes;
    }

    /** Bytes of the budget that queries hold now: per query the larger of its reservation and its use. */
    public long inUseBytes() {
        return reservedBytes.get();
    }

    /** Chunks on the free list now, ready for reuse. */
    public long freeChunks() {
        return freeChunks.get();
    }

    /** Chunks allocated since the arena was made (preallocated ones included): reuse keeps it still. */
    public long allocatedChunks() {
        return allocatedChunks.get();
    }

    /** A query with no reservation of its own, which may grow to the whole budget. */
    public QueryMemory forQuery(long queryId) {
        return forQuery(queryId, budgetBytes);
    }

    /** A query with no reservation of its own, which may grow to {@code limitBytes} (at most the budget). */
    public QueryMemory forQuery(long queryId, long limitBytes) {
        return new QueryMemory(this, queryId, 0, Math.min(limitBytes, budgetBytes));
    }

    /**
     * A query admitted with {@code reservationBytes} set aside for it now, which may grow to
     * {@code limitBytes}; null (having reserved nothing) when the budget cannot hold the reservation
     * now. Its {@link QueryMemory#releaseAll()} returns the reservation with the rest.
     *
     * @throws IllegalArgumentException when the reservation could never fit: larger than the limit or the budget
     */
    public QueryMemory tryAdmit(long queryId, long reservationBytes, long limitBytes) {
        if (reservationBytes < 0 || reservationBytes > limitBytes || reservationBytes > budgetBytes) {
            throw new IllegalArgumentException("query " + queryId + ": a reservation of " + reservationBytes
                    + " bytes can never fit: troupe.memory.budget = " + budgetBytes + " bytes, the query's limit "
                    + limitBytes + " bytes");
        }
        if (!tryReserve(reservationBytes)) {
            return null;
        }
        return new QueryMemory(this, queryId, reservationBytes, limitBytes);
    }

    /**
     * Moves {@code bytes} of the budget to a query; false (having moved nothing) when it would pass the
     * budget. Chunks on the free list count in the budget too: when only they stand in the way, they
     * are dropped to the garbage collector one by one until the bytes fit.
     */
    boolean tryReserve(long bytes) {
        return tryReserve(bytes, 0);
    }

    /** As {@link #tryReserve(long)}, but false unless {@code leave} bytes of the budget stay free after it. */
    boolean tryReserve(long bytes, long leave) {
        while (true) {
            long used = reservedBytes.get();
            if (bytes > budgetBytes - leave - used) {
                return false;
            }
            if (bytes > budgetBytes - used - freeChunks.get() * chunkBytes) {
                pollFreeChunk(); // dropped: the heap may take it back
            } else if (reservedBytes.compareAndSet(used, used + bytes)) {
                return true;
            }
        }
    }

    /** Returns {@code bytes} a query held to the budget. */
    void unreserve(long bytes) {
        long after = reservedBytes.addAndGet(-bytes);
        assert after >= 0 : "reservedBytes=" + after;
    }

    /** A chunk off the free list, null when it has none: its bytes leave the list's count at once. */
    long[] pollFreeChunk() {
        long[] chunk = free.poll();
        if (chunk != null) {
            freeChunks.decrementAndGet();
        }
        return chunk;
    }

    /** Takes back a chunk: onto the free list while it keeps fewer than the preallocated. */
    void giveBack(long[] chunk) {
        if (chunk.length != chunkLongs) {
            throw new IllegalArgumentException("not a chunk of this arena: " + chunk.length + " longs, expected " + chunkLongs);
        }
        if (freeChunks.incrementAndGet() <= retainedChunks) {
            free.add(chunk);
        } else {
            freeChunks.decrementAndGet();
        }
    }

    /** A fresh chunk, for a query that reserved its bytes already. */
    long[] newChunk() {
        allocatedChunks.incrementAndGet();
        return new long[chunkLongs];
    }

    /**
     * Writes one long in every page, so that the OS maps the pages now, not in a query's hot loop
     * (the JVM may hand out lazily-mapped zero pages for a large array).
     */
    private static long[] preTouched(long[] chunk) {
        for (int i = 0; i < chunk.length; i += PAGE_LONGS) {
            chunk[i] = 0L;
        }
        return chunk;
    }
}
