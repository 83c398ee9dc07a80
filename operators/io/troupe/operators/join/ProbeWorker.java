package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.types.DataType;

import java.util.Arrays;

import static io.troupe.operators.join.HashJoinTable.END;

/**
 * One worker's hash join probe. Per input batch, in passes that each run a tight loop:
 * <ol>
 *   <li>evaluate the left keys and hash them ({@link VectorHash}); read every live row's bucket
 *       head (independent loads, so their cache misses overlap); a row with a NULL key gets no
 *       chain;</li>
 *   <li>walk the chains breadth-first (one step on every open chain per round), collecting
 *       (probe row, build row) pairs into a buffer of {@code batchSize} pairs: on the fast path
 *       the stored key equals the probe key, on the generic path the stored hash does and each
 *       key column is then compared over the whole buffer; SEMI and ANTI with no residual, on the
 *       fast path, close a chain at its first match;</li>
 *   <li>whenever the buffer is full, and at the end, keep the pairs that pass the residual (the join
 *       condition's conjuncts beyond the keys: evaluated over the pairs' gathered columns) and record
 *       the matches: the probe rows' own flags (LEFT, FULL, SEMI, ANTI) and the build rows' shared
 *       match flags (RIGHT, FULL, RIGHT_SEMI, RIGHT_ANTI; written only when not set yet, lesson 1);</li>
 *   <li>emit the pairs by gathering left columns from the batch and right columns from the
 *       table; then the unmatched left rows (LEFT, FULL: right columns NULL), or the matched
 *       (SEMI) or unmatched (ANTI) rows as a narrower selection of the input batch.</li>
 * </ol>
 * The last prober to finish emits the build rows by their flags: unmatched (RIGHT, FULL, RIGHT_ANTI)
 * or matched (RIGHT_SEMI).
 *
 * <p>Not threadsafe: owned by one worker. Shares only the {@link HashJoinProbeOperator.ProbeState}.
 */
final class ProbeWorker implements BatchConsumer {

    private final HashJoinProbeOperator.ProbeState state;
    private final HashJoinTable table;
    private final ExecContext ctx;
    private final BatchConsumer downstream;
    private final JoinType type;
    private final Expression[] keys;
    /** The pairs' condition beyond the keys, over the left columns then the build's; null when none. */
    private final Expression residual;
    private final DataType[] leftTypes;
    private final boolean checkBeforeWrite;

    private final boolean fastPath;
    /** Whether each probe row's "matched at least once" is needed (LEFT, FULL, SEMI, ANTI). */
    private final boolean trackProbeMatches;
    /** Whether matches become output pairs (INNER, LEFT, RIGHT, FULL). */
    private final boolean emitsPairs;
    private final byte[] matchFlags;
    private final long[][] entries;
    private final int[] heads;
    private final int mask;

    // Worker-local buffers, grown to the largest input batch and reused.
    /** Per live row: the key hash (generic path) or the key itself (fast path). */
    private long[] hashes = new long[0];
    private long[] probeKeys = new long[0];
    /** Per live row: the first row id of its chain, or END. */
    private int[] chainStart = new int[0];
    /** The chains still being walked: live row and the row id to look at next. */
    private int[] openRows = new int[0];
    private int[] openIds = new int[0];
    /** Per physical row: 1 once the probe row matched. */
    private byte[] matched = new byte[0];
    /** The output buffer: physical probe rows and build row ids (END: no build row). */
    private final int[] pairLeft;
    private final int[] pairId;


    /** Set when downstream wants no more rows: later input is refused, unmatched rows are not emitted. */
    private boolean stopped;

