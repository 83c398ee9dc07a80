package io.troupe.cli.data;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A TPC-H table from the Java port of dbgen (io.trino.tpch). Types follow the spec (section
 * 1.3): identifiers INT64 (keys outgrow 32 bits at large scale factors), integers INT32, dates
 * DATE, text VARCHAR, and the decimal columns (prices, quantities, discounts, taxes, balances,
 * costs) DECIMAL(15,2): the generator holds them as cents and hands them out as doubles, which
 * are exact to the cent, so rounding them back to cents loses nothing. Every TPC-H column is NOT
 * NULL. Parts are the generator's own parts ({@code createGenerator(scale, part, partCount)}),
 * which concatenate to one sequential run. Immutable and threadsafe.
 *
 * @param <E> the generator's row type
 */
final class TpchBenchmarkTable<E extends TpchEntity> implements BenchmarkTable {

    /** The spec's DECIMAL columns: the generator's DOUBLE columns, all with two decimals. */
    private static final DataType MONEY = DataType.decimal(15, 2);

    /**
     * The spec's cardinalities at scale factor 1 (section 4.2.5); lineitem's is the count dbgen
     * makes at SF 1, as it varies with the orders. Only the progress bar and the planning of
     * parts use them.
     */
    private static final Map<String, Long> ROWS_AT_SF1 = Map.of(
            "region", 5L, "nation", 25L, "supplier", 10_000L, "customer", 150_000L, "part", 200_000L,
            "partsupp", 800_000L, "orders", 1_500_000L, "lineitem", 6_001_215L);

    private final TpchTable<E> table;
    private final double scale;
    private final Schema schema;
    private final List<TpchColumn<E>> columns;
    private final TpchColumnType.Base[] bases;

    private TpchBenchmarkTable(TpchTable<E> table, double scale) {
        this.table = table;
        this.scale = scale;
        this.columns = table.getColumns();
        this.bases = new TpchColumnType.Base[columns.size()];
        List<Field> fields = new ArrayList<>(columns.size());
        for (int c = 0; c < bases.length; c++) {
            bases[c] = columns.get(c).getType().getBase();
            DataType type = switch (bases[c]) {
                case IDENTIFIER -> DataType.INT64;
                case INTEGER -> DataType.INT32;
                case DATE -> DataType.DATE;
                case DOUBLE -> MONEY;
                case VARCHAR -> DataType.VARCHAR;
            };
            fields.add(new Field(null, columns.get(c).getColumnName(), type, false));
        }
        this.schema = new Schema(fields);
    }

    /** The spec's 8 tables at scale factor {@code scale}. */
    static List<BenchmarkTable> all(double scale) {
        List<BenchmarkTable> tables = new ArrayList<>();
        for (TpchTable<?> t : TpchTable.getTables()) {
            tables.add(of(t, scale));
        }
        return tables;
    }

    private static <T extends TpchEntity> TpchBenchmarkTable<T> of(TpchTable<T> table, double scale) {
        return new TpchBenchmarkTable<>(table, scale);
    }

    @Override
    public String name() {
        return table.getTableName();
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public long estimatedRows() {
        long base = ROWS_AT_SF1.getOrDefault(name(), 1L);
        // region and nation do not scale
        return base <= 25 ? base : Math.max(1, Math.round(base * scale));
    }

    @Override
    public List<Part> parts(long rowsPerPart) {
        long rows = estimatedRows();
        int count = rows <= 25 ? 1 : (int) Math.max(1, Math.min(4096, (rows + rowsPerPart - 1) / rowsPerPart));
        List<Part> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            parts.add(new Part(i, count, i + 1, i + 1, rows / count + (i < rows % count ? 1 : 0)));
        }
        return parts;
    }

    @Override
    public BenchmarkTable companion() {
        return null;
    }

    @Override
    public List<List<Batch>> generate(Part part, int batchRows, LongAdder progress, boolean withCompanion) {
        if (withCompanion) {
            throw new IllegalArgumentException("TPC-H " + name() + " has no companion table");
        }
        ColumnsAppender out = new ColumnsAppender(schema, batchRows, progress);
        long row = 0;
        for (E entity : table.createGenerator(scale, part.index() + 1, part.count())) {
            row++;
            for (int c = 0; c < bases.length; c++) {
                try {
                    append(out.column(c), c, entity);
                } catch (RuntimeException e) {
                    throw new IllegalStateException("TPC-H " + name() + ", part " + (part.index() + 1) + " of "
                            + part.count() + ", row " + row + ", column " + schema.field(c).name() + ": "
                            + e.getMessage(), e);
                }
            }
            out.endRow();
        }
        return List.of(out.finish());
    }

    private void append(VectorBuilder column, int c, E entity) {
        TpchColumn<E> source = columns.get(c);
        switch (bases[c]) {
            case IDENTIFIER -> column.appendLong(source.getIdentifier(entity));
            case INTEGER -> column.appendInt(source.getInteger(entity));
            // days since 1970-01-01, as Troupe's DATE
            case DATE -> column.appendInt(source.getDate(entity));
            case DOUBLE -> column.appendLong(Math.round(source.getDouble(entity) * 100));
            case VARCHAR -> column.appendString(source.getString(entity));
        }
    }
}
