package io.troupe.operators.window;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.sort.Columns;
import io.troupe.operators.sort.NormalisedKeys;
import io.troupe.operators.sort.OrderKey;
import io.troupe.operators.sort.RunSorter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One hash part of a window, computed: its rows concatenated, sorted by the partition columns and the ORDER BY
 * keys ({@link NormalisedKeys}, {@link RunSorter}: the sort's own machinery), cut into partitions (rows equal on
 * the partition columns) and peer groups (rows equal on every key), and each function's column computed over
 * each partition ({@link PartitionFunctions}). Its output is read in sorted order, a slice at a time.
 *
 * <p>Memory: what the part's sort and its function columns will hold is reserved before they are made, beside
 * what the sink reserved for the part's rows; {@link #release} gives both back.
 *
 * <p>Not threadsafe: made and read by the one reader that claimed the part.
 */
final class WindowPart {

    /** Most rows one part can hold: its rows are indexed by int. */
    private static final int MAX_ROWS = Integer.MAX_VALUE - 16;
    /**
     * Bytes per row and function a part's work holds at most: a function's column or source rows, its counts,
     * sums (or sum tree), queues, and its frames' bounds ({@link PartitionFrames#BYTES_PER_ROW}).
     */
    private static final int BYTES_PER_ROW_AND_CALL = 48 + PartitionFrames.BYTES_PER_ROW;
    /** Bytes per row the cuts hold: each row's peer group's start and end. */
    private static final int BYTES_PER_ROW = 2 * Integer.BYTES;

    private final WindowSpec spec;
    private final ColumnVector[] columns;
    private final int[] order;
    private final ColumnVector[] results;
    private final MemoryReservation memory;
    private final long heldBytes;

    private WindowPart(WindowSpec spec, ColumnVector[] columns, int[] order, ColumnVector[] results,
                       MemoryReservation memory, long heldBytes) {
        this.spec = spec;
        this.columns = columns;
        this.order = order;
        this.results = results;
        this.memory = memory;
        this.heldBytes = heldBytes;
    }

    /**
     * Sorts {@code batches} (dense, at least one row in all) and computes every function of {@code spec} over
     * them, reserving the work on {@code memory}.
     *
     * @throws QueryFailedException when the work does not fit the budget, the part holds more rows than it can,
     *                              or a sum overflows its type
     */
    static WindowPart compute(WindowSpec spec, List<Batch> batches, MemoryReservation memory) {
        long total = 0;
        long inputBytes = 0;
        for (Batch b : batches) {
            total += b.size();
            inputBytes += b.sizeInBytes();
        }
        if (total > MAX_ROWS) {
            throw new QueryFailedException(spec.label() + ": one hash part of the window has " + total
                    + " rows, more than the " + MAX_ROWS + " a part can hold");
        }
        int n = (int) total;
        List<OrderKey> keys = spec.sortKeys();
        long workBytes = inputBytes + (long) n * (BYTES_PER_ROW + (long) spec.calls().size() * BYTES_PER_ROW_AND_CALL
                + NormalisedKeys.bytesPerRow(keys) + RunSorter.BYTES_PER_ROW);
        if (!memory.tryGrow(workBytes)) {
            throw memory.overBudget(workBytes);
        }
        ColumnVector[] columns = concat(batches, n);
        int[] order;
        NormalisedKeys normalised = null;
        if (keys.isEmpty()) {
            order = new int[n];
            Arrays.setAll(order, i -> i);
        } else {
            ColumnVector[] vectors = new ColumnVector[keys.size()];
            for (int k = 0; k < vectors.length; k++) {
                vectors[k] = columns[spec.sortColumn(k)];
            }
            normalised = NormalisedKeys.of(vectors, keys.toArray(new OrderKey[0]), n);
            order = RunSorter.sort(normalised);
        }
        ColumnVector[] results = evaluate(spec, columns, order, normalised, keys.size());
        return new WindowPart(spec, columns, order, results, memory, inputBytes + workBytes);
    }

