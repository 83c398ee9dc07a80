package io.troupe.operators.sort;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The kernel of a Gather Merge: merges sorted streams of batches, one per input, into one sorted
 * stream, and applies the sort's window (skip {@code offset} rows, keep {@code count}). Batches
 * arrive with {@link #add} as they come in, in each input's order, and {@link #end} says an input
 * sent everything; {@link #next} hands out merged batches.
 *
 * <p><b>The rule</b> (PostgreSQL's nodeGatherMerge.c): a row may be emitted only while every input
 * that has not ended holds a row, because the input that holds none may still send a smaller one.
 * So {@link #next} emits until some live input runs out of rows (or a batch is full) and returns
 * null while any live input has nothing, and the caller goes and reads more ({@link #stalled}
 * says that one is needed).
 *
 * <p><b>How.</b> A binary min-heap of the inputs that hold a row, on their head rows, each
 * comparison a {@link NormalisedKeys#compare} between two heads (keys normalised once per batch,
 * when the batch becomes its input's current one; ties go to the lower input). An output batch
 * records (slot, row) pairs, a slot being one input batch it takes rows from, and gathers the
 * columns once at the end ({@link Columns#gather}): no per-row allocation. Once a single input is
 * left it is taken a range at a time, without comparisons or keys, and an output that is one range
 * of one input batch goes out as that batch (or a selection of it), uncopied.
 *
 * <p>Not threadsafe: owned by its Gather Merge. The batches it is given are only read.
 */
public final class StreamMerger {

    /** Where one input stands. */
    private enum InputState {
        /** Holds no row; more may come (or are queued): the merge cannot emit until it holds one. */
        WAITING,
        /** Holds a current row, so it is in the heap. */
        MERGING,
        /** Sent its end of stream and every row of it was merged. */
        ENDED
    }

    private final SortSpec spec;
    private final int batchSize;
    private final List<ArrayDeque<Batch>> queues;
    private final InputState[] state;
    private final boolean[] endOfStream;
    private final Batch[] current;
    private final NormalisedKeys[] keys;
    private final int[] position;
    private final int[] size;
    /** Inputs in state MERGING, as a min-heap on their head rows. */
    private final int[] heap;
    private int heapSize;
    private int ended;
    private long skip;
    private long left;
    /** Per output batch: the slot of each input's current batch, or -1 before it gave a row. */
    private final int[] slotOfInput;
    private final Batch[] slots;
    private final int[] slotOf;
    private final int[] rowOf;

    /**
     * @param inputs    streams to merge, each sorted by {@code spec} and in its output columns
     * @param offset    merged rows to skip
     * @param count     merged rows to emit after them ({@code Long.MAX_VALUE}: all)
     * @param batchSize most rows per output batch
     */
    public StreamMerger(SortSpec spec, int inputs, long offset, long count, int batchSize) {
        if (inputs < 1 || batchSize < 1 || offset < 0 || count < 0) {
            throw new IllegalArgumentException("a merge needs inputs >= 1, batchSize >= 1, offset and count >= 0: inputs="
                    + inputs + ", batchSize=" + batchSize + ", offset=" + offset + ", count=" + count
                    + " (" + spec.label() + ")");
        }
        this.spec = spec;
        this.batchSize = batchSize;
        this.queues = new ArrayList<>(inputs);
        for (int i = 0; i < inputs; i++) {
            queues.add(new ArrayDeque<>());
        }
        this.state = new InputState[inputs];
        Arrays.fill(state, InputState.WAITING);
        this.endOfStream = new boolean[inputs];
        this.current = new Batch[inputs];
        this.keys = new NormalisedKeys[inputs];
        this.position = new int[inputs];
        this.size = new int[inputs];
        this.heap = new int[inputs];
        this.skip = offset;
        this.left = count;
        this.slotOfInput = new int[inputs];
        this.slots = new Batch[batchSize];
        this.slotOf = new int[batchSize];
        this.rowOf = new int[batchSize];
    }

    /** Inputs merged. */
    public int inputs() {
        return state.length;
    }

    /** Queues the next batch of {@code input} (in the sort's output columns; empty ones are dropped). */
    public void add(int input, Batch batch) {
        if (endOfStream[input]) {
            throw new IllegalStateException(spec.label() + ": input " + input + " sent a batch after its end of stream");
        }
        if (batch.columnCount() != spec.dataColumns()) {
            throw new IllegalArgumentException(spec.label() + ": input " + input + " sent a batch of "
                    + batch.columnCount() + " columns, the sort's output has " + spec.dataColumns());
        }
        if (batch.size() > 0) {
            queues.get(input).add(batch.compact());
        }
    }

    /** {@code input} sent everything. */
    public void end(int input) {
        endOfStream[input] = true;
        if (state[input] == InputState.WAITING && queues.get(input).isEmpty()) {
            state[input] = InputState.ENDED;
            ended++;
        }
    }

    /** Batches of {@code input} received and not yet started on. */
    public int queued(int input) {
        return queues.get(input).size();
    }

    /**
     * True when the merge waits for {@code input}'s next batch: it holds no row of it, has none queued,
     * and the input has not ended. A merge that pulls its inputs reads one batch of each such input
     * whenever {@link #next} returns null, so that it holds at most about two batches per input.
     */
    public boolean needsBatch(int input) {
        return state[input] == InputState.WAITING && queues.get(input).isEmpty();
    }

    /** True when {@code input} sent its end of stream. */
    public boolean endOfStream(int input) {
        return endOfStream[input];
    }

    /** True when the merge cannot go on until some input that has not ended sends a batch. */
    public boolean stalled() {
        if (isDone()) {
            return false;
        }
        for (int i = 0; i < state.length; i++) {
            if (state[i] == InputState.WAITING && queues.get(i).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** True once every row wanted was handed out: every input ended and was merged, or the count is reached. */
    public boolean isDone() {
        return left == 0 || ended == state.length;
    }

    /**
     * The next merged batch (at most the batch size, at least one row), or null when none can be
     * emitted now: the merge is done ({@link #isDone}) or waits for an input ({@link #stalled}).
     */
    public Batch next() {
        while (!isDone()) {
            if (!startWaitingInputs()) {
                return null;
            }
            Batch out = merge((int) Math.min(batchSize, left));
            if (out != null) {
                return out;
            }
            // Every row merged was skipped (OFFSET): go on.
        }
        return null;
    }

    /** Gives every WAITING input its next queued batch; false while one has none and may get more. */
    private boolean startWaitingInputs() {
        boolean ready = true;
        for (int i = 0; i < state.length; i++) {
            if (state[i] == InputState.WAITING) {
                if (!queues.get(i).isEmpty()) {
                    load(i);
                    heap[heapSize] = i;
                    siftUp(heapSize++);
                    state[i] = InputState.MERGING;
                } else {
                    ready = false;
                }
            }
        }
        return ready;
    }

    /**
     * Merges up to {@code limit} rows (after skipping what is left of the offset) until the limit,
     * the end of every input, or an input that runs out of rows; null when no row was kept.
     */
    private Batch merge(int limit) {
        Arrays.fill(slotOfInput, -1);
        int slotCount = 0;
        int n = 0;
        while (heapSize > 0 && n < limit) {
            int i = heap[0];
            if (heapSize == 1) {
                // The only input left (none waits, or the loop would have stopped): copy a range.
                int take = size[i] - position[i];
                if (skip > 0) {
                    int skipped = (int) Math.min(skip, take);
                    position[i] += skipped;
                    skip -= skipped;
                    take -= skipped;
                }
                take = Math.min(take, limit - n);
                if (take > 0) {
                    if (slotOfInput[i] < 0) {
                        slots[slotCount] = current[i];
                        slotOfInput[i] = slotCount++;
                    }
                    int slot = slotOfInput[i];
                    int from = position[i];
                    for (int k = 0; k < take; k++) {
                        slotOf[n + k] = slot;
                        rowOf[n + k] = from + k;
                    }
                    n += take;
                    position[i] += take;
                }
            } else {
                if (skip > 0) {
                    skip--;
                } else {
                    if (slotOfInput[i] < 0) {
                        slots[slotCount] = current[i];
                        slotOfInput[i] = slotCount++;
                    }
                    slotOf[n] = slotOfInput[i];
                    rowOf[n] = position[i];
                    n++;
                }
                position[i]++;
            }
            if (position[i] < size[i]) {
                siftDown(0);
            } else if (!queues.get(i).isEmpty()) {
                load(i);
                slotOfInput[i] = -1;
                siftDown(0);
            } else {
                heap[0] = heap[--heapSize];
                if (heapSize > 0) {
                    siftDown(0);
                }
                current[i] = null;
                keys[i] = null;
                if (endOfStream[i]) {
                    state[i] = InputState.ENDED;
                    ended++;
                } else {
                    // Its next row may sort before every head: stop here until it arrives.
                    state[i] = InputState.WAITING;
                    break;
                }
            }
        }
        left -= n;
        return n == 0 ? null : gather(slotCount, n);
    }

    /**
     * Makes the head of {@code input}'s queue its current batch, its keys normalised unless it is the
     * last input that has not ended: alone, it is copied a range at a time and never compared.
     */
    private void load(int input) {
        Batch batch = queues.get(input).poll();
        current[input] = batch;
        keys[input] = ended == state.length - 1 ? null : spec.normalise(spec.withKeys(batch));
        position[input] = 0;
        size[input] = batch.size();
    }

    /**
     * The output batch of {@code n} recorded rows. Rows that are one range of one input batch (the
     * only input left, or a run of heads from one input) go out as that batch, or a selection of it,
     * without copying a column.
     */
    private Batch gather(int slotCount, int n) {
        if (slotCount == 1 && rowOf[n - 1] - rowOf[0] == n - 1) {
            Batch batch = slots[0];
            slots[0] = null;
            int from = rowOf[0];
            if (from == 0 && n == batch.size()) {
                return batch;
            }
            int[] selection = new int[n];
            for (int i = 0; i < n; i++) {
                selection[i] = from + i;
            }
            return batch.withSelection(selection, n);
        }
        ColumnVector[] out = new ColumnVector[spec.dataColumns()];
        ColumnVector[] sources = new ColumnVector[slotCount];
        for (int c = 0; c < out.length; c++) {
            for (int s = 0; s < slotCount; s++) {
                sources[s] = slots[s].column(c);
            }
            out[c] = Columns.gather(sources, slotOf, rowOf, 0, n);
        }
        Arrays.fill(slots, 0, slotCount, null);
        return Batch.of(n, out);
    }

    private void siftUp(int at) {
        int input = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!less(input, heap[parent])) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = input;
    }

    private void siftDown(int at) {
        int input = heap[at];
        while (true) {
            int child = 2 * at + 1;
            if (child >= heapSize) {
                break;
            }
            if (child + 1 < heapSize && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!less(heap[child], input)) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = input;
    }

    /** True when input {@code a}'s head sorts before input {@code b}'s (ties: the lower input first). */
    private boolean less(int a, int b) {
        int c = keys[a].compare(position[a], keys[b], position[b]);
        return c < 0 || (c == 0 && a < b);
    }
}
