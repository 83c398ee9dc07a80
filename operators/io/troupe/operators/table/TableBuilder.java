package io.troupe.operators.table;

import io.troupe.operators.TroupeException;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds a {@link Table} row by row from Java values, cutting it into chunks of
 * {@code chunkRows} rows. A value of the wrong type, or a NULL in a NOT NULL column, is an error
 * that names the row and the column, and leaves the builder unusable: no table is ever built from
 * half a load.
 *
 * <p>Not threadsafe.
 */
public final class TableBuilder {

    /** Rows per chunk unless told otherwise: a chunk is also a scan's unit of work (morsel). */
    public static final int DEFAULT_CHUNK_ROWS = 16 * 1024;

    private final String name;
    private final Schema schema;
    private final int chunkRows;
    private final VectorBuilder[] columns;
    private final List<Batch> chunks = new ArrayList<>();
    private long rows;
    /** Set when a row was rejected halfway: the columns may be out of step, so the builder is dead. */
    private boolean failed;

    public TableBuilder(String name, Schema schema) {
        this(name, schema, DEFAULT_CHUNK_ROWS);
    }

    public TableBuilder(String name, Schema schema, int chunkRows) {
        if (chunkRows < 1) {
            throw new IllegalArgumentException("chunkRows must be positive: " + chunkRows);
        }
        this.name = name;
        this.schema = schema;
        this.chunkRows = chunkRows;
        this.columns = new VectorBuilder[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = new VectorBuilder(schema.type(c), chunkRows);
        }
    }

    public Schema schema() {
        return schema;
    }

    /** Appends one row; see {@link VectorBuilder#appendObject} for the Java types accepted. */
    public TableBuilder addRow(Object... values) {
        checkUsable();
        if (values.length != columns.length) {
            throw new TroupeException(TroupeException.Category.QUERY, "table " + name + ", row " + (rows + 1)
                    + ": expected " + columns.length + " values (" + schema.describe() + "), got " + values.length);
        }
        for (int c = 0; c < columns.length; c++) {
            Field f = schema.field(c);
            if (values[c] == null && !f.nullable()) {
                failed = true;
                throw new TroupeException(TroupeException.Category.QUERY, "table " + name + ", row " + (rows + 1)
                        + ", column " + f.name() + ": NULL in a NOT NULL column");
            }
            try {
                columns[c].appendObject(values[c]);
            } catch (IllegalArgumentException e) {
                failed = true;
                throw new TroupeException(TroupeException.Category.QUERY, "table " + name + ", row " + (rows + 1)
                        + ", column " + f.name() + ": " + e.getMessage(), e);
            }
        }
        rows++;
        if (columns[0].isFull()) {
            flush();
        }
        return this;
    }

    /** Appends an already built dense batch of this schema (it is kept, not copied). */
    public TableBuilder addBatch(Batch batch) {
        checkUsable();
        flush();
        chunks.add(batch.compact());
        rows += batch.size();
        return this;
    }

    /** The rows added so far. */
    public long rowCount() {
        return rows;
    }

    public Table build() {
        checkUsable();
        flush();
        return new Table(name, schema, chunks);
    }

    private void checkUsable() {
        if (failed) {
            throw new IllegalStateException("table " + name + ": a row was rejected; this builder cannot be used further");
        }
    }

    private void flush() {
        if (columns.length == 0 || columns[0].size() == 0) {
            return;
        }
        int n = columns[0].size();
        ColumnVector[] vectors = new ColumnVector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            vectors[c] = columns[c].build();
        }
        chunks.add(Batch.of(n, vectors));
    }
}
