package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.memory.MemoryReservation;

/**
 * One worker's partial aggregation. It starts as one {@link Aggregation}; once that holds
 * {@link #SPLIT_AT} groups it splits into {@link PartitionedGroups#PARTITIONS} aggregations by
 * key hash and from then on sends each row to its partition's (radix partitioning, as DuckDB's
 * partitioned aggregate does). Few groups stay whole, as scattering them would cost more than
 * it saves; many groups split, so that the merge of all workers' partials goes partition by
 * partition on every worker, each partition's tables small enough to stay in cache, and a
 * partition of the largest partial is adopted as it is rather than re-inserted.
 *
 * <p>Over the memory budget it spills ({@link AggregateMemory#maySpill()}): it writes every group
 * it holds as a partial row into one spill file, partition after partition ({@link RunWriter}),
 * gives its memory back and goes on as a new, empty partial; the merge then reads each
 * partition's runs back. When even the empty partial is refused a batch (the other workers hold
 * the budget), the batch's rows go to a spill file as they are, each a group of its own (as
 * PostgreSQL's hash aggregate spills the tuples of groups it cannot hold), until memory comes
 * back; the worker hands those rows in when it finishes, if no later spill did. Where it may not
 * spill, the budget's error fails the query.
 *
 * <p>Not threadsafe: owned by one worker until its {@code finish()}; read-only afterwards, when
 * merge units read it from several workers at once (each taking only its own partitions).
 */
final class PartialAggregation {

    /** Groups at which a partial splits: a table of this size still fits in a core's cache. */
    static final int SPLIT_AT = 1 << 16;

    private final AggregateMemory memory;
    private final int splitAt;
    private Aggregation whole;
    private Aggregation[] partitions;
    private PartitionScatter scatter;
    /** Where rows go as they are while even an empty table is refused memory; null until then. */
    private RunWriter overflow;

    /**
     * @param splitAt the groups at which to split ({@link #SPLIT_AT}); {@code Integer.MAX_VALUE}
     *                never to split: without group keys
     */
    PartialAggregation(AggregateMemory memory, int splitAt) {
        this.memory = memory;
        this.splitAt = splitAt;
        this.whole = memory.newAggregation();
    }

    /** Adds the live rows of {@code batch} (keys and inputs as {@link Aggregation#tryAdd}). */
    void add(Batch batch, ColumnVector[] keys, ColumnVector[][] inputs) {
        if (partitions == null) {
            addTo(whole, batch, keys, inputs);
        } else {
            PartitionScatter sorted = scatter;
            sorted.sort(keys, batch);
            for (int p = 0; p < PartitionedGroups.PARTITIONS; p++) {
                Batch rows = sorted.part(batch, p);
                if (rows.size() > 0) {
                    // After a spill the partial is whole again: the rest of the batch goes there.
                    addTo(partitions == null ? whole : partitions[p], rows, keys, inputs);
                }
            }
        }
        if (whole != null && whole.groupCount() >= splitAt) {
            split();
        }
    }

    /** Adds rows to {@code target}; when refused, spills everything and adds them to the new whole. */
    private void addTo(Aggregation target, Batch rows, ColumnVector[] keys, ColumnVector[][] inputs) {
        if (target.tryAdd(rows, keys, inputs)) {
            return;
        }
        spillOrFail(target);
        if (!whole.tryAdd(rows, keys, inputs)) {
            if (overflow == null) {
                overflow = memory.newRunWriter(0, "rows");
            }
            overflow.scatter(memory.singletonRows(rows, keys, inputs));
        }
    }

    /** Sorts the whole aggregation's groups into partitions; when the memory for that is refused, spills instead. */
    private void split() {
        MemoryReservation account = memory.memory();
        long sortBytes = PartitionedGroups.bytesFor(whole);
        if (!account.tryGrow(sortBytes)) {
            if (!memory.maySpill()) {
                throw account.overBudget(sortBytes);
            }
            spill();
            return;
        }
        try {
            PartitionedGroups groups = PartitionedGroups.of(whole, 0);
            Aggregation[] parts = new Aggregation[PartitionedGroups.PARTITIONS];
            for (int p = 0; p < parts.length; p++) {
                parts[p] = memory.newAggregation();
                if (!groups.tryMergePartitionInto(parts[p], p)) {
                    for (int q = 0; q <= p; q++) {
                        parts[q].release();
                    }
                    spillOrFail(parts[p]);
                    return;
                }
            }
            whole.release();
            whole = null;
            partitions = parts;
            scatter = new PartitionScatter(0);
        } finally {
            account.shrink(sortBytes);
        }
    }

    private void spillOrFail(Aggregation refused) {
        if (!memory.maySpill()) {
            throw refused.refusal();
        }
        spill();
    }

    /**
     * Writes every group to a new spill file, partition by partition, hands the runs to the
     * aggregate (and those of the rows that went as they were), gives the memory back and starts
     * again whole and empty.
     */
    void spill() {
        handInRows();
        if (groupCount() == 0) {
            return;
        }
        RunWriter out = memory.newRunWriter(0, "partial");
        if (partitions != null) {
            for (int p = 0; p < partitions.length; p++) {
                Aggregation part = partitions[p];
                for (int from = 0; from < part.groupCount(); from += Aggregation.SPILL_CHUNK) {
                    memory.ctx().checkCancelled();
                    int n = Math.min(Aggregation.SPILL_CHUNK, part.groupCount() - from);
                    out.write(p, part.partialRows(Inputs.range(from, n), n));
                }
                // Dropped as its memory goes back: another worker may take that memory at once.
                partitions[p] = null;
                part.release();
            }
        } else {
            Aggregation written = whole;
            whole = null;
            out.writeAll(written, memory);
            written.release();
        }
        memory.addRuns(out.finish(memory.memory()));
        partitions = null;
        scatter = null;
        whole = memory.newAggregation();
    }

    /**
     * Hands the aggregate the run of the rows that went to a spill file as they were, if any: at
     * the latest when the worker finishes, as that file is their only copy. Its runs make the
     * aggregate spilled, so the merge reads them.
     */
    void handInRows() {
        if (overflow != null) {
            memory.addRuns(overflow.finish(memory.memory()));
            overflow = null;
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

    /**
     * Partition {@code p} of a partial that split, for the one merge unit of p, which takes it:
     * once merged, its memory can go.
     */
    Aggregation takePartition(int p) {
        if (partitions == null) {
            throw new IllegalStateException("a partial that did not split has no partitions");
        }
        Aggregation part = partitions[p];
        if (part == null) {
            throw new IllegalStateException("partition " + p + " was taken twice");
        }
        partitions[p] = null;
        return part;
    }
}
