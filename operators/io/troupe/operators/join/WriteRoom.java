package io.troupe.operators.join;

import io.troupe.operators.memory.MemoryReservation;

/**
 * What a spilled {@link HashJoinTable}'s account holds for the write buffers of its {@link PartitionWriters}:
 * one buffer per partition, for one side at a time (the build's files are finished before the first prober
 * opens the probe's). The room is paid out of the memory of the chunks the table writes out when it spills:
 * their bytes stay on the account, up to the room's size, instead of going back ({@link #keep}). So the
 * files of a table that held that much before it spilled never ask the budget for fresh memory: the probe's
 * buffers, reserved all at once before a prober emits a row, are then the build's, held in between, and
 * what the other operators took of the budget meanwhile (another join's build, an aggregate above) cannot
 * refuse them (TPC-DS q2 at a twentieth of its memory: 64 KiB asked with 60 KiB free, once the join's
 * chunks left the budget's last eighth to the operators that cannot spill). Only what the room lacks, for a
 * table that spilled holding less, is asked of the account, as the files open ({@link #tryLend}). The room
 * goes back with {@link #release()}, once both sides' files are finished or dropped.
 *
 * <p>Threadsafe: the table's workers give chunks back and its writers reserve under this object's monitor,
 * which takes the account's (and nothing under the account's takes this one).
 */
final class WriteRoom {

    private final MemoryReservation memory;
    private final long size;
    // Guarded by this.
    /** Bytes the account holds for the room, at most {@link #size}. */
    private long held;
    /** Bytes of {@link #held} that the files' buffers hold now. */
    private long lent;

    /** @param size the room's bytes: a buffer of {@code bufferBytes} for every partition */
    WriteRoom(MemoryReservation memory, int bufferBytes) {
        this.memory = memory;
        this.size = (long) Radix.PARTITIONS * bufferBytes;
    }

    /** Bytes the room holds when full. */
    long size() {
        return size;
    }

    /**
     * Of {@code bytes} that the account holds for something the table gives back, how many the room keeps
     * (what it still lacks, or fewer): the caller shrinks the account by the rest only.
     */
    synchronized long keep(long bytes) {
        long kept = Math.min(bytes, size - held);
        held += kept;
        return kept;
    }

    /**
     * Lends {@code bytes} to the files' buffers, asking the account for what the room does not hold; false,
     * having lent nothing, when the account refuses that.
     */
    synchronized boolean tryLend(long bytes) {
        long lacking = Math.max(0, lent + bytes - held);
        if (lacking > 0 && !memory.tryGrow(lacking)) {
            return false;
        }
        held += lacking;
        lent += bytes;
        return true;
    }

    /** The buffers of {@code bytes} are gone (their files finished or dropped): the room holds them again. */
    synchronized void giveBack(long bytes) {
        lent -= bytes;
    }

    /** Gives the room's bytes back to the account, once no buffer holds any (both sides' files finished or dropped). */
    synchronized void release() {
        if (lent != 0) {
            throw new IllegalStateException("the write room is released while buffers hold " + lent + " bytes of it");
        }
        memory.shrink(held);
        held = 0;
    }
}
