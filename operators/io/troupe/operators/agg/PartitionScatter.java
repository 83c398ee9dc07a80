package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;

import java.util.Arrays;

/**
 * Sorts the live rows of a batch by the partition their keys fall in at one cut
 * ({@link PartitionedGroups#partitionsOf}), with a counting pass, into one selection per
 * partition: how a split partial sends rows to its partitions, and how a spill cuts a partition.
 *
 * <p>Not threadsafe: the scratch of one worker.
 */
final class PartitionScatter {

    private final int level;
    private final int[] counts;
    private final int[][] rows;
    private long[] hashes = new long[0];
    private byte[] partitionOfRow = new byte[0];

    PartitionScatter(int level) {
        this.level = level;
        int partitions = PartitionedGroups.partitions(level);
        counts = new int[partitions];
        rows = new int[partitions][0];
    }

    int partitions() {
        return counts.length;
    }

    /** Sorts the live rows of {@code batch} by the partition of their {@code keys}; {@link #part} then gives each. */
    void sort(ColumnVector[] keys, Batch batch) {
        int n = batch.size();
        if (hashes.length < n) {
            hashes = new long[n];
            partitionOfRow = new byte[n];
        }
        PartitionedGroups.partitionsOf(keys, batch, hashes, partitionOfRow, level);
        int[] count = counts;
        Arrays.fill(count, 0);
        for (int i = 0; i < n; i++) {
            count[partitionOfRow[i]]++;
        }
        for (int p = 0; p < count.length; p++) {
            if (rows[p].length < count[p]) {
                rows[p] = new int[Math.max(count[p], 2 * rows[p].length)];
            }
            count[p] = 0;
        }
        for (int i = 0; i < n; i++) {
            int p = partitionOfRow[i];
            rows[p][count[p]++] = batch.row(i);
        }
    }

    /** The rows of {@code batch} (the one last sorted) in partition {@code p}: possibly none. */
    Batch part(Batch batch, int p) {
        return batch.withSelection(rows[p], counts[p]);
    }
}
