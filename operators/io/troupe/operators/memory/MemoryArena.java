package io.troupe.operators.memory;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hash-table memory of one Troupe (lesson 2, seed 001: a parallel hash join that allocates its
 * memory on demand stops scaling; preallocated memory and large chunks let it scale on). Hands out
 * chunks of {@link #chunkBytes()} bytes as {@code long[]} to queries through their
 * {@link QueryMemory}, and takes them back when a query ends.
 *
 * <p>Two modes, chosen by {@code troupe.memory.preallocate}:
 * <ul>
 *   <li><b>preallocated</b> (&gt; 0): that many bytes of chunks are allocated and pre-touched (every
 *       page written) when the arena is made, so that no query pays the allocator or a page fault in
 *       its hot loop; a returned chunk goes back to the free list and the next query reuses it. The
 *       free list keeps at most the preallocated amount: chunks a query needed beyond it are
 *       allocated on demand and dropped when returned.</li>
 *   <li><b>on demand</b> (0, the "off" position): every chunk is a fresh allocation and a returned
 *       chunk is left to the garbage collector, as the baseline the lesson measures against.</li>
 * </ul>
 * Either way the bytes that queries hold count against {@code troupe.memory.budget}: a take that
 * would pass it fails with a {@link io.troupe.operators.exec.QueryFailedException} (see
 * {@link QueryMemory#take}), never an OutOfMemoryError. A chunk comes back dirty: its owner writes
 * every slot it reads.
 *
 * <h2>Concurrency</h2>
 * Threadsafe and lock-free: the free list is a {@link ConcurrentLinkedQueue} (a CAS per take and
 * per return) and the budget an {@link AtomicLong} moved by CAS. A take happens once per chunk
 * (thousands of rows), never per row.
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
    private final AtomicLong inUseBytes = new AtomicLong();
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

    /** Bytes that queries hold now. */
    public long inUseBytes() {
        return inUseBytes.get();
    }

    /** Chunks on the free list now, ready for reuse. */
    public long freeChunks() {
        return freeChunks.get();
    }

    /** Chunks allocated since the arena was made (preallocated ones included): reuse keeps it still. */
    public long allocatedChunks() {
        return allocatedChunks.get();
    }

    /** A per-query handle over this arena; {@link QueryMemory#releaseAll()} returns what it took. */
    public QueryMemory forQuery(long queryId) {
        return new QueryMemory(this, queryId);
    }

    /**
     * Reserves one chunk against the budget and hands it out; returns null (having reserved nothing)
     * when the budget would be passed, so that the caller can name the operator in its error.
     */
    long[] take() {
        long used;
        do {
            used = inUseBytes.get();
            if (used > budgetBytes - chunkBytes) {
                return null;
            }
        } while (!inUseBytes.compareAndSet(used, used + chunkBytes));
        long[] chunk = free.poll();
        if (chunk != null) {
            freeChunks.decrementAndGet();
            return chunk;
        }
        return newChunk();
    }

    /** Takes back a chunk from {@link #take()}: onto the free list while it keeps fewer than the preallocated. */
    void giveBack(long[] chunk) {
        if (chunk.length != chunkLongs) {
            throw new IllegalArgumentException("not a chunk of this arena: " + chunk.length + " longs, expected " + chunkLongs);
        }
        inUseBytes.addAndGet(-chunkBytes);
        if (freeChunks.incrementAndGet() <= retainedChunks) {
            free.add(chunk);
        } else {
            freeChunks.decrementAndGet();
        }
    }

    private long[] newChunk() {
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
