package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.expr.Expression;

import java.util.Arrays;

/**
 * One worker's build of a {@link HashJoinTable}: copies batches into chunks it alone writes, sealing
 * each when full and the last when its input ends. Once the table spilled (this worker's reservation
 * was refused, or another's), it writes its chunk and any sealed chunk it can take out to the
 * table's spill files, one per partition, gives their memory back, and from then on writes every row
 * straight to those files ({@code package-info.java}: spilling the build).
 *
 * <p>Serves a join's own build (one per worker, under {@link HashJoinBuildSink}) and the load of a
 * spilled partition (one, under {@link PartitionJoiner}). Not threadsafe: owned by one worker.
 */
final class BuildWorker implements BatchConsumer {

    private final HashJoinTable table;
    private final Expression[] keys;
    private final boolean fastPath;
    private BuildChunk current;
    /** This worker's spill files, once the table spilled; null before. */
    private PartitionWriters files;
    private long[] hashes = new long[0];
    private byte[] nullKey = new byte[0];

    BuildWorker(HashJoinTable table, Expression[] keys) {
        this.table = table;
        this.keys = keys;
        this.fastPath = table.fastPath();
    }

    @Override
    public boolean accept(Batch batch) {
        int n = batch.size();
        if (n == 0) {
            return true;
        }
        if (files == null && table.spilled()) {
            spill();
        }
        ColumnVector[] keyVectors = new ColumnVector[keys.length];
        for (int k = 0; k < keys.length; k++) {
            keyVectors[k] = keys[k].evaluate(batch);
        }
        if (!fastPath) {
            hashAndMarkNulls(keyVectors, batch, n);
        }
        if (files != null) {
            writeRows(batch, keyVectors, 0);
            return true;
        }
        int done = 0;
        while (done < n) {
            if (current == null || current.isFull()) {
                if (current != null && !sealCurrent()) {
                    writeRows(batch, keyVectors, done);
                    return true;
                }
                current = table.newChunk();
                if (current == null) {
                    spill();
                    writeRows(batch, keyVectors, done);
                    return true;
                }
            }
            int take = Math.min(n - done, current.capacity - current.rows);
            if (fastPath) {
                writeKeys(keyVectors[0], batch, done, take, current);
            } else {
                writeHashes(done, take, current);
                for (int k = 0; k < keyVectors.length; k++) {
                    ColumnChunks.append(keyVectors[k], batch, done, take, current.keys[k], current.rows);
                }
            }
            for (int c = 0; c < current.payload.length; c++) {
                if (current.payload[c] != null) {
                    ColumnChunks.append(batch.column(c), batch, done, take, current.payload[c], current.rows);
                }
            }
            current.rows += take;
            done += take;
            if (!table.reserveGrowth(current)) {
                spill();
                writeRows(batch, keyVectors, done);
                return true;
            }
        }
        return true;
    }

    /** Seals the full current chunk: false when the table spilled meanwhile (the chunk went to files). */
    private boolean sealCurrent() {
        BuildChunk full = current;
        current = null;
        if (table.seal(full)) {
            return true;
        }
        spill();
        table.dump(full, files);
        reserveBuffers();
        return false;
    }

    /**
     * The table spilled: writes this worker's chunk out, and every sealed chunk it can take, and
     * reserves the buffers of the files that opened, each after the chunk it wrote was given back.
     */
    private void spill() {
        if (files == null) {
            files = table.buildFiles();
        }
        if (current != null) {
            BuildChunk mine = current;
            current = null;
            table.seal(mine);
            table.dump(mine, files);
        }
        while (table.dumpNextSealed(files)) {
            reserveBuffers();
        }
        reserveBuffers();
    }

    /**
     * Reserves the buffers of the files opened so far, writing out sealed chunks while the account
     * refuses. A join's own table (level 0, built by several workers) lets them trail the account
     * when nothing is left to write out: the memory is then in the other workers' current chunks,
     * which they give back as soon as they see the table spilled, and the next call reserves them
     * (the build's files are finished, and their buffers given back, at its end). A partition's
     * table has one builder: what the account refuses then may be another partition's, and the
     * partition is tried again later, alone ({@link PartitionJoiner}); alone, what is refused is
     * other operators' (an aggregate above the join holding its groups), which no wait gives back,
     * so its buffers trail too: at most one per partition, until its build's files are finished.
     */
    private void reserveBuffers() {
        long refused = files.reserveOpened(() -> table.dumpNextSealed(files));
        if (refused > 0 && !table.buffersMayTrail()) {
            throw table.overBudget(refused);
        }
    }

