package io.troupe.operators.table;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.types.Schema;

import java.util.List;

import static io.troupe.operators.Arguments.noNulls;
import static io.troupe.operators.Arguments.notNull;

/**
 * An in-memory columnar table: a schema and a list of dense batches (chunks). Scans hand the
 * chunks out as morsels. Immutable and threadsafe once built; build one with
 * {@link TableBuilder} or {@link Tables}.
 */
public final class Table {

    private final String name;
    private final Schema schema;
    private final List<Batch> chunks;
    private final long rowCount;
    private final long sizeInBytes;

    public Table(String name, Schema schema, List<Batch> chunks) {
        this.name = notNull(name, "Table", "name");
        this.schema = notNull(schema, "Table", "schema");
        this.chunks = List.copyOf(noNulls(chunks, "Table", "chunks"));
        long rows = 0;
        long bytes = 0;
        for (Batch b : this.chunks) {
            if (b.selection() != null || b.columnCount() != schema.size()) {
                throw new IllegalArgumentException("table chunks must be dense batches of "
                        + schema.size() + " columns");
            }
            rows += b.size();
            bytes += b.sizeInBytes();
        }
        this.rowCount = rows;
        this.sizeInBytes = bytes;
    }

    public String name() {
        return name;
    }

    public Schema schema() {
        return schema;
    }

    public List<Batch> chunks() {
        return chunks;
    }

    public long rowCount() {
        return rowCount;
    }

    /** Bytes of heap its columns hold (see {@link Batch#sizeInBytes()}). */
    public long sizeInBytes() {
        return sizeInBytes;
    }

    /** The same data under another name. */
    public Table renamed(String newName) {
        return new Table(newName, schema, chunks);
    }

    @Override
    public String toString() {
        return name + "(" + schema.describe() + ") rows=" + rowCount;
    }
}
