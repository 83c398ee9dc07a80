package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.Source;
import io.troupe.operators.memory.MemoryReservation;
import io.troupe.operators.spill.SpillFile;
import io.troupe.operators.spill.SpillReader;
import io.troupe.operators.spill.SpillWriter;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The disk side of a sort that spills: an external merge sort, as PostgreSQL's tuplesort and
 * DuckDB's sort do it. A worker whose buffer does not fit writes it out as a sorted run
 * ({@link #write}); the runs are then merged, in memory and spilled alike, by a k-way merge that
 * reads every run a batch at a time ({@link #reader}); when more runs are left than such a merge
 * can hold buffers for within the budget, the smallest are first merged into one, as many at a time
 * as fit (a bounded fan-in), in passes that write intermediate runs ({@link #reduce}).
 *
 * <h2>Who merges</h2> Every worker. Each sorts and spills its own runs while it reads its input;
 * between its last batch and the sink's publication the workers share the passes that bring the runs
 * down to what the readers can merge at once ({@link #premerge}, a worker's runs at a time); then, for
 * ORDER BY at the top, each worker merges its own runs into the one sorted stream it sends the Gather
 * Merge, and elsewhere the single reader of the sort merges every worker's runs.
 *
 * <h2>Memory</h2> Every buffer is reserved from the sort's account before it is made, and a merge of
 * k runs holds O(k) batches, never a run:
 * <ul>
 *   <li>writing a run: {@link #writeRoom()}, the writer's buffer and the slice of rows gathered for it
 *       (a {@link RunBuilder} reserves it with its first batch and holds it until it finishes; a
 *       pass reserves its own);</li>
 *   <li>reading a spilled run: its reader's buffer, the batch being merged and the next, and the keys
 *       of one ({@link #inputBytes(SpilledRun)});</li>
 *   <li>reading a run kept in memory: two slices of it and their keys (the run itself is the
 *       worker's, held until the query ends);</li>
 *   <li>a reader's output batch.</li>
 * </ul>
 * A spilled run's file is deleted as soon as its merge read its last batch, or stopped early (a LIMIT
 * reached), and with its query however that ends.
 *
 * <h2>Concurrency</h2> Threadsafe: it keeps nothing of its own; any number of workers write, merge
 * and read at once, each its own runs, through the sort's account and the query's spill files (both
 * threadsafe). A reader and the lists given to {@link #reduce} belong to one worker.
 */
final class ExternalMerge {

    /**
     * The smallest spill buffer: below it writes become too small to be worth their system call. A
     * sort's buffers are {@link SpillWriter#BUFFER_BYTES} unless its query's limit is small: a
     * sixteenth of it, so that a merge of a few runs and a writer still fit a query of a megabyte.
     */
    private static final int MIN_BUFFER_BYTES = 16 * 1024;
    /**
     * The fan-in below which the finalize passes run fewer at once rather than merging fewer runs
     * each: a pass rewrites every row of its runs, so merging two at a time doubles the passes of
     * merging four.
     */
    static final int PASS_FAN_IN = 4;

    private final SortSpec spec;
    private final ExecContext ctx;
    private final MemoryReservation memory;
    private final long keep;
    /** Bytes a run's writer buffers before each write, and a reader of it at least. */
    private final int bufferBytes;
    /**
     * Bytes of rows gathered into one block: a quarter of a writer's buffer, so that a block rarely
     * outgrows it and a merge holds little per run (a batch of it and the next).
     */
    private final int sliceBytes;
    /** Bytes of heap the keys of one row take when a batch of it is merged. */
    private final long keyBytesPerRow;

    /**
     * @param memory the sort's account, which its writes, passes and readers reserve from and count
     *               their spilled bytes in
     * @param keep   rows a merged run needs at most (offset + count of a top-N; else all)
     */
    ExternalMerge(SortSpec spec, ExecContext ctx, MemoryReservation memory, long keep) {
        this.spec = spec;
        this.ctx = ctx;
        this.memory = memory;
        this.keep = keep;
        this.bufferBytes = (int) Math.max(MIN_BUFFER_BYTES,
                Math.min(SpillWriter.BUFFER_BYTES, ctx.memory().limitBytes() / 16));
        this.sliceBytes = bufferBytes / 4;
        this.keyBytesPerRow = NormalisedKeys.bytesPerRow(spec.keys())
                + (long) (spec.bufferedColumns() - spec.dataColumns()) * Long.BYTES;
    }

    /** What writing one run holds: the writer's buffer and one slice. */
    long writeRoom() {
        return bufferBytes + sliceBytes;
    }

    // ------------------------------------------------------------------ writing

    /**
     * Writes the rows of {@code run} in its order (its output columns) to a new spill file, a slice
     * at a time, and counts the file's bytes as spilled. The caller holds {@link #writeRoom()}.
     */
    SpilledRun write(SortedRun run) {
        DataType[] types = new DataType[spec.dataColumns()];
        for (int c = 0; c < types.length; c++) {
            types[c] = run.column(c).type();
        }
        RunWriter out = new RunWriter(types);
        int slice = sliceRows(bytesPerRow(run));
        for (int from = 0; from < run.size(); from += slice) {
            out.write(run.gather(from, Math.min(slice, run.size() - from), spec.dataColumns()));
        }
        return out.finish();
    }

    /** One spill file being written, and the largest batch that went in (what reading it back costs). */
    private final class RunWriter {
        private final SpillFile file;
        private final SpillWriter writer;
        private long maxBatchBytes;
        private int maxBatchRows;

        RunWriter(DataType[] types) {
            this.file = ctx.spill().newFile(spec.label() + " run", types);
            this.writer = file.writer(bufferBytes);
        }

        void write(Batch batch) {
            ctx.checkCancelled();
            Batch dense = batch.compact();
            writer.write(dense);
            maxBatchBytes = Math.max(maxBatchBytes, dense.sizeInBytes());
            maxBatchRows = Math.max(maxBatchRows, dense.size());
        }

        SpilledRun finish() {
            writer.finish();
            memory.spilled(file.length());
            return new SpilledRun(file, maxBatchBytes, maxBatchRows);
        }
    }

    // ------------------------------------------------------------------ passes

    /**
     * The work the sink's workers share before it publishes, when some of its runs spilled: if the
     * readers could not hold buffers for every run at once, each worker's spilled runs are merged
     * into fewer, in parallel, so that all of them fit the buffers the budget grants now. Called once,
     * single-threaded, after every worker finished; the lists of spilled runs are changed in place.
     */
    FinalizeWork premerge(List<WorkerRuns> workers) {
        List<WorkerRuns> spilling = new ArrayList<>();
        List<SortedRun> inMemory = new ArrayList<>();
        List<SpilledRun> all = new ArrayList<>();
        for (WorkerRuns w : workers) {
            if (w.inMemoryRun() != null) {
                inMemory.add(w.inMemoryRun());
            }
            if (w.hasSpilled()) {
                spilling.add(w);
                all.addAll(w.spilled());
            }
        }
        // As many readers as workers may merge at once (one stream each), each with its output batch.
        // Each run's buffers are counted at the largest run's, and an eighth more: a run merged by a
        // pass may come out with slightly larger batches than the runs it merged.
        long fixed = readerBytes(inMemory, all, workers.size());
        long input = maxInputBytes(all) + maxInputBytes(all) / 8;
        int fits = 0;
        if (memory.tryGrow(fixed)) {
            while (fits < all.size() && memory.tryGrow(input)) {
                fits++;
            }
            memory.shrink(fixed + fits * input);
        }
        if (fits == all.size()) {
            return FinalizeWork.NONE;
        }
        long room = fits * input;
        // Split the room between the workers. A pass holds a writer and its runs' buffers: with room
        // for fewer than PASS_FAN_IN runs a worker, fewer lanes run the workers' passes, one worker
        // after another, so that each pass still merges several runs at once.
        int perWorker = Math.max(1, fits / spilling.size());
        int lanes = (int) Math.max(1, Math.min(spilling.size(), room / (writeRoom() + PASS_FAN_IN * input)));
        int fanIn = passFanIn(room / lanes, input);
        AtomicInteger nextLane = new AtomicInteger();
        return () -> {
            int lane = nextLane.getAndIncrement();
            if (lane >= lanes) {
                return false;
            }
            for (int w = lane; w < spilling.size(); w += lanes) {
                reduce(spilling.get(w).spilled(), perWorker, fanIn);
            }
            return true;
        };
    }

    /** How many runs of {@code inputBytes} each a pass merges in {@code room} bytes with its writer (at least two). */
    private int passFanIn(long room, long inputBytes) {
        return (int) Math.max(2, Math.min(Integer.MAX_VALUE, (room - writeRoom()) / Math.max(1, inputBytes)));
    }

    /**
     * Merges runs of {@code runs} into one, the smallest first and at most {@code maxFanIn} (at least
     * two) at a time, until at most {@code maxRuns} (at least one) are left; {@code runs} is changed
     * in place. Each pass reserves its buffers first and fails with the budget's error when even two
     * runs and a writer do not fit.
     */
    void reduce(List<SpilledRun> runs, int maxRuns, int maxFanIn) {
        int target = Math.max(1, maxRuns);
        while (runs.size() > target) {
            runs.sort(Comparator.comparingLong(SpilledRun::rows));
            int fanIn = Math.min(Math.max(2, maxFanIn), runs.size() - target + 1);
            List<SpilledRun> smallest = new ArrayList<>(runs.subList(0, fanIn));
            runs.subList(0, fanIn).clear();
            runs.add(mergePass(smallest));
        }
    }

    /** Merges {@code runs} (two or more) into one new spilled run and deletes them. */
    private SpilledRun mergePass(List<SpilledRun> runs) {
        long reserved = writeRoom() + inputBytes(runs);
        memory.grow(reserved);
        long rowBytes = 1;
        for (SpilledRun run : runs) {
            rowBytes = Math.max(rowBytes, bytesPerRow(run));
        }
        Merge merge = open(List.of(), runs, 0, keep, sliceRows(rowBytes), reserved);
        try {
            RunWriter out = new RunWriter(runs.get(0).types());
            for (Batch b = merge.next(); b != null; b = merge.next()) {
                out.write(b);
            }
            return out.finish();
        } finally {
            merge.close();
        }
    }

    // ------------------------------------------------------------------ reading

    /**
     * A reader of the merge of {@code inMemory} and {@code spilled} runs in batches of the query's
     * batch size, skipping its first {@code skip} rows and emitting at most {@code limit}. On its first
     * {@link Source.SourceReader#next()} it reserves its buffers, first merging spilled runs in passes
     * when not all of them fit. Not threadsafe: one worker reads it.
     */
    Source.SourceReader reader(List<SortedRun> inMemory, List<SpilledRun> spilled, long skip, long limit) {
        return new MergedReader(inMemory, new ArrayList<>(spilled), skip, limit);
    }

    /** The reader's life. */
    private enum ReaderState {
        /** Nothing reserved or opened yet. */
        UNOPENED,
        /** Merging: holds its buffers and the spilled runs not yet read to their end. */
        MERGING,
        /** Every row wanted went out: the buffers went back, the files were deleted. */
        DONE
    }

    private final class MergedReader implements Source.SourceReader {
        private final List<SortedRun> inMemory;
        private final List<SpilledRun> spilled;
        private final long skip;
        private final long limit;
        private ReaderState state = ReaderState.UNOPENED;
        private Merge merge;

        MergedReader(List<SortedRun> inMemory, List<SpilledRun> spilled, long skip, long limit) {
            this.inMemory = inMemory;
            this.spilled = spilled;
            this.skip = skip;
            this.limit = limit;
        }

        @Override
        public Batch next() {
            if (state == ReaderState.UNOPENED) {
                merge = openFitting();
                state = ReaderState.MERGING;
            }
            if (state == ReaderState.DONE) {
                return null;
            }
            Batch out = merge.next();
            if (out == null) {
                merge.close();
                merge = null;
                state = ReaderState.DONE;
            }
            return out;
        }

        /** Reserves the buffers of a merge of every run, after passes that leave only as many spilled runs as fit. */
        private Merge openFitting() {
            long fixed = readerBytes(inMemory, spilled, 1);
            memory.grow(fixed);
            while (true) {
                int fits = grantPrefix(spilled);
                if (fits == spilled.size()) {
                    break;
                }
                memory.shrink(inputBytes(spilled.subList(0, fits)));
                if (spilled.size() <= Math.max(1, fits)) {
                    // One run that does not fit on its own: the budget's error (or, freed meanwhile, its buffers).
                    memory.grow(inputBytes(spilled));
                    break;
                }
                reduce(spilled, fits, passFanIn(inputBytes(spilled.subList(0, fits)), maxInputBytes(spilled)));
            }
            int rows = outputRows(maxRowBytes(inMemory, spilled));
            return open(inMemory, spilled, skip, limit, rows, fixed + inputBytes(spilled));
        }
    }

    // ------------------------------------------------------------------ the merge

    /** One input of a merge: its batches in sorted order, and what is left to do once it was read. */
    private interface Input {
        /** The next batch, or null at the end. */
        Batch next();

        /** Read to its end, or no longer wanted: a spilled run's file goes. */
        void close();
    }

    /**
     * A k-way merge of runs ({@link StreamMerger}) that pulls its inputs: whenever the merger cannot
     * go on, every input it waits for gives one batch. It holds {@code reserved} bytes of the account
     * until {@link #close()}. Not threadsafe.
     */
    private final class Merge {
        private final Input[] inputs;
        private final StreamMerger merger;
        private long reserved;

        Merge(Input[] inputs, StreamMerger merger, long reserved) {
            this.inputs = inputs;
            this.merger = merger;
            this.reserved = reserved;
        }

        /** The next merged batch, or null when the merge is done. */
        Batch next() {
            while (true) {
                Batch out = merger.next();
                if (out != null || merger.isDone()) {
                    return out;
                }
                for (int i = 0; i < inputs.length; i++) {
                    if (merger.needsBatch(i)) {
                        Batch batch = inputs[i].next();
                        if (batch == null) {
                            merger.end(i);
                            inputs[i].close();
                        } else {
                            merger.add(i, batch);
                        }
                    }
                }
            }
        }

        /** Deletes every spilled input's file and gives the buffers back. Idempotent. */
        void close() {
            for (Input input : inputs) {
                input.close();
            }
            memory.shrink(reserved);
            reserved = 0;
        }
    }

    private Merge open(List<SortedRun> inMemory, List<SpilledRun> spilled, long skip, long limit, int batchRows,
                       long reserved) {
        Input[] inputs = new Input[inMemory.size() + spilled.size()];
        int i = 0;
        for (SortedRun run : inMemory) {
            inputs[i++] = slices(run);
        }
        for (SpilledRun run : spilled) {
            inputs[i++] = read(run);
        }
        return new Merge(inputs, new StreamMerger(spec, inputs.length, skip, limit, batchRows), reserved);
    }

    /** A run kept in memory, gathered a slice at a time in its order. */
    private Input slices(SortedRun run) {
        int slice = sliceRows(bytesPerRow(run));
        return new Input() {
            private int next;

            @Override
            public Batch next() {
                if (next >= run.size()) {
                    return null;
                }
                int n = Math.min(slice, run.size() - next);
                Batch batch = run.gather(next, n, spec.dataColumns());
                next += n;
                return batch;
            }

            @Override
            public void close() {
                // The run is the worker's: it stays until the query ends.
            }
        };
    }

    /** A spilled run, read back a block at a time. */
    private static Input read(SpilledRun run) {
        SpillReader reader = run.reader();
        return new Input() {
            @Override
            public Batch next() {
                return reader.next();
            }

            @Override
            public void close() {
                run.delete();
            }
        };
    }

    // ------------------------------------------------------------------ sizes

    /**
     * Reserves the merge buffers of {@code runs} in order for as long as the account grants them:
     * returns how many were granted, the first ones (whose {@link #inputBytes(List)} it now holds).
     */
    private int grantPrefix(List<SpilledRun> runs) {
        int granted = 0;
        while (granted < runs.size() && memory.tryGrow(inputBytes(runs.get(granted)))) {
            granted++;
        }
        return granted;
    }

    /** What reading one spilled run in a merge holds: its reader's buffer, two batches and the keys of one. */
    long inputBytes(SpilledRun run) {
        long batch = run.maxBatchBytes();
        return Math.max(bufferBytes, batch) + 2 * batch + run.maxBatchRows() * keyBytesPerRow;
    }

    private long maxInputBytes(List<SpilledRun> runs) {
        long bytes = 0;
        for (SpilledRun run : runs) {
            bytes = Math.max(bytes, inputBytes(run));
        }
        return bytes;
    }

    private long inputBytes(List<SpilledRun> runs) {
        long bytes = 0;
        for (SpilledRun run : runs) {
            bytes += inputBytes(run);
        }
        return bytes;
    }

    /**
     * What {@code readers} readers hold besides their spilled runs' buffers: two slices of each run
     * kept in memory and their keys, and an output batch each.
     */
    private long readerBytes(List<SortedRun> inMemory, List<SpilledRun> spilled, int readers) {
        long bytes = 0;
        for (SortedRun run : inMemory) {
            long perRow = bytesPerRow(run);
            bytes += sliceRows(perRow) * (2 * perRow + keyBytesPerRow);
        }
        long rowBytes = maxRowBytes(inMemory, spilled);
        return bytes + readers * outputRows(rowBytes) * rowBytes;
    }

    /** The widest row of any of the runs, in bytes (at least 1). */
    private long maxRowBytes(List<SortedRun> inMemory, List<SpilledRun> spilled) {
        long rowBytes = 1;
        for (SortedRun run : inMemory) {
            rowBytes = Math.max(rowBytes, bytesPerRow(run));
        }
        for (SpilledRun run : spilled) {
            rowBytes = Math.max(rowBytes, bytesPerRow(run));
        }
        return rowBytes;
    }

    /**
     * Rows per batch a reader emits: the query's batch size, or fewer when a batch of rows of
     * {@code rowBytes} outgrows a spill buffer (a small query limit, whose budget holds a batch per reader).
     */
    private int outputRows(long rowBytes) {
        return (int) Math.max(1, Math.min(ctx.batchSize(), bufferBytes / rowBytes));
    }

    /** Rows per slice of rows that take {@code rowBytes} each: about {@link #sliceBytes}, at most a batch. */
    private int sliceRows(long rowBytes) {
        return (int) Math.max(1, Math.min(ctx.batchSize(), sliceBytes / rowBytes));
    }

    /** Bytes per row of a run's output columns (at least 1). */
    private long bytesPerRow(SortedRun run) {
        long bytes = 0;
        for (int c = 0; c < spec.dataColumns(); c++) {
            ColumnVector column = run.column(c);
            bytes += column.sizeInBytes();
        }
        return Math.max(1, bytes / Math.max(1, run.keys().rows()));
    }

    private static long bytesPerRow(SpilledRun run) {
        return Math.max(1, run.maxBatchBytes() / Math.max(1, run.maxBatchRows()));
    }
}