    ProbeWorker(HashJoinProbeOperator.ProbeState state, BatchConsumer downstream, JoinType type,
                Expression[] keys, Expression residual, DataType[] leftTypes, boolean checkBeforeWrite) {
        this.state = state;
        this.table = state.table;
        this.ctx = state.ctx;
        this.downstream = downstream;
        this.type = type;
        this.keys = keys;
        this.residual = residual;
        this.leftTypes = leftTypes;
        this.checkBeforeWrite = checkBeforeWrite;
        this.fastPath = table.fastPath();
        this.trackProbeMatches = type == JoinType.LEFT || type == JoinType.FULL
                || type == JoinType.SEMI || type == JoinType.ANTI;
        this.emitsPairs = type.emitsPairs();
        // Present for the types that need them, and for every type under the always-write baseline.
        this.matchFlags = table.matchFlags();
        if (type.needsMatchFlags() && matchFlags == null) {
            throw new IllegalStateException("hash join " + type + " probing a table built without match flags: "
                    + table.name());
        }
        this.entries = table.entries();
        this.heads = table.heads();
        this.mask = table.mask();
        this.pairLeft = new int[ctx.batchSize()];
        this.pairId = new int[ctx.batchSize()];
    }

    @Override
    public boolean accept(Batch batch) {
        if (stopped) {
            return false;
        }
        int n = batch.size();
        if (n == 0) {
            return true;
        }
        ColumnVector[] keyVectors = new ColumnVector[keys.length];
        for (int k = 0; k < keys.length; k++) {
            keyVectors[k] = keys[k].evaluate(batch);
        }
        ensureCapacity(n, batch.rowCount());
        findChains(keyVectors, batch, n);
        if (trackProbeMatches) {
            Arrays.fill(matched, 0, batch.rowCount(), (byte) 0);
        }
        if (!walkChains(batch, keyVectors, n)) {
            return false;
        }
        return emitProbeSideRows(batch, n);
    }

    private void ensureCapacity(int liveRows, int physicalRows) {
        if (hashes.length < liveRows) {
            int size = Math.max(liveRows, hashes.length * 2);
            hashes = new long[size];
            probeKeys = new long[size];
            chainStart = new int[size];
            openRows = new int[size];
            openIds = new int[size];
        }
        if (matched.length < physicalRows) {
            matched = new byte[Math.max(physicalRows, matched.length * 2)];
        }
    }

    // ------------------------------------------------------------------ pass 1: keys, hashes, bucket heads

