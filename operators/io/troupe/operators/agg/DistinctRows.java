package io.troupe.operators.agg;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * A set of rows that grows and never forgets (NULLs equal to each other, as in SELECT DISTINCT), which tells what
 * each addition brought that it did not hold: WITH RECURSIVE's UNION, whose every round keeps only the rows that no
 * earlier round produced ({@code io.troupe.operators.recursive}). Every column is a group key of a {@link GroupTable},
 * which stores each row once, in order of first appearance, so the rows new since a mark are the groups after it.
 *
 * <p>The rows are split by hash into {@value #PARTITIONS} partitions, each a table under its own lock, so that the
 * workers of a round add at once and seldom wait for each other. Every table's arrays are reserved from
 * {@code memory} before they grow, the old and the new arrays both while a table doubles; over the budget the query
 * fails, naming the account.
 *
 * <h2>Concurrency</h2>
 * {@link #add} is threadsafe (a partition's table and its reservation are guarded by the partition). {@link #takeNew}
 * and the readers ({@link #rows(int)}, {@link #rows(int, int, int)}) run while no add does: between a round's
 * pipelines, which the executor runs one after another (its start happens after the last add's worker reported).
 */
public final class DistinctRows {

    /** Partitions: enough that two workers seldom add to one at once, few enough that each table stays worth its slots. */
    private static final int PARTITIONS = 16;

    private final MemoryReservation memory;
    private final Part[] parts = new Part[PARTITIONS];

    /** A set of rows of {@code types}, its tables reserved from {@code memory}. */
    public DistinctRows(List<DataType> types, MemoryReservation memory) {
        this.memory = memory;
        for (int p = 0; p < PARTITIONS; p++) {
            parts[p] = new Part(GroupTable.create(types));
        }
    }

    /** One partition: its table, the bytes reserved for it, and where {@link #takeNew} last stopped. */
    private static final class Part {
        final GroupTable table;
        long reserved;
        int mark;
        int[] gids = new int[0];

        Part(GroupTable table) {
            this.table = table;
        }
    }

    /**
     * Adds the live rows of {@code batch} that the set does not hold. Threadsafe.
     *
     * @throws io.troupe.operators.exec.QueryFailedException when the tables would pass the query's memory limit
     */
    public void add(Batch batch) {
        int n = batch.size();
        if (n == 0) {
            return;
        }
        ColumnVector[] columns = new ColumnVector[batch.columnCount()];
        long[] hashes = new long[n];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = batch.column(c);
            VectorHash.hash(columns[c], batch, hashes, c == 0);
        }
        int[] counts = new int[PARTITIONS];
        int[] partOf = new int[n];
        for (int i = 0; i < n; i++) {
            partOf[i] = VectorHash.part(hashes[i], PARTITIONS);
            counts[partOf[i]]++;
        }
        int[][] rows = new int[PARTITIONS][];
        for (int p = 0; p < PARTITIONS; p++) {
            rows[p] = new int[counts[p]];
            counts[p] = 0;
        }
        for (int i = 0; i < n; i++) {
            rows[partOf[i]][counts[partOf[i]]++] = batch.row(i);
        }
        for (int p = 0; p < PARTITIONS; p++) {
            if (counts[p] > 0) {
                insert(parts[p], columns, batch.withSelection(rows[p], counts[p]));
            }
        }
    }

    private void insert(Part part, ColumnVector[] columns, Batch rows) {
        synchronized (part) {
            int n = rows.size();
            long bytes = part.table.bytesFor(part.table.groupsAfter(n), columns, rows);
            long growth = Math.max(0, bytes - part.reserved);
            // While a table doubles, its old arrays are held beside the new ones.
            long copied = growth > 0 ? part.reserved : 0;
            memory.grow(growth + copied);
            part.reserved += growth;
            try {
                part.gids = Inputs.room(part.gids, n);
                part.table.findOrInsert(columns, rows, part.gids);
            } finally {
                memory.shrink(copied);
            }
        }
    }

    /**
     * The rows added since the last call (every row, the first time), as dense batches of at most {@code batchSize}
     * rows, in no particular order; the next call starts after them. Not while {@link #add} runs.
     */
    public List<Batch> takeNew(int batchSize) {
        List<Batch> batches = new ArrayList<>();
        for (Part part : parts) {
            int end = part.table.groupCount();
            for (int from = part.mark; from < end; from += batchSize) {
                int count = Math.min(batchSize, end - from);
                batches.add(Batch.of(count, part.table.keys(from, count)));
            }
            part.mark = end;
        }
        return batches;
    }

    /** How many partitions the rows are in. */
    public int partitions() {
        return PARTITIONS;
    }

    /** How many rows partition {@code partition} holds. Not while {@link #add} runs. */
    public int rows(int partition) {
        return parts[partition].table.groupCount();
    }

    /**
     * Rows {@code from .. from + count - 1} of partition {@code partition}, as a dense batch. Not while {@link #add}
     * runs; readers may read at once.
     */
    public Batch rows(int partition, int from, int count) {
        return Batch.of(count, parts[partition].table.keys(from, count));
    }
}