    /** Writes live rows {@code from..} of {@code batch} to the files, as the table's file columns. */
    private void writeRows(Batch batch, ColumnVector[] keyVectors, int from) {
        int n = batch.size();
        if (from == n) {
            return;
        }
        int payload = table.payloadTypeCount();
        ColumnVector[] columns = new ColumnVector[table.fileColumnCount()];
        for (int c = 0; c < payload; c++) {
            columns[c] = batch.column(c);
        }
        System.arraycopy(keyVectors, 0, columns, payload, columns.length - payload);
        int[] rows = new int[n - from];
        long[] rowHashes = new long[n - from];
        for (int i = from; i < n; i++) {
            rows[i - from] = batch.row(i);
            rowHashes[i - from] = fastPath ? Radix.hashOfKey(keyAt(keyVectors[0], batch.row(i))) : hashes[i];
        }
        files.write(Batch.of(batch.rowCount(), columns).withSelection(rows, rows.length), rowHashes);
        reserveBuffers();
    }

    private static long keyAt(ColumnVector key, int row) {
        return key instanceof IntVector v ? v.get(row) : ((LongVector) key).values()[row];
    }

    /** Fast path: the key, and an unlinked (or never-linked, if NULL) next part. */
    private void writeKeys(ColumnVector key, Batch batch, int from, int count, BuildChunk chunk) {
        long[] e = chunk.entries;
        int[] sel = batch.selection();
        int o = chunk.rows;
        boolean packed = table.packed();
        if (key instanceof IntVector v) {
            int[] values = v.values();
            for (int j = 0; j < count; j++) {
                HashJoinTable.setEntry(e, o + j, values[sel == null ? from + j : sel[from + j]],
                        HashJoinTable.END, packed);
            }
        } else {
            long[] values = ((LongVector) key).values();
            for (int j = 0; j < count; j++) {
                HashJoinTable.setEntry(e, o + j, values[sel == null ? from + j : sel[from + j]],
                        HashJoinTable.END, packed);
            }
        }
        if (key.mayHaveNulls()) {
            for (int j = 0; j < count; j++) {
                if (key.isNull(sel == null ? from + j : sel[from + j])) {
                    HashJoinTable.setNext(e, o + j, HashJoinTable.NOT_LINKED, packed);
                }
            }
        }
    }

    /** Generic path: the hash of every live row, and which live rows have a NULL in some key. */
    private void hashAndMarkNulls(ColumnVector[] keyVectors, Batch batch, int n) {
        if (hashes.length < n) {
            hashes = new long[n];
            nullKey = new byte[n];
        }
        Arrays.fill(nullKey, 0, n, (byte) 0);
        for (int k = 0; k < keyVectors.length; k++) {
            ColumnVector v = keyVectors[k];
            VectorHash.hash(v, batch, hashes, k == 0);
            if (v.mayHaveNulls()) {
                for (int i = 0; i < n; i++) {
                    if (v.isNull(batch.row(i))) {
                        nullKey[i] = 1;
                    }
                }
            }
        }
    }

    private void writeHashes(int from, int count, BuildChunk chunk) {
        long[] e = chunk.entries;
        int o = chunk.rows;
        for (int j = 0; j < count; j++) {
            int next = nullKey[from + j] != 0 ? HashJoinTable.NOT_LINKED : HashJoinTable.END;
            HashJoinTable.setEntry(e, o + j, hashes[from + j], next, false);
        }
    }

    /** Drops this worker's chunk (a partition that did not fit; the table drops the rest). */
    void abandon() {
        if (current != null) {
            table.giveBack(current);
            current = null;
        }
    }

    /** Seals the last chunk, or writes it out if the table spilled (the table finishes the files). */
    @Override
    public void finish() {
        if (current != null) {
            BuildChunk last = current;
            current = null;
            table.trim(last);
            if (!table.seal(last)) {
                files = table.buildFiles();
                table.dump(last, files);
                reserveBuffers();
            }
        }
    }
}