    private void findChains(ColumnVector[] keyVectors, Batch batch, int n) {
        int[] sel = batch.selection();
        int[] h = heads;
        int m = mask;
        if (fastPath) {
            // The key itself is the entry; hashed as VectorHash hashes an int or long key, and
            // as the table hashed it when it linked the row.
            ColumnVector key = keyVectors[0];
            if (key instanceof IntVector v) {
                int[] values = v.values();
                for (int i = 0; i < n; i++) {
                    probeKeys[i] = values[sel == null ? i : sel[i]];
                }
            } else {
                long[] values = ((LongVector) key).values();
                for (int i = 0; i < n; i++) {
                    probeKeys[i] = values[sel == null ? i : sel[i]];
                }
            }
            for (int i = 0; i < n; i++) {
                chainStart[i] = h[(int) VectorHash.mix(probeKeys[i]) & m];
            }
        } else {
            for (int k = 0; k < keyVectors.length; k++) {
                VectorHash.hash(keyVectors[k], batch, hashes, k == 0);
            }
            for (int i = 0; i < n; i++) {
                chainStart[i] = h[(int) hashes[i] & m];
            }
        }
        for (ColumnVector key : keyVectors) {
            if (key.mayHaveNulls()) {
                for (int i = 0; i < n; i++) {
                    if (key.isNull(sel == null ? i : sel[i])) {
                        chainStart[i] = END;
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ pass 2: walk chains

    /**
     * Walks every chain of the batch breadth-first: each round takes one step on every chain still
     * open, so a round's loads are independent of each other and their cache misses overlap
     * (a depth-first walk would wait for each row's misses in turn). Matches go to the pair buffer,
     * which is emitted whenever it is full and once at the end. False when downstream stopped.
     */
    private boolean walkChains(Batch batch, ColumnVector[] keyVectors, int n) {
        int[] sel = batch.selection();
        int[] rows = openRows;
        int[] ids = openIds;
        int open = 0;
        for (int i = 0; i < n; i++) {
            int id = chainStart[i];
            if (id >= 0) {
                rows[open] = i;
                ids[open++] = id;
            }
        }
        long[][] e = entries;
        int shift = table.chunkShift();
        int offsetMask = table.chunkRows() - 1;
        // The fast path compares keys, the generic path hashes (then the key columns, in flush).
        long[] probe = fastPath ? probeKeys : hashes;
        boolean firstMatchOnly = trackProbeMatches && !emitsPairs && fastPath && residual == null;
        boolean packed = table.packed();
        int[] left = pairLeft;
        int[] right = pairId;
        int cap = left.length;
        int count = 0;
        while (open > 0) {
            int stillOpen = 0;
            for (int j = 0; j < open; j++) {
                int i = rows[j];
                int id = ids[j];
                long[] chunk = e[id >>> shift];
                int o = id & offsetMask;
                long stored;
                int next;
                if (packed) {
                    long entry = chunk[o];
                    stored = entry >> 32;
                    next = (int) entry;
                } else {
                    stored = chunk[o << 1];
                    next = (int) chunk[(o << 1) + 1];
                }
                if (stored == probe[i]) {
                    if (firstMatchOnly) {
                        // SEMI and ANTI need one match per row: this chain is done.
                        matched[sel == null ? i : sel[i]] = 1;
                        continue;
                    }
                    left[count] = sel == null ? i : sel[i];
                    right[count++] = id;
                    if (count == cap) {
                        if (!flush(batch, keyVectors, count)) {
                            return stop();
                        }
                        count = 0;
                    }
                }
                if (next >= 0) {
                    rows[stillOpen] = i;
                    ids[stillOpen++] = next;
                }
            }
            open = stillOpen;
        }
        return count == 0 || flush(batch, keyVectors, count) || stop();
    }

    /**
     * Checks the key columns of the buffered pairs (generic path) and the residual, records the matches,
     * emits the pairs.
     */
    private boolean flush(Batch batch, ColumnVector[] keyVectors, int candidates) {
        int count = candidates;
        if (!fastPath) {
            for (int k = 0; k < keyVectors.length && count > 0; k++) {
                count = table.key(k).retainEqual(keyVectors[k], pairLeft, pairId, count);
            }
        }
        if (count == 0) {
            return true;
        }
        Batch pairs = null;
        if (residual != null) {
            pairs = pairs(batch, count, false);
            int[] passed = new int[count];
            int kept = residual.select(pairs, passed);
            // passed is ascending, so the buffer compacts in place.
            for (int j = 0; j < kept; j++) {
                pairLeft[j] = pairLeft[passed[j]];
                pairId[j] = pairId[passed[j]];
            }
            if (kept == 0) {
                return true;
            }
            pairs = kept == count ? pairs : pairs.withSelection(passed, kept);
            count = kept;
        }
        recordMatches(count);
        if (!emitsPairs) {
            return true;
        }
        ctx.checkCancelled();
        return downstream.accept(pairs != null ? pairs : pairs(batch, count, false));
    }

    // ------------------------------------------------------------------ pass 3: record matches

    /**
     * Lesson 1: the match flags are shared by every prober, so a flag is stored only when it is
     * not set yet (after the first match the line stays clean in every core's cache), unless the
     * ALWAYS_WRITE baseline was asked for.
     */
    private void recordMatches(int count) {
        if (trackProbeMatches) {
            for (int j = 0; j < count; j++) {
                matched[pairLeft[j]] = 1;
            }
        }
        byte[] flags = matchFlags;
        if (flags == null) {
            return;
        }
        int[] ids = pairId;
        if (checkBeforeWrite) {
            for (int j = 0; j < count; j++) {
                int id = ids[j];
                if (flags[id] == 0) {
                    flags[id] = 1;
                }
            }
        } else {
            for (int j = 0; j < count; j++) {
                flags[ids[j]] = 1;
            }
        }
    }

    // ------------------------------------------------------------------ pass 4: emit

    private boolean emitPairs(Batch batch, int count, boolean withMissing) {
        ctx.checkCancelled();
        return downstream.accept(pairs(batch, count, withMissing));
    }

    /** The buffered pairs' rows: the probe rows' columns, then the build rows' (NULL for END where withMissing). */
    private Batch pairs(Batch batch, int count, boolean withMissing) {
        int leftColumns = batch.columnCount();
        ColumnVector[] out = new ColumnVector[leftColumns + table.payloadCount()];
        for (int c = 0; c < leftColumns; c++) {
            out[c] = batch.column(c).gather(pairLeft, count);
        }
        for (int c = 0; c < table.payloadCount(); c++) {
            out[leftColumns + c] = table.payload(c).gather(pairId, count, withMissing);
        }
        return Batch.of(count, out);
    }

    /** After the walk: LEFT/FULL unmatched rows with NULL right columns; SEMI matched rows; ANTI unmatched rows. */
    private boolean emitProbeSideRows(Batch batch, int n) {
        if (type == JoinType.LEFT || type == JoinType.FULL) {
            int cap = pairLeft.length;
            int count = 0;
            for (int i = 0; i < n; i++) {
                int r = batch.row(i);
                if (matched[r] == 0) {
                    pairLeft[count] = r;
                    pairId[count++] = END;
                    if (count == cap) {
                        if (!emitPairs(batch, count, true)) {
                            return stop();
                        }
                        count = 0;
                    }
                }
            }
            return count == 0 || emitPairs(batch, count, true) || stop();
        }
        if (type == JoinType.SEMI || type == JoinType.ANTI) {
            byte wanted = (byte) (type == JoinType.SEMI ? 1 : 0);
            int[] rows = new int[n];
            int kept = 0;
            for (int i = 0; i < n; i++) {
                int r = batch.row(i);
                if (matched[r] == wanted) {
                    rows[kept++] = r;
                }
            }
            if (kept == 0) {
                return true;
            }
            return downstream.accept(kept == n ? batch : batch.withSelection(rows, kept)) || stop();
        }
        return true;
    }

    private boolean stop() {
        stopped = true;
        return false;
    }

    // ------------------------------------------------------------------ finish: build rows by their flags

    @Override
    public void finish() {
        if (state.finishProbing()) {
            if (type.needsMatchFlags() && !stopped) {
                emitBuildRowsByFlag();
            }
            state.done();
        }
        downstream.finish();
    }

    /**
     * The last prober's duty: every build row whose flag is still 0 (RIGHT, FULL with the left columns NULL;
     * RIGHT_ANTI), or is 1 (RIGHT_SEMI).
     */
    private void emitBuildRowsByFlag() {
        int cap = pairId.length;
        ColumnVector[] nullLeft = new ColumnVector[type.emitsLeft() ? leftTypes.length : 0];
        for (int c = 0; c < nullLeft.length; c++) {
            nullLeft[c] = ColumnVector.allocate(leftTypes[c], cap);
            nullLeft[c].setValidity(new long[(cap + 63) >>> 6]);
        }
        byte[] flags = matchFlags;
        byte wanted = (byte) (type.emitsUnmatchedBuildRows() ? 0 : 1);
        int count = 0;
        for (int c = 0; c < table.chunkCount(); c++) {
            int base = c << table.chunkShift();
            int rows = table.chunk(c).rows;
            for (int o = 0; o < rows; o++) {
                if (flags[base | o] == wanted) {
                    pairId[count++] = base | o;
                    if (count == cap) {
                        if (!emitBuildRows(nullLeft, count)) {
                            return;
                        }
                        count = 0;
                    }
                }
            }
        }
        if (count > 0) {
            emitBuildRows(nullLeft, count);
        }
    }

    private boolean emitBuildRows(ColumnVector[] nullLeft, int count) {
        ctx.checkCancelled();
        ColumnVector[] out = new ColumnVector[nullLeft.length + table.payloadCount()];
        System.arraycopy(nullLeft, 0, out, 0, nullLeft.length);
        for (int c = 0; c < table.payloadCount(); c++) {
            out[nullLeft.length + c] = table.payload(c).gather(pairId, count, false);
        }
        return downstream.accept(Batch.of(count, out));
    }
}
