package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One worker's part of a sort: keeps the batches pushed into it (compacted, with the computed
 * keys appended, see {@link SortSpec}) and, at {@link #finish()}, sorts them into one
 * {@link SortedRun} that it hands to the sink's shared state.
 *
 * <p>A top-N (a limit of {@code keep} rows) holds only a bounded buffer: once it holds
 * {@code keep + max(keep, MIN_SLACK_ROWS)} rows it sorts them and keeps the best {@code keep}
 * (sort-and-truncate: amortised, each row is sorted O(1) times). From then on the worst kept row
 * is a boundary, and a new row enters the buffer only if it sorts strictly before it, so on most
 * inputs few rows are ever buffered. {@code keep == 0} (LIMIT 0) takes nothing and asks the
 * producer to stop at once.
 *
 * <p>Not threadsafe: one per worker, driven by that worker's thread.
 */
final class RunBuilder implements BatchConsumer {

    /**
     * Rows a top-N may buffer beyond its limit before truncating: with a small limit, a sort of
     * this many rows amortises the truncation over a few batches.
     */
    static final int MIN_SLACK_ROWS = 4096;

    private final SortSpec spec;
    private final int keep;
    private final long truncateAt;
    private final Consumer<SortedRun> output;
    private final List<Batch> pending = new ArrayList<>();
    private long pendingRows;
    /** Top-N, once {@code keep} rows are held: the keys of the kept rows; the last is the worst. */
    private NormalisedKeys boundary;

    /**
     * @param keep   rows to keep ({@link SortedRun#MAX_ROWS} or more: all)
     * @param output receives this worker's run at finish (not called when no row arrived)
     */
    RunBuilder(SortSpec spec, int keep, Consumer<SortedRun> output) {
        this.spec = spec;
        this.keep = keep;
        this.truncateAt = keep >= SortedRun.MAX_ROWS ? Long.MAX_VALUE : (long) keep + Math.max(keep, MIN_SLACK_ROWS);
        this.output = output;
    }

    @Override
    public boolean accept(Batch batch) {
        if (keep == 0) {
            return false;
        }
        if (batch.size() == 0) {
            return true;
        }
        Batch rows = spec.withKeys(batch.compact());
        if (boundary != null) {
            rows = beforeBoundary(rows);
            if (rows.size() == 0) {
                return true;
            }
        }
        pending.add(rows);
        pendingRows += rows.size();
        if (pendingRows >= truncateAt) {
            truncate();
        }
        return true;
    }

    /** The rows of {@code rows} that sort strictly before the boundary (dense). */
    private Batch beforeBoundary(Batch rows) {
        NormalisedKeys keys = spec.normalise(rows);
        int worst = boundary.rows() - 1;
        int size = rows.size();
        int[] selection = new int[size];
        int kept = 0;
        for (int i = 0; i < size; i++) {
            selection[kept] = i;
            kept += keys.compare(i, boundary, worst) < 0 ? 1 : 0;
        }
        return kept == size ? rows : rows.withSelection(selection, kept).compact();
    }

    /** Sorts the buffer and keeps its best {@code keep} rows, densely and in order. */
    private void truncate() {
        SortedRun run = SortedRun.sort(spec, pending, keep);
        Batch best = run.gather(0, run.size(), spec.bufferedColumns());
        pending.clear();
        pending.add(best);
        pendingRows = best.size();
        if (best.size() == keep) {
            boundary = spec.normalise(best);
        }
    }

    @Override
    public void finish() {
        if (!pending.isEmpty()) {
            output.accept(SortedRun.sort(spec, pending, keep));
            pending.clear();
            pendingRows = 0;
        }
    }
}
