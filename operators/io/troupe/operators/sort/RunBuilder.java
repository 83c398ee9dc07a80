package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.memory.MemoryReservation;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One worker's part of a sort: keeps the batches pushed into it (compacted, with the computed
 * keys appended, see {@link SortSpec}) and, at {@link #finish()}, sorts them into one
 * {@link SortedRun} that it hands to the sink's shared state with whatever it spilled
 * ({@link WorkerRuns}).
 *
 * <p><b>Memory.</b> Before it keeps a batch it reserves, from the sort's account, what the batch
 * will cost until it is sorted: its columns, the copy that a sort concatenates them into, and per
 * row the keys and the sort's arrays ({@link #bufferBytes}); after a sort it holds what the run
 * keeps. So the sort's own arrays are reserved before they are made. With spilling on, a builder
 * keeps to its share of the query's memory (the limit over the sort's workers, less the room to
 * write a run: DuckDB and PostgreSQL give each sorting thread its share the same way), so that a
 * worker that starts late is not refused by one that took everything. With its first batch it reserves
 * the room to write a run ({@link ExternalMerge#writeRoom()}) and holds it until it finishes, so that a
 * spill never asks for memory when the others may hold it all. Past its share, or when the
 * account refuses a batch, it sorts what it holds into a run, writes the run to a spill file in
 * sorted order ({@link ExternalMerge#write}), gives the memory back and goes on buffering. A worker
 * that spilled writes its last run out too, which leaves the memory to the merge's read buffers;
 * one that never did keeps its run in memory. With spilling off, a refused batch fails the query
 * with the budget's error.
 *
 * <p><b>Top-N.</b> A limit of {@code keep} rows holds only a bounded buffer: once it holds
 * {@code keep + max(keep, MIN_SLACK_ROWS)} rows it sorts them and keeps the best {@code keep}
 * (sort-and-truncate: amortised, each row is sorted O(1) times), reserving what it keeps. From then
 * on the worst kept row is a boundary, and a new row enters the buffer only if it sorts strictly
 * before it, so on most inputs few rows are ever buffered. A spilled run of {@code keep} rows
 * tightens the boundary the same way. {@code keep == 0} (LIMIT 0) takes nothing and asks the
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
    private final MemoryReservation memory;
    /** Writes the runs that do not fit; null when spilling is off. */
    private final ExternalMerge spill;
    /** The most the buffer may hold before it is spilled: this worker's share of the query's memory. */
    private final LongSupplier bufferShare;
    private final Consumer<WorkerRuns> output;
    /** Bytes a buffered row costs beyond its columns until it is sorted: its keys and the sort's arrays. */
    private final long sortBytesPerRow;
    private final List<Batch> pending = new ArrayList<>();
    private long pendingRows;
    /** What the account holds for the pending batches and their sort. */
    private long pendingBytes;
    /** What the account holds for writing a run, from the first batch to finish (0 with spilling off). */
    private long roomBytes;
    private final List<SpilledRun> spilled = new ArrayList<>();
    /** Top-N, once {@code keep} rows are held or spilled: the keys of the worst of them (one row). */
    private NormalisedKeys boundary;

    /**
     * @param keep        rows to keep ({@link SortedRun#MAX_ROWS} or more: all)
     * @param memory      the sort's account, shared by its workers
     * @param spill       writes runs that do not fit, or null when spilling is off
     * @param bufferShare the most the buffer may hold before it spills (read at each batch: the sort's
     *                    workers may still be counting when this one is made)
     * @param output      receives this worker's runs at finish (not called when no row arrived)
     */
    RunBuilder(SortSpec spec, int keep, MemoryReservation memory, ExternalMerge spill, LongSupplier bufferShare,
               Consumer<WorkerRuns> output) {
        this.spec = spec;
        this.keep = keep;
        this.truncateAt = keep >= SortedRun.MAX_ROWS ? Long.MAX_VALUE : (long) keep + Math.max(keep, MIN_SLACK_ROWS);
        this.memory = memory;
        this.spill = spill;
        this.bufferShare = bufferShare;
        this.output = output;
        this.sortBytesPerRow = NormalisedKeys.bytesPerRow(spec.keys()) + RunSorter.BYTES_PER_ROW;
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
        reserve(bufferBytes(rows));
        pending.add(rows);
        pendingRows += rows.size();
        if (pendingRows >= truncateAt) {
            truncate();
        }
        return true;
    }

    /**
     * What keeping {@code rows} costs until they are sorted: their columns, the copy a sort
     * concatenates them into, and per row the keys and the sort's arrays.
     */
    private long bufferBytes(Batch rows) {
        return 2 * rows.sizeInBytes() + rows.size() * sortBytesPerRow;
    }

    /**
     * Reserves {@code bytes} for a batch to keep (with the first, the room to write a run), spilling what is held
     * first when past the share or refused.
     */
    private void reserve(long bytes) {
        long room = spill != null && roomBytes == 0 ? spill.writeRoom() : 0;
        if (spill != null && !pending.isEmpty() && pendingBytes + bytes > bufferShare.getAsLong()) {
            spillPending();
        }
        if (!memory.tryGrow(bytes + room)) {
            if (spill == null) {
                throw memory.overBudget(bytes);
            }
            if (!pending.isEmpty()) {
                spillPending();
            }
            memory.grow(bytes + room);
        }
        roomBytes += room;
        pendingBytes += bytes;
    }

    /** The rows of {@code rows} that sort strictly before the boundary (dense). */
    private Batch beforeBoundary(Batch rows) {
        NormalisedKeys keys = spec.normalise(rows);
        int size = rows.size();
        int[] selection = new int[size];
        int kept = 0;
        for (int i = 0; i < size; i++) {
            selection[kept] = i;
            kept += keys.compare(i, boundary, 0) < 0 ? 1 : 0;
        }
        return kept == size ? rows : rows.withSelection(selection, kept).compact();
    }

    /** Sorts the buffer and keeps its best {@code keep} rows, densely and in order. */
    private void truncate() {
        SortedRun run = SortedRun.sort(spec, pending, keep);
        pending.clear();
        Batch best = run.gather(0, run.size(), spec.bufferedColumns());
        holdForBuffer(bufferBytes(best));
        pending.add(best);
        pendingRows = best.size();
        if (best.size() == keep) {
            boundary = worstOf(run);
        }
    }

    /**
     * Sorts the buffer into a run, writes it out in sorted order (in the room held since the first batch) and
     * gives its memory back. The run holds less than the buffer did, since its batches went once the run was
     * concatenated.
     */
    private void spillPending() {
        SortedRun run = SortedRun.sort(spec, pending, keep);
        pending.clear();
        holdForBuffer(run.sizeInBytes());
        spilled.add(spill.write(run));
        if (run.size() == keep) {
            boundary = worstOf(run);
        }
        holdForBuffer(0);
        pendingRows = 0;
    }

    /** The keys of the last row of a run that holds {@code keep} rows: later rows must sort before it. */
    private NormalisedKeys worstOf(SortedRun run) {
        return spec.normalise(run.gather(run.size() - 1, 1, spec.bufferedColumns()));
    }

    /** Makes the account hold {@code bytes} for the buffer (or the run it became) instead of what it holds now. */
    private void holdForBuffer(long bytes) {
        if (bytes > pendingBytes) {
            memory.grow(bytes - pendingBytes);
        } else {
            memory.shrink(pendingBytes - bytes);
        }
        pendingBytes = bytes;
    }

    @Override
    public void finish() {
        SortedRun last = null;
        if (!pending.isEmpty() && spilled.isEmpty()) {
            last = SortedRun.sort(spec, pending, keep);
            pending.clear();
            pendingRows = 0;
            holdForBuffer(last.sizeInBytes());
        } else if (!pending.isEmpty()) {
            spillPending();
        }
        memory.shrink(roomBytes);
        roomBytes = 0;
        if (last != null || !spilled.isEmpty()) {
            output.accept(new WorkerRuns(last, spilled));
        }
    }
}
