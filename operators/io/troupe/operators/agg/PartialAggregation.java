package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.types.DataType;

import java.util.Arrays;
import java.util.List;

/**
 * One worker's partial aggregation. It starts as one {@link Aggregation}; once that holds
 * {@link #SPLIT_AT} groups it splits into {@link PartitionedGroups#PARTITIONS} aggregations by
 * key hash and from then on sends each row to its partition's (radix partitioning, as DuckDB's
 * partitioned aggregate does). Few groups stay whole, as scattering them would cost more than
 * it saves; many groups split, so that the merge of all workers' partials goes partition by
 * partition on every worker, each partition's tables small enough to stay in cache, and a
 * partition of the largest partial is adopted as it is rather than re-inserted.
 *
 * <p>Not threadsafe: owned by one worker until its {@code finish()}; read-only afterwards, when
 * merge units read it from several workers at once.
 */
final class PartialAggregation {

    /** Groups at which a partial splits: a table of this size still fits in a core's cache. */
    static final int SPLIT_AT = 1 << 16;

    private final List<DataType> keyTypes;
    private final List<AggregateSpec> aggregates;
    private final int splitAt;
    private Aggregation whole;
    private Aggregation[] partitions;
    /** Scratch for the scatter: partition per live row, then live rows' physical rows by partition. */
    private long[] hashes = new long[0];
    private byte[] partitionOfRow = new byte[0];
    private int[][] rowsOfPartition;
    private final int[] counts = new int[PartitionedGroups.PARTITIONS];

    /**
     * @param splitAt the groups at which to split ({@link #SPLIT_AT}); {@code Integer.MAX_VALUE}
     *                never to split: without group keys, or with count(DISTINCT), whose pairs
     *                table does not partition cheaply
     */
    PartialAggregation(List<DataType> keyTypes, List<AggregateSpec> aggregates, int splitAt) {
        this.keyTypes = keyTypes;
        this.aggregates = aggregates;
        this.splitAt = splitAt;
        this.whole = new Aggregation(keyTypes, aggregates);
    }

    /** Adds the live rows of {@code batch} (keys and arguments as {@link Aggregation#add}). */
    void add(Batch batch, ColumnVector[] keys, ColumnVector[] arguments) {
        if (partitions != null) {
            scatter(batch, keys, arguments);
            return;
        }
        whole.add(batch, keys, arguments);
        if (whole.groupCount() >= splitAt) {
            split();
        }
    }

    private void split() {
        PartitionedGroups groups = PartitionedGroups.of(whole);
        partitions = new Aggregation[PartitionedGroups.PARTITIONS];
        rowsOfPartition = new int[PartitionedGroups.PARTITIONS][];
        for (int p = 0; p < partitions.length; p++) {
            partitions[p] = new Aggregation(keyTypes, aggregates);
            groups.mergePartitionInto(partitions[p], p);
            rowsOfPartition[p] = new int[0];
        }
        whole = null;
    }

    /** Sorts the batch's live rows by partition (a counting pass), then adds each partition's rows to it. */
    private void scatter(Batch batch, ColumnVector[] keys, ColumnVector[] arguments) {
        int n = batch.size();
        if (hashes.length < n) {
            hashes = new long[n];
            partitionOfRow = new byte[n];
        }
        PartitionedGroups.partitionsOf(keys, batch, hashes, partitionOfRow);
        int[] count = counts;
        Arrays.fill(count, 0);
        for (int i = 0; i < n; i++) {
            count[partitionOfRow[i]]++;
        }
        for (int p = 0; p < count.length; p++) {
            if (rowsOfPartition[p].length < count[p]) {
                rowsOfPartition[p] = new int[Math.max(count[p], 2 * rowsOfPartition[p].length)];
            }
            count[p] = 0;
        }
        for (int i = 0; i < n; i++) {
            int p = partitionOfRow[i];
            rowsOfPartition[p][count[p]++] = batch.row(i);
        }
        for (int p = 0; p < count.length; p++) {
            if (count[p] > 0) {
                partitions[p].add(batch.withSelection(rowsOfPartition[p], count[p]), keys, arguments);
            }
        }
    }

    boolean isSplit() {
        return partitions != null;
    }

    int groupCount() {
        if (partitions == null) {
            return whole.groupCount();
        }
        int groups = 0;
        for (Aggregation partition : partitions) {
            groups += partition.groupCount();
        }
        return groups;
    }

    /** The whole aggregation of a partial that did not split. */
    Aggregation whole() {
        if (whole == null) {
            throw new IllegalStateException("a split partial has no whole aggregation");
        }
        return whole;
    }

    /** Partition {@code p} of a partial that split. */
    Aggregation partition(int p) {
        if (partitions == null) {
            throw new IllegalStateException("a partial that did not split has no partitions");
        }
        return partitions[p];
    }
}
