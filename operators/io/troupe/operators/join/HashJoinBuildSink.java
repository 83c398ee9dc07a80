package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.FinalizeWork;
import io.troupe.operators.exec.Sink;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.expr.ColumnExpression;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The build side of a hash join: materialises its input (the join's right input) into a
 * {@link HashJoinTable} and publishes the finished table under a {@link StateKey} for the probe
 * pipeline. Each worker copies its batches into chunks of its own (phase BUILDING); the one thread
 * that prepares the finalize sizes the bucket array (ALLOCATING), every worker then links chunks of
 * rows into it ({@link FinalizeWork}: INSERTING), and finalize publishes the table. See note on
 * parallelism in {@code package-info.java}.
 *
 * <p>Immutable and threadsafe; the state of an execution is in the {@link SinkState} it opens,
 * whose {@code local()} consumers are each owned by one worker.
 */
public final class HashJoinBuildSink implements Sink {

    private final StateKey<HashJoinTable> key;
    private final String name;
    private final Expression[] keys;
    private final DataType[] payloadTypes;
    private final boolean matchFlagsNeeded;

    /**
     * @param key              where the finished table is published
     * @param name             the join, for messages
     * @param keys             the build-side key expressions, over the build input's columns
     * @param payloadTypes     the build input's column types when the join emits them, else empty
     * @param matchFlagsNeeded whether the probe records matched rows (RIGHT and FULL, and every join
     *                         under the always-write baseline)
     */
    public HashJoinBuildSink(StateKey<HashJoinTable> key, String name, List<Expression> keys,
                             DataType[] payloadTypes, boolean matchFlagsNeeded) {
        this.key = key;
        this.name = name;
        this.keys = keys.toArray(new Expression[0]);
        this.payloadTypes = payloadTypes.clone();
        this.matchFlagsNeeded = matchFlagsNeeded;
    }

    @Override
    public String role() {
        return "hash-build";
    }

    @Override
    public SinkState open(ExecContext ctx) {
        DataType[] keyTypes = new DataType[keys.length];
        for (int k = 0; k < keys.length; k++) {
            keyTypes[k] = keys[k].type();
        }
        int keyColumn = keys.length == 1 && keys[0] instanceof ColumnExpression column ? column.index() : -1;
        return new BuildState(new HashJoinTable(name, keyTypes, payloadTypes, keyColumn, matchFlagsNeeded,
                ctx.memory().reservation(this, "hash join " + name), ctx.memory().chunkLongs()), ctx);
    }

    /** One execution: the table being built. Threadsafe as {@link Sink} describes. */
    final class BuildState implements SinkState {

        private final HashJoinTable table;
        private final ExecContext ctx;

        BuildState(HashJoinTable table, ExecContext ctx) {
            this.table = table;
            this.ctx = ctx;
        }

        @Override
        public BatchConsumer local() {
            return new BuildWorker(table);
        }

        /** ALLOCATING, on the one thread that prepares; then INSERTING, a chunk per step, by every worker. */
        @Override
        public FinalizeWork prepareFinalize() {
            table.allocate();
            return table::insertNextChunk;
        }

        /** The barrier after INSERTING is passed: the table goes to the probers. */
        @Override
        public void finalizeSink() {
            table.startProbing();
            ctx.publish(key, table);
        }

        // visible for testing: lets a test run the phases from several threads
        HashJoinTable table() {
            return table;
        }
    }

    /** One worker's build: copies batches into chunks it alone writes. Not threadsafe. */
    private final class BuildWorker implements BatchConsumer {

        private final HashJoinTable table;
        private final boolean fastPath;
        private final List<BuildChunk> mine = new ArrayList<>();
        private BuildChunk current;
        private long[] hashes = new long[0];
        private byte[] nullKey = new byte[0];

        BuildWorker(HashJoinTable table) {
            this.table = table;
            this.fastPath = table.fastPath();
        }

        @Override
        public boolean accept(Batch batch) {
            int n = batch.size();
            if (n == 0) {
                return true;
            }
            ColumnVector[] keyVectors = new ColumnVector[keys.length];
            for (int k = 0; k < keys.length; k++) {
                keyVectors[k] = keys[k].evaluate(batch);
            }
            if (!fastPath) {
                hashAndMarkNulls(keyVectors, batch, n);
            }
            int done = 0;
            while (done < n) {
                if (current == null || current.isFull()) {
                    current = table.newChunk();
                    mine.add(current);
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
                table.reserveGrowth(current);
            }
            return true;
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

        @Override
        public void finish() {
            table.addChunks(mine);
        }
    }
}
