package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.memory.HeapArrays;

/**
 * An {@link Aggregation}'s groups sorted into {@link #PARTITIONS} partitions by key hash: how a
 * {@link PartialAggregation} splits, and how a partial too small to split joins the partition by
 * partition merge. {@link #partitionsOf} is the one partition function of rows and groups alike.
 *
 * <p>A group's partition comes from the top bits of its key hash, hashed once more: the group
 * tables place keys by the top bits of the plain hash, and a partition's merged table would crowd
 * into one part of its slots if partitions were cut by the same bits. A partition that does not
 * fit in memory when it merges is cut again by the next {@link #SUB_BITS} bits ("level" 1, 2 ...;
 * level 0 is the first cut into {@link #PARTITIONS}).
 *
 * <p>Immutable once built; read by several merging workers at once.
 */
final class PartitionedGroups {

    static final int BITS = 6;
    static final int PARTITIONS = 1 << BITS;
    /** Bits of each further cut of a partition that does not fit: 16 parts, each a sixteenth of it. */
    static final int SUB_BITS = 4;
    /** Cuts below the first: 6 + 4 * 8 = 38 bits of hash, far more than a budget could need. */
    static final int MAX_LEVEL = 8;
    private static final int CHUNK = Aggregation.MERGE_CHUNK;
    private static final int SPILL_CHUNK = Aggregation.SPILL_CHUNK;

    private final Aggregation aggregation;
    private final int level;
    private final int[] order;
    private final int[] starts;

    private PartitionedGroups(Aggregation aggregation, int level, int[] order, int[] starts) {
        this.aggregation = aggregation;
        this.level = level;
        this.order = order;
        this.starts = starts;
    }

    /** The bytes {@link #of} takes for {@code aggregation}: a partition and a place per group. */
    static long bytesFor(Aggregation aggregation) {
        int groups = aggregation.groupCount();
        return HeapArrays.bytes(groups, Integer.BYTES) + HeapArrays.bytes(groups, 1) + HeapArrays.bytes(PARTITIONS + 1, Integer.BYTES);
    }

    /**
     * Sorts the groups of {@code aggregation} (finished adding rows; it has group keys) by their
     * part of the cut at {@code level}, hashing their keys a chunk at a time. The caller reserves
     * {@link #bytesFor} first.
     */
    static PartitionedGroups of(Aggregation aggregation, int level) {
        int groups = aggregation.groupCount();
        int parts = partitions(level);
        byte[] partition = new byte[groups];
        long[] hashes = new long[Math.min(CHUNK, groups)];
        byte[] chunkPartitions = new byte[hashes.length];
        int[] starts = new int[parts + 1];
        for (int from = 0; from < groups; from += CHUNK) {
            int n = Math.min(CHUNK, groups - from);
            ColumnVector[] keys = aggregation.keys(from, n);
            partitionsOf(keys, Batch.of(n, keys), hashes, chunkPartitions, level);
            for (int k = 0; k < n; k++) {
                partition[from + k] = chunkPartitions[k];
                starts[chunkPartitions[k] + 1]++;
            }
        }
        for (int p = 0; p < parts; p++) {
            starts[p + 1] += starts[p];
        }
        int[] next = starts.clone();
        int[] order = new int[groups];
        for (int g = 0; g < groups; g++) {
            order[next[partition[g]]++] = g;
        }
        return new PartitionedGroups(aggregation, level, order, starts);
    }

    /**
     * The partition of each live row of {@code batch} by its {@code keys} into {@code partitions}
     * ({@code hashes} is scratch); rows and groups with equal keys always land in the same one.
     */
    static void partitionsOf(ColumnVector[] keys, Batch batch, long[] hashes, byte[] partitions) {
        partitionsOf(keys, batch, hashes, partitions, 0);
    }

    /** As {@link #partitionsOf(ColumnVector[], Batch, long[], byte[])}, cut at {@code level}. */
    static void partitionsOf(ColumnVector[] keys, Batch batch, long[] hashes, byte[] partitions, int level) {
        for (int c = 0; c < keys.length; c++) {
            VectorHash.hash(keys[c], batch, hashes, c == 0);
        }
        int n = batch.size();
        int skip = level == 0 ? 0 : BITS + SUB_BITS * (level - 1);
        int keep = 64 - (level == 0 ? BITS : SUB_BITS);
        for (int i = 0; i < n; i++) {
            partitions[i] = (byte) ((VectorHash.mix(hashes[i]) << skip) >>> keep);
        }
    }

    /** The parts a cut at {@code level} makes. */
    static int partitions(int level) {
        return level == 0 ? PARTITIONS : 1 << SUB_BITS;
    }

    /** Merges this partial's groups of partition {@code p} into {@code target}; false when its memory is refused. */
    boolean tryMergePartitionInto(Aggregation target, int p) {
        return target.tryAbsorb(aggregation, order, starts[p], starts[p + 1]);
    }

    /** Writes every group as a partial row under its part, into {@code out}, which cuts at the same level. */
    void writeAll(RunWriter out, AggregateMemory memory) {
        for (int p = 0; p + 1 < starts.length; p++) {
            write(p, out, memory);
        }
    }

    /**
     * Writes the groups of part {@code p} as partial rows into {@code out}: under p when it cuts at
     * this sort's level, else each under its part of out's cut.
     */
    void write(int p, RunWriter out, AggregateMemory memory) {
        int[] chunk = new int[SPILL_CHUNK];
        for (int from = starts[p]; from < starts[p + 1]; from += SPILL_CHUNK) {
            memory.ctx().checkCancelled();
            int n = Math.min(SPILL_CHUNK, starts[p + 1] - from);
            System.arraycopy(order, from, chunk, 0, n);
            Batch rows = aggregation.partialRows(chunk, n);
            if (out.level() == level) {
                out.write(p, rows);
            } else {
                out.scatter(rows);
            }
        }
    }
}
