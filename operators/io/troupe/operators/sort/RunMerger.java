package io.troupe.operators.sort;

import java.util.List;

/**
 * Merges sorted runs into one order: a k-way merge over a binary heap of run cursors, each
 * comparison a {@link NormalisedKeys#compare} between the heads of two runs. Rows that tie on
 * every key come from the lower-numbered run first, so the merge is deterministic.
 *
 * <p>The merge is pulled a slice at a time ({@link #next}): the sorted source's single reader
 * merges one batch per call and stops after a limit. (Streams that arrive a batch at a time, as a
 * Gather Merge sees them, merge with {@link StreamMerger}.) Not threadsafe: one merger has one
 * reader. The runs themselves are only read.
 */
public final class RunMerger {

    private final SortedRun[] runs;
    /** Per run: the position of its head in its sorted order. */
    private final int[] cursor;
    /** Runs with rows left, as a min-heap on their heads. */
    private final int[] heap;
    private int heapSize;

    public RunMerger(List<SortedRun> runs) {
        this.runs = runs.toArray(new SortedRun[0]);
        this.cursor = new int[this.runs.length];
        this.heap = new int[this.runs.length];
        for (int r = 0; r < this.runs.length; r++) {
            if (this.runs[r].size() > 0) {
                heap[heapSize++] = r;
            }
        }
        for (int i = heapSize / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    /** True when every row of every run has been handed out. */
    public boolean isDone() {
        return heapSize == 0;
    }

    /**
     * Hands out up to {@code max} next rows in merged order, writing them from position
     * {@code at}: the {@code i}-th as run {@code runOut[at + i]} (an index into the list given at
     * construction) and physical row {@code rowOut[at + i]} of that run.
     *
     * @return rows handed out; 0 only when the merge is done
     */
    public int next(int[] runOut, int[] rowOut, int at, int max) {
        int n = 0;
        if (heapSize == 1) {
            // One run left (or only ever one): copy its order, no comparisons.
            int r = heap[0];
            SortedRun run = runs[r];
            n = Math.min(max, run.size() - cursor[r]);
            for (int i = 0; i < n; i++) {
                runOut[at + i] = r;
                rowOut[at + i] = run.row(cursor[r] + i);
            }
            cursor[r] += n;
            if (cursor[r] == run.size()) {
                heapSize = 0;
            }
            return n;
        }
        while (n < max && heapSize > 0) {
            int r = heap[0];
            runOut[at + n] = r;
            rowOut[at + n] = runs[r].row(cursor[r]);
            n++;
            if (++cursor[r] == runs[r].size()) {
                heap[0] = heap[--heapSize];
            }
            if (heapSize > 0) {
                siftDown(0);
            }
        }
        return n;
    }

    private void siftDown(int i) {
        int r = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= heapSize) {
                break;
            }
            if (child + 1 < heapSize && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!less(heap[child], r)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = r;
    }

    /** True when run {@code a}'s head sorts before run {@code b}'s (ties: lower run first). */
    private boolean less(int a, int b) {
        int c = runs[a].keys().compare(runs[a].row(cursor[a]), runs[b].keys(), runs[b].row(cursor[b]));
        return c < 0 || (c == 0 && a < b);
    }
}
