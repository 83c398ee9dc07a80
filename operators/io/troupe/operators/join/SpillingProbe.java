package io.troupe.operators.join;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.expr.Expression;
import io.troupe.operators.types.DataType;

/**
 * In front of a prober of a table that spilled: every probe row whose key has no NULL goes to its
 * partition's spill file, to be joined with that partition's build rows later; a row with a NULL in
 * its key, which matches nothing, goes on to the prober, which emits it unmatched where the join type
 * keeps such rows (LEFT, FULL, ANTI). The files are the table's, shared by its probers; their
 * buffers are reserved when the first prober is made, before any emits a row. The last prober to
 * finish finishes them (after every other prober's decrement of the join's prober count, which
 * orders their writes before it).
 *
 * <p>Not threadsafe: owned by one worker.
 */
final class SpillingProbe implements BatchConsumer {

    private final ProbeWorker prober;
    private final HashJoinTable table;
    private final Expression[] keys;
    private final PartitionWriters files;
    private long[] hashes = new long[0];
    private long[] spilledHashes = new long[0];
    private int[] spilledRows = new int[0];
    private int[] keptRows = new int[0];

    /** @throws JoinOverBudgetException when the account refuses the files' buffers */
    SpillingProbe(ProbeWorker prober, HashJoinTable table, Expression[] keys, DataType[] leftTypes) {
        this.prober = prober;
        this.table = table;
        this.keys = keys;
        this.files = table.probeFiles(leftTypes);
        files.reserveAll(table::overBudget);
    }

    @Override
    public boolean accept(Batch batch) {
        int n = batch.size();
        if (n == 0) {
            return true;
        }
        if (hashes.length < n) {
            hashes = new long[n];
            spilledHashes = new long[n];
            spilledRows = new int[n];
            keptRows = new int[n];
        }
        ColumnVector[] keyVectors = new ColumnVector[keys.length];
        for (int k = 0; k < keys.length; k++) {
            keyVectors[k] = keys[k].evaluate(batch);
        }
        hash(keyVectors, batch, n);
        int spilled = 0;
        int kept = 0;
        for (int i = 0; i < n; i++) {
            int row = batch.row(i);
            if (hasNull(keyVectors, row)) {
                keptRows[kept++] = row;
            } else {
                spilledHashes[spilled] = hashes[i];
                spilledRows[spilled++] = row;
            }
        }
        if (spilled > 0) {
            files.write(batch.withSelection(spilledRows, spilled), spilledHashes);
        }
        return kept == 0 || prober.accept(batch.withSelection(keptRows.clone(), kept));
    }

    /** Each live row's hash, as the table partitions its build rows. */
    private void hash(ColumnVector[] keyVectors, Batch batch, int n) {
        if (table.fastPath()) {
            ColumnVector key = keyVectors[0];
            for (int i = 0; i < n; i++) {
                int row = batch.row(i);
                long value = key instanceof IntVector v ? v.get(row) : ((LongVector) key).values()[row];
                hashes[i] = Radix.hashOfKey(value);
            }
            return;
        }
        for (int k = 0; k < keyVectors.length; k++) {
            VectorHash.hash(keyVectors[k], batch, hashes, k == 0);
        }
    }

    private static boolean hasNull(ColumnVector[] keyVectors, int row) {
        for (ColumnVector key : keyVectors) {
            if (key.isNull(row)) {
                return true;
            }
        }
        return false;
    }

    /** The last prober's finish ({@link HashJoinProbeOperator.ProbeState}) finishes the shared files. */
    @Override
    public void finish() {
        prober.finish();
    }
}
