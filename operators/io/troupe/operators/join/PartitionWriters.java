package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.spill.QuerySpill;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillWriter;
import io.troupe.operators.types.DataType;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;

/**
 * The spill files of one side (build or probe) of one spilled table of a hash join: a file per
 * partition ({@link Radix}), opened when the partition's first row comes, shared by every worker of
 * the table. Each open file has a write buffer of an eighth of an arena chunk ({@link #bufferBytes}:
 * 4 KiB, a page, at the default {@code troupe.hash.chunk-size}), which the table's {@link WriteRoom}
 * lends out of what the join's {@link MemoryReservation} holds for it: either all reserved up front
 * ({@link #reserveAll}, before a prober emits anything) or, on the build side, where files open as
 * chunks are written out and given back, reserved after the chunk whose rows opened them was given
 * back ({@link #reserveOpened}), so the heap may hold up to one buffer per partition more than the
 * account says for a while (see {@link BuildWorker}). A block wider than the buffer grows it for that
 * write. Sharing the files keeps what a spilling join holds at one buffer per partition and side,
 * whatever the number of workers.
 *
 * <p>Every file's bytes count as spilled on the account when the side is finished ({@link #finish()}).
 *
 * <h2>Concurrency</h2>
 * {@link #write} is threadsafe: a partition's file is opened and written under that partition's
 * lock, and a batch's rows are sorted by partition in arrays of the call's own. The reservations
 * take this object's monitor (a few times per side), never while holding a partition lock; a
 * reservation may write (its {@code freeMore}), so it takes partition locks inside the monitor,
 * and nothing under a partition lock takes the monitor.
 * {@link #finish()} and {@link #abandon()} run once, after every writer's last write (a barrier of
 * the join: the build's end, the last prober's decrement); the files are read after it.
 */
final class PartitionWriters {

    private final String label;
    private final DataType[] types;
    private final int level;
    private final QuerySpill spill;
    private final MemoryReservation memory;
    private final WriteRoom room;
    private final int bufferBytes;
    private final Object[] locks = new Object[Radix.PARTITIONS];
    // Each guarded by locks[p]; read after finish().
    private final SpillFile[] files = new SpillFile[Radix.PARTITIONS];
    private final SpillWriter[] writers = new SpillWriter[Radix.PARTITIONS];
    private final long[] rows = new long[Radix.PARTITIONS];
    /** The hash of the first row written to each partition, and whether a later row's differed. */
    private final long[] firstHash = new long[Radix.PARTITIONS];
    private final boolean[] hashesDiffer = new boolean[Radix.PARTITIONS];
    /** Files opened (a count outside every lock: it is bumped under a partition's lock). */
    private final AtomicInteger opened = new AtomicInteger();
    /** Buffers the room lends these files; guarded by this. */
    private int reserved;

    /**
     * @param label  what spills, for file names and errors ("hash join j build")
     * @param types  the columns of every batch written
     * @param level  the level whose hash bits choose the partition
     * @param memory the join's account, which counts the files' bytes as spilled
     * @param room   what the account holds for the buffers, of {@link #bufferBytes(int)} each
     * @param chunkBytes bytes of an arena chunk
     */
    PartitionWriters(String label, DataType[] types, int level, QuerySpill spill, MemoryReservation memory,
                     WriteRoom room, int chunkBytes) {
        this.label = label;
        this.types = types.clone();
        this.level = level;
        this.spill = spill;
        this.memory = memory;
        this.room = room;
        this.bufferBytes = bufferBytes(chunkBytes);
        Arrays.setAll(locks, p -> new Object());
    }

    /** Bytes of a file's write buffer: an eighth of an arena chunk of {@code chunkBytes}, at least 512. */
    static int bufferBytes(int chunkBytes) {
        return Math.max(512, chunkBytes / 8);
    }

