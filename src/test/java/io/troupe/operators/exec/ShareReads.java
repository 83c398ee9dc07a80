package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.memory.MemoryArena;
import io.troupe.operators.spill.SpillSpace;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a base source as every node of a spread query reads it ({@link ScanShare}), for the tests of the
 * split scans: each node's share through two readers that take turns, as two workers of one node share
 * its claims.
 */
public final class ShareReads {

    private ShareReads() {
    }

    /**
     * The INT64 values of column 0 that {@code source} yields on node {@code index} of {@code count}, in
     * batches of {@code batchSize}, as the readers took them.
     */
    public static List<Long> read(Source source, int index, int count, int batchSize) {
        Source.SourceState state = source.open(context(source, index, count, batchSize));
        List<Source.SourceReader> readers = List.of(state.reader(), state.reader());
        List<Long> values = new ArrayList<>();
        boolean[] done = new boolean[readers.size()];
        int live = readers.size();
        for (int turn = 0; live > 0; turn = (turn + 1) % readers.size()) {
            if (done[turn]) {
                continue;
            }
            Batch batch = readers.get(turn).next();
            if (batch == null) {
                done[turn] = true;
                live--;
                continue;
            }
            LongVector column = (LongVector) batch.column(0);
            for (int i = 0; i < batch.size(); i++) {
                values.add(column.get(batch.row(i)));
            }
        }
        return values;
    }

    /** The values of column 0 in the first batch {@code source} yields on node {@code index} of {@code count}. */
    public static List<Long> first(Source source, int index, int count, int batchSize) {
        Batch batch = source.open(context(source, index, count, batchSize)).reader().next();
        List<Long> values = new ArrayList<>();
        for (int i = 0; batch != null && i < batch.size(); i++) {
            values.add(((LongVector) batch.column(0)).get(batch.row(i)));
        }
        return values;
    }

    private static ExecContext context(Source source, int index, int count, int batchSize) {
        ScanShare share = new ScanShare(index, count);
        return new ExecContext(1, batchSize, MemoryArena.onDemand(1 << 16).forQuery(1),
                SpillSpace.disabled().forQuery(1), null, s -> s == source ? share : ScanShare.WHOLE);
    }
}
