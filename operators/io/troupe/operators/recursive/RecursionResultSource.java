package io.troupe.operators.recursive;

import io.troupe.operators.agg.DistinctRows;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Source;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.scan.CollectedScanSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every row a recursive union produced, read once its loop ended: UNION ALL's kept batches, or UNION's rows out of its
 * set in batches of the query's size; each batch a morsel claimed from one shared counter, so that the readers run in
 * parallel. See the package's note.
 *
 * <p>Immutable and threadsafe.
 */
public final class RecursionResultSource implements Source {

    private final StateKey<Recursion> key;

    public RecursionResultSource(StateKey<Recursion> key) {
        this.key = key;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        Recursion recursion = ctx.lookup(key);
        if (recursion.resultBatches() != null) {
            return CollectedScanSource.morsels(recursion.resultBatches());
        }
        DistinctRows rows = recursion.distinctRows();
        int batchSize = ctx.batchSize();
        // Each morsel: a partition and the first of its rows.
        List<int[]> morsels = new ArrayList<>();
        for (int p = 0; p < rows.partitions(); p++) {
            for (int from = 0; from < rows.rows(p); from += batchSize) {
                morsels.add(new int[] {p, from});
            }
        }
        AtomicInteger next = new AtomicInteger();
        return () -> () -> {
            int i = next.getAndIncrement();
            if (i >= morsels.size()) {
                return null;
            }
            int[] m = morsels.get(i);
            return rows.rows(m[0], m[1], Math.min(batchSize, rows.rows(m[0]) - m[1]));
        };
    }
}