    private static ColumnVector[] concat(List<Batch> batches, int n) {
        Batch first = batches.get(0);
        ColumnVector[] columns = new ColumnVector[first.columnCount()];
        if (batches.size() == 1) {
            for (int c = 0; c < columns.length; c++) {
                columns[c] = first.column(c);
            }
            return columns;
        }
        int[] sizes = new int[batches.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = batches.get(i).size();
        }
        List<ColumnVector> parts = new ArrayList<>(batches.size());
        for (int c = 0; c < columns.length; c++) {
            parts.clear();
            for (Batch b : batches) {
                parts.add(b.column(c));
            }
            columns[c] = Columns.concat(first.column(c).type(), parts, sizes, n);
        }
        return columns;
    }

    /**
     * Cuts the sorted rows into partitions and peer groups and computes each function's column, in sorted
     * order. Rows tie as peers on every sort key, and share a partition on the first {@code partitionKeys}.
     */
    private static ColumnVector[] evaluate(WindowSpec spec, ColumnVector[] columns, int[] order,
                                           NormalisedKeys keys, int keyCount) {
        int n = order.length;
        int partitionKeys = spec.partitionColumns().length;
        int[] peerStart = new int[n];
        int[] peerEnd = new int[n];
        Map<WindowFrame, PartitionFrames> frames = new LinkedHashMap<>();
        List<PartitionFunctions> calls = new ArrayList<>();
        for (WindowCallSpec call : spec.calls()) {
            PartitionFrames framed = call.function().framed()
                    ? frames.computeIfAbsent(call.frame(), f -> frames(spec, f, columns, order)) : null;
            calls.add(new PartitionFunctions(call, columns, order, framed));
        }
        int from = 0;
        while (from < n) {
            int to = from + 1;
            while (to < n && (keys == null || keys.compareFirst(partitionKeys, order[to - 1], order[to]) == 0)) {
                to++;
            }
            int groupStart = from;
            for (int pos = from + 1; pos <= to; pos++) {
                if (pos == to || keys != null && keys.compareFirst(keyCount, order[pos - 1], order[pos]) != 0) {
                    Arrays.fill(peerStart, groupStart, pos, groupStart);
                    Arrays.fill(peerEnd, groupStart, pos, pos);
                    groupStart = pos;
                }
            }
            for (PartitionFrames f : frames.values()) {
                f.compute(from, to, peerStart, peerEnd);
            }
            for (PartitionFunctions call : calls) {
                call.compute(from, to, peerStart, peerEnd);
            }
            from = to;
        }
        ColumnVector[] results = new ColumnVector[calls.size()];
        for (int c = 0; c < results.length; c++) {
            results[c] = calls.get(c).result();
        }
        return results;
    }

    /** The frames of {@code frame} over the part; a RANGE frame with an offset measures the one ORDER BY key. */
    private static PartitionFrames frames(WindowSpec spec, WindowFrame frame, ColumnVector[] columns, int[] order) {
        if (!frame.measuresKeys()) {
            return new PartitionFrames(frame, order, null, true);
        }
        int k = spec.partitionColumns().length;
        return new PartitionFrames(frame, order, columns[spec.sortColumn(k)], spec.sortKeys().get(k).ascending());
    }

    /** Rows of the part. */
    int rows() {
        return order.length;
    }

    /** Rows {@code from..from+count} in sorted order: the input's columns, then each function's. */
    Batch output(int from, int count) {
        int[] rows = Arrays.copyOfRange(order, from, from + count);
        int[] positions = new int[count];
        Arrays.setAll(positions, i -> from + i);
        ColumnVector[] out = new ColumnVector[spec.inputColumns() + results.length];
        for (int c = 0; c < spec.inputColumns(); c++) {
            out[c] = columns[c].gather(rows, count);
        }
        for (int f = 0; f < results.length; f++) {
            out[spec.inputColumns() + f] = results[f].gather(positions, count);
        }
        return Batch.of(count, out);
    }

    /** Gives back what the part's rows and work held. */
    void release() {
        memory.shrink(heldBytes);
    }
}
