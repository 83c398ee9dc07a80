package io.troupe.operators.table;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.ScanShare;
import io.troupe.operators.exec.Source;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scans a {@link Table}, keeping only the columns asked for. The table's chunks are the morsels:
 * readers take the next chunk index from one shared atomic counter (PostgreSQL's parallel block
 * table scan), so a slow worker never holds the others up and each chunk is read once. A query
 * spread over nodes reads here only the chunks of this node's {@link ScanShare}.
 */
public final class TableScanSource implements Source {

    private final Table table;
    private final int[] columns;

    /** @param columns indexes of the table columns to emit, in output order */
    public TableScanSource(Table table, int[] columns) {
        this.table = table;
        this.columns = columns.clone();
    }

    /** Scans every column of {@code table}, in order. */
    public static TableScanSource ofAllColumns(Table table) {
        int[] columns = new int[table.schema().size()];
        Arrays.setAll(columns, c -> c);
        return new TableScanSource(table, columns);
    }

    public Table table() {
        return table;
    }

    /** A part of a table partitioned across nodes: the node holds just its rows. */
    @Override
    public boolean partitioned() {
        return table.part() != null;
    }

    @Override
    public SourceState open(ExecContext ctx) {
        List<Batch> chunks = table.chunks();
        ScanShare share = ctx.share(this);
        AtomicInteger claims = new AtomicInteger();
        return () -> () -> {
            long i = share.morsel(claims.getAndIncrement());
            if (i >= chunks.size()) {
                return null;
            }
            Batch chunk = chunks.get((int) i);
            ColumnVector[] out = new ColumnVector[columns.length];
            for (int c = 0; c < columns.length; c++) {
                out[c] = chunk.column(columns[c]);
            }
            return chunk.withColumns(out);
        };
    }
}
