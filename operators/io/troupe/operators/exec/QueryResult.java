package io.troupe.operators.exec;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.ValueText;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * The rows a query returned, as columnar batches with their schema; or, of a statement that changes tables
 * (INSERT, CREATE TABLE, DROP TABLE, COPY), its {@link #updateCount}, which it also returns as one row of one
 * BIGINT column {@code count}, as DuckDB does. Immutable and threadsafe.
 */
public final class QueryResult {

    private static final Schema COUNT = Schema.of(new Field(null, "count", DataType.INT64, false));

    private final Schema schema;
    private final List<Batch> batches;
    private final long rowCount;
    /** Rows the statement stored, or -1 for a query's result. */
    private final long updateCount;

    public QueryResult(Schema schema, List<Batch> batches) {
        this(schema, batches, -1);
    }

    private QueryResult(Schema schema, List<Batch> batches, long updateCount) {
        this.updateCount = updateCount;
        this.schema = schema;
        this.batches = List.copyOf(batches);
        long rows = 0;
        for (Batch b : this.batches) {
            rows += b.size();
        }
        this.rowCount = rows;
    }

    /** The result of a statement that stored {@code rows} rows (0 for CREATE TABLE and DROP TABLE). */
    public static QueryResult ofUpdate(long rows) {
        if (rows < 0) {
            throw new IllegalArgumentException("a negative update count: " + rows);
        }
        return new QueryResult(COUNT, List.of(Batch.of(1, new LongVector(DataType.INT64, new long[] {rows}))), rows);
    }

    /** How many rows a statement that changes tables stored; empty for a query's rows. */
    public OptionalLong updateCount() {
        return updateCount < 0 ? OptionalLong.empty() : OptionalLong.of(updateCount);
    }

    public Schema schema() {
        return schema;
    }

    public List<Batch> batches() {
        return batches;
    }

    public long rowCount() {
        return rowCount;
    }

    /** Every row as a list of Java values (see {@code ColumnVector.getObject}). Boxes: for small results. */
    public List<List<Object>> rows() {
        List<List<Object>> rows = new ArrayList<>();
        for (Batch b : batches) {
            for (int i = 0; i < b.size(); i++) {
                rows.add(Arrays.asList(b.rowObjects(i)));
            }
        }
        return rows;
    }

    /** The result as a table named {@code name} (CREATE TABLE AS). */
    public Table toTable(String name) {
        List<Batch> dense = new ArrayList<>(batches.size());
        for (Batch b : batches) {
            dense.add(b.compact());
        }
        return new Table(name, schema.withQualifier(null), dense);
    }

    /**
     * Up to {@code maxRows} rows as an aligned text table, with the column header and a row count; values as SQL
     * prints them ({@link ValueText}), times with a zone in UTC.
     */
    public String format(int maxRows) {
        List<String[]> cells = new ArrayList<>();
        String[] header = new String[schema.size()];
        for (int c = 0; c < header.length; c++) {
            header[c] = schema.field(c).name();
        }
        cells.add(header);
        int shown = 0;
        outer:
        for (Batch b : batches) {
            for (int i = 0; i < b.size(); i++) {
                if (shown++ == maxRows) {
                    break outer;
                }
                Object[] row = b.rowObjects(i);
                String[] text = new String[row.length];
                for (int c = 0; c < row.length; c++) {
                    text[c] = row[c] == null ? "NULL" : ValueText.of(row[c], ZoneOffset.UTC);
                }
                cells.add(text);
            }
        }
        int[] width = new int[header.length];
        for (String[] row : cells) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < cells.size(); r++) {
            String[] row = cells.get(r);
            for (int c = 0; c < row.length; c++) {
                sb.append(c == 0 ? " " : " | ").append(String.format("%-" + width[c] + "s", row[c]));
            }
            sb.append('\n');
            if (r == 0) {
                for (int c = 0; c < row.length; c++) {
                    sb.append(c == 0 ? "-" : "-+-").append("-".repeat(width[c]));
                }
                sb.append('\n');
            }
        }
        sb.append('(').append(rowCount).append(rowCount == 1 ? " row)" : " rows)");
        if (rowCount > maxRows) {
            sb.append(", first ").append(maxRows).append(" shown");
        }
        return sb.append('\n').toString();
    }
}
