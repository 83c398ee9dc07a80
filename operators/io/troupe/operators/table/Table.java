package io.troupe.operators.table;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.VectorHash;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
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
    /** Null for a whole table; else which part of a table partitioned across nodes this one holds. */
    private final Part part;

    /**
     * Which part of a table partitioned across the nodes of a cluster a node holds: part {@code index}
     * of {@code count}, by the hash of {@code column} ({@link VectorHash#part}) or, with no column, rows
     * dealt otherwise, each to one part: round robin by row number ({@link #part(Part)}), or the parts a
     * generator made ({@link #asPart}).
     */
    public record Part(int index, int count, String column) {
        public Part {
            if (count < 1 || index < 0 || index >= count) {
                throw new IllegalArgumentException("part " + index + " of " + count);
            }
        }

        @Override
        public String toString() {
            return "part " + (index + 1) + " of " + count + (column == null ? ", round robin" : " by hash of " + column);
        }
    }

    public Table(String name, Schema schema, List<Batch> chunks) {
        this(name, schema, chunks, null);
    }

    private Table(String name, Schema schema, List<Batch> chunks, Part part) {
        this.part = part;
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
        return new Table(newName, schema, chunks, part);
    }

    /** Which part of a partitioned table this is; null for a whole table. */
    public Part part() {
        return part;
    }

    /**
     * This table's rows as {@code part} of a table whose other parts were made elsewhere (a generator
     * that made only this node's share): nothing is cut.
     *
     * @throws IllegalArgumentException when the part has a column (only a cut can promise a hash), or this
     *         is already a part
     */
    public Table asPart(Part part) {
        if (this.part != null || part.column() != null) {
            throw new IllegalArgumentException("table " + name + " cannot be taken as " + part
                    + (this.part != null ? ": it is already " + this.part : ": only a cut partitions by hash"));
        }
        return new Table(name, schema, chunks, part);
    }

    /**
     * The rows of {@code part} of this (whole) table: by the hash of the part's column, or round robin by
     * row number; what a node of a cluster keeps of a table partitioned across the nodes.
     *
     * @throws IllegalArgumentException naming the column when the table has none such, or when this is
     *         already a part
     */
    public Table part(Part part) {
        if (this.part != null) {
            throw new IllegalArgumentException("table " + name + " is already " + this.part);
        }
        int column = -1;
        if (part.column() != null) {
            column = schema.resolve(part.column());
            if (column < 0) {
                throw new IllegalArgumentException("table " + name + " has no column " + part.column()
                        + " to partition by; its columns: " + schema.describe());
            }
        }
        List<Batch> kept = new ArrayList<>();
        long row = 0;
        long[] hashes = new long[0];
        for (Batch chunk : chunks) {
            int n = chunk.size();
            if (column >= 0) {
                hashes = hashes.length < n ? new long[n] : hashes;
                VectorHash.hash(chunk.column(column), chunk, hashes, true);
            }
            int[] selection = new int[n];
            int size = 0;
            for (int i = 0; i < n; i++) {
                int of = column >= 0 ? VectorHash.part(hashes[i], part.count()) : (int) ((row + i) % part.count());
                if (of == part.index()) {
                    selection[size++] = chunk.row(i);
                }
            }
            row += n;
            if (size > 0) {
                kept.add(chunk.withSelection(selection, size).compact());
            }
        }
        return new Table(name, schema, kept, part);
    }

    @Override
    public String toString() {
        return name + "(" + schema.describe() + ") rows=" + rowCount + (part == null ? "" : ", " + part);
    }
}
