package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorHash;

/**
 * An {@link Aggregation}'s groups sorted into {@link #PARTITIONS} partitions by key hash: how a
 * {@link PartialAggregation} splits, and how a partial too small to split joins the partition by
 * partition merge. {@link #partitionsOf} is the one partition function of rows and groups alike.
 *
 * <p>A group's partition comes from the top bits of its key hash, hashed once more: the group
 * tables place keys by the top bits of the plain hash, and a partition's merged table would crowd
 * into one part of its slots if partitions were cut by the same bits.
 *
 * <p>Immutable once built; read by several merging workers at once.
 */
final class PartitionedGroups {

    static final int BITS = 6;
    static final int PARTITIONS = 1 << BITS;
    private static final int CHUNK = 2048;

    private final Aggregation aggregation;
    private final ColumnVector[] keys;
    private final int[] order;
    private final int[] starts;

    private PartitionedGroups(Aggregation aggregation, ColumnVector[] keys, int[] order, int[] starts) {
        this.aggregation = aggregation;
        this.keys = keys;
        this.order = order;
        this.starts = starts;
    }

    /** Sorts the groups of {@code aggregation} (finished adding rows; it has group keys) by partition. */
    static PartitionedGroups of(Aggregation aggregation) {
        int groups = aggregation.groupCount();
        ColumnVector[] keys = aggregation.keys(0, groups);
        Batch all = Batch.of(groups, keys);
        byte[] partition = new byte[groups];
        long[] hashes = new long[Math.min(CHUNK, groups)];
        byte[] chunkPartitions = new byte[hashes.length];
        int[] selection = new int[hashes.length];
        int[] starts = new int[PARTITIONS + 1];
        for (int from = 0; from < groups; from += CHUNK) {
            int n = Math.min(CHUNK, groups - from);
            for (int k = 0; k < n; k++) {
                selection[k] = from + k;
            }
            partitionsOf(keys, all.withSelection(selection, n), hashes, chunkPartitions);
            for (int k = 0; k < n; k++) {
                partition[from + k] = chunkPartitions[k];
                starts[chunkPartitions[k] + 1]++;
            }
        }
        for (int p = 0; p < PARTITIONS; p++) {
            starts[p + 1] += starts[p];
        }
        int[] next = starts.clone();
        int[] order = new int[groups];
        for (int g = 0; g < groups; g++) {
            order[next[partition[g]]++] = g;
        }
        return new PartitionedGroups(aggregation, keys, order, starts);
    }

    /**
     * The partition of each live row of {@code batch} by its {@code keys} into {@code partitions}
     * ({@code hashes} is scratch); rows and groups with equal keys always land in the same one.
     */
    static void partitionsOf(ColumnVector[] keys, Batch batch, long[] hashes, byte[] partitions) {
        for (int c = 0; c < keys.length; c++) {
            VectorHash.hash(keys[c], batch, hashes, c == 0);
        }
        int n = batch.size();
        for (int i = 0; i < n; i++) {
            partitions[i] = (byte) (VectorHash.mix(hashes[i]) >>> (64 - BITS));
        }
    }

    /** Merges this partial's groups of partition {@code p} into {@code target}. */
    void mergePartitionInto(Aggregation target, int p) {
        target.absorb(aggregation, keys, order, starts[p], starts[p + 1]);
    }
}
