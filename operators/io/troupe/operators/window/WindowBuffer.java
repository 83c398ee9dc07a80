package io.troupe.operators.window;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.memory.MemoryReservation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * One worker's part of a window's input: keeps each batch pushed into it, cut into one dense piece per hash
 * part of its rows' PARTITION BY keys ({@link VectorHash#part}, as the exchanges route rows), each piece
 * reserved on the window's account before it is kept; at {@link #finish()} hands its pieces, by part, to the
 * sink's shared state.
 *
 * <p>Not threadsafe: one per worker, driven by that worker's thread.
 */
final class WindowBuffer implements BatchConsumer {

    private final int[] keyColumns;
    private final MemoryReservation memory;
    private final Consumer<List<List<Batch>>> output;
    private final List<List<Batch>> pieces = new ArrayList<>();
    private long[] hashes = new long[0];
    private int[] partOfRow = new int[0];

    WindowBuffer(WindowSpec spec, int parts, MemoryReservation memory, Consumer<List<List<Batch>>> output) {
        this.keyColumns = spec.partitionColumns();
        this.memory = memory;
        this.output = output;
        for (int p = 0; p < parts; p++) {
            pieces.add(new ArrayList<>());
        }
    }

    @Override
    public boolean accept(Batch batch) {
        if (batch.size() == 0) {
            return true;
        }
        Batch dense = batch.compact();
        if (pieces.size() == 1) {
            keep(0, dense);
            return true;
        }
        int n = dense.size();
        if (hashes.length < n) {
            hashes = new long[n];
            partOfRow = new int[n];
        }
        for (int k = 0; k < keyColumns.length; k++) {
            ColumnVector key = dense.column(keyColumns[k]);
            VectorHash.hash(key, dense, hashes, k == 0);
        }
        int parts = pieces.size();
        int[] counts = new int[parts + 1];
        for (int i = 0; i < n; i++) {
            partOfRow[i] = VectorHash.part(hashes[i], parts);
            counts[partOfRow[i] + 1]++;
        }
        for (int p = 0; p < parts; p++) {
            counts[p + 1] += counts[p];
        }
        int[] rows = new int[n];
        int[] next = counts.clone();
        for (int i = 0; i < n; i++) {
            rows[next[partOfRow[i]]++] = i;
        }
        for (int p = 0; p < parts; p++) {
            int count = counts[p + 1] - counts[p];
            if (count == n) {
                keep(p, dense);
            } else if (count > 0) {
                int[] selection = Arrays.copyOfRange(rows, counts[p], counts[p + 1]);
                keep(p, dense.withSelection(selection, count).compact());
            }
        }
        return true;
    }

    private void keep(int part, Batch piece) {
        long bytes = piece.sizeInBytes();
        if (!memory.tryGrow(bytes)) {
            throw memory.overBudget(bytes);
        }
        pieces.get(part).add(piece);
    }

    @Override
    public void finish() {
        output.accept(pieces);
    }
}