    /** Writes every live row of {@code batch} to its partition's file; {@code hashes[i]} is live row i's hash. */
    void write(Batch batch, long[] hashes) {
        int n = batch.size();
        if (n == 0) {
            return;
        }
        byte[] parts = new byte[n];
        int[] starts = new int[Radix.PARTITIONS + 1];
        for (int i = 0; i < n; i++) {
            int p = Radix.partition(hashes[i], level);
            parts[i] = (byte) p;
            starts[p + 1]++;
        }
        int[] cursor = new int[Radix.PARTITIONS];
        for (int p = 0; p < Radix.PARTITIONS; p++) {
            starts[p + 1] += starts[p];
            cursor[p] = starts[p];
        }
        int[] order = new int[n];
        long[] orderedHashes = new long[n];
        for (int i = 0; i < n; i++) {
            int at = cursor[parts[i]]++;
            order[at] = batch.row(i);
            orderedHashes[at] = hashes[i];
        }
        for (int p = 0; p < Radix.PARTITIONS; p++) {
            int count = starts[p + 1] - starts[p];
            if (count > 0) {
                Batch rowsOfP = batch.withSelection(Arrays.copyOfRange(order, starts[p], starts[p + 1]), count);
                synchronized (locks[p]) {
                    writer(p).write(rowsOfP);
                    if (rows[p] == 0) {
                        firstHash[p] = orderedHashes[starts[p]];
                    }
                    for (int i = starts[p]; i < starts[p + 1] && !hashesDiffer[p]; i++) {
                        hashesDiffer[p] = orderedHashes[i] != firstHash[p];
                    }
                    rows[p] += count;
                }
            }
        }
    }

    private SpillWriter writer(int p) {
        if (writers[p] == null) {
            files[p] = spill.newFile(label + " p" + p, types);
            writers[p] = files[p].writer(bufferBytes);
            opened.incrementAndGet();
        }
        return writers[p];
    }

    /** Reserves one buffer for every partition up front (once), or fails with {@code refused}'s error. */
    synchronized void reserveAll(LongFunction<JoinOverBudgetException> refused) {
        long bytes = (long) (Radix.PARTITIONS - reserved) * bufferBytes;
        if (bytes > 0) {
            if (!room.tryLend(bytes)) {
                throw refused.apply(bytes);
            }
            reserved = Radix.PARTITIONS;
        }
    }

    /**
     * Reserves the buffers of files opened and not reserved yet; while the account refuses,
     * {@code freeMore} gives back something (a chunk written out) and says whether it could.
     *
     * @return the bytes still not reserved: 0, or what the account refused once nothing more could
     *         be given back
     */
    synchronized long reserveOpened(BooleanSupplier freeMore) {
        while (opened.get() > reserved) {
            int open = opened.get();
            long bytes = (long) (open - reserved) * bufferBytes;
            if (room.tryLend(bytes)) {
                reserved = open;
            } else if (!freeMore.getAsBoolean()) {
                return bytes;
            }
        }
        return 0;
    }

    /** Writes what is buffered, makes every file readable, counts its bytes as spilled and gives the buffers back. */
    void finish() {
        for (int p = 0; p < Radix.PARTITIONS; p++) {
            synchronized (locks[p]) {
                if (writers[p] != null) {
                    writers[p].finish();
                    memory.spilled(files[p].length());
                }
            }
        }
        releaseBuffers();
    }

    /** Deletes every file (written or not) and gives the buffers back: the work is dropped. */
    void abandon() {
        for (int p = 0; p < Radix.PARTITIONS; p++) {
            synchronized (locks[p]) {
                if (files[p] != null) {
                    files[p].delete();
                }
            }
        }
        releaseBuffers();
    }

    private synchronized void releaseBuffers() {
        room.giveBack((long) reserved * bufferBytes);
        reserved = 0;
        opened.set(0);
    }

    /** Partition {@code p}'s file (none, or one), once finished. */
    List<SpillFile> files(int p) {
        synchronized (locks[p]) {
            return files[p] == null ? List.of() : List.of(files[p]);
        }
    }

    /** Rows written to partition {@code p}. */
    long rows(int p) {
        synchronized (locks[p]) {
            return rows[p];
        }
    }

    /** Bytes of one file's write buffer. */
    int bufferBytes() {
        return bufferBytes;
    }

    /** Whether partition {@code p}'s rows have more than one hash: only then can more bits split them. */
    boolean hashesDiffer(int p) {
        synchronized (locks[p]) {
            return hashesDiffer[p];
        }
    }

    /** Rows written to every partition. */
    long totalRows() {
        long total = 0;
        for (int p = 0; p < Radix.PARTITIONS; p++) {
            total += rows(p);
        }
        return total;
    }
}
