package io.troupe.cli.data;

import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import io.trino.tpcds.column.ColumnType;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * A TPC-DS table from the Java port of dsdgen (io.trino.tpcds). Types follow the spec (section
 * 2): identifier columns INT64 (surrogate keys outgrow 32 bits at large scale factors), integer
 * INT32, decimal(p,s) DECIMAL(p,s), date DATE, char(n) and varchar(n) VARCHAR. The primary key
 * columns are NOT NULL (the spec's DDL); every other column is nullable, and the generator
 * leaves some of them NULL (its per-table null basis points). An empty text from the generator
 * (time_dim.t_meal_time outside meal times) is NULL, as in dsdgen's files.
 *
 * <p>Parts are ranges of the generator's row numbers (for a sales table a row number is an order,
 * which makes several line items; for a returns table, an order of the parent table that may
 * make none). The generator can start at any row number (dsdgen's own parallel mode relies on
 * it), except in the tables that keep history (slowly changing dimensions, whose rows depend on
 * the previous row): those are never split. A returns table is made from its sales table's
 * orders, so generating it alone runs the sales generator again; its sales table can make both
 * in one pass ({@link #companion()}). Immutable and threadsafe.
 */
final class TpcdsBenchmarkTable implements BenchmarkTable {

    /** The spec's NOT NULL columns: the primary keys of its DDL (tpcds.sql). */
    private static final Map<String, Set<String>> PRIMARY_KEYS = Map.ofEntries(
            Map.entry("call_center", Set.of("cc_call_center_sk", "cc_call_center_id")),
            Map.entry("catalog_page", Set.of("cp_catalog_page_sk", "cp_catalog_page_id")),
            Map.entry("catalog_returns", Set.of("cr_item_sk", "cr_order_number")),
            Map.entry("catalog_sales", Set.of("cs_item_sk", "cs_order_number")),
            Map.entry("customer", Set.of("c_customer_sk", "c_customer_id")),
            Map.entry("customer_address", Set.of("ca_address_sk", "ca_address_id")),
            Map.entry("customer_demographics", Set.of("cd_demo_sk")),
            Map.entry("date_dim", Set.of("d_date_sk", "d_date_id")),
            Map.entry("household_demographics", Set.of("hd_demo_sk")),
            Map.entry("income_band", Set.of("ib_income_band_sk")),
            Map.entry("inventory", Set.of("inv_date_sk", "inv_item_sk", "inv_warehouse_sk")),
            Map.entry("item", Set.of("i_item_sk", "i_item_id")),
            Map.entry("promotion", Set.of("p_promo_sk", "p_promo_id")),
            Map.entry("reason", Set.of("r_reason_sk", "r_reason_id")),
            Map.entry("ship_mode", Set.of("sm_ship_mode_sk", "sm_ship_mode_id")),
            Map.entry("store", Set.of("s_store_sk", "s_store_id")),
            Map.entry("store_returns", Set.of("sr_item_sk", "sr_ticket_number")),
            Map.entry("store_sales", Set.of("ss_item_sk", "ss_ticket_number")),
            Map.entry("time_dim", Set.of("t_time_sk", "t_time_id")),
            Map.entry("warehouse", Set.of("w_warehouse_sk", "w_warehouse_id")),
            Map.entry("web_page", Set.of("wp_web_page_sk", "wp_web_page_id")),
            Map.entry("web_returns", Set.of("wr_item_sk", "wr_order_number")),
            Map.entry("web_sales", Set.of("ws_item_sk", "ws_order_number")),
            Map.entry("web_site", Set.of("web_site_sk", "web_site_id")));

    /**
     * Rows per generator row number where they differ from one, measured at scale factor 1 (the
     * spec's counts: catalog_sales 1,441,548 from 160,000 orders ...). Only the progress bar and
     * the planning of parts use them; the rows are what the generator makes.
     */
    private static final Map<String, Double> ROWS_PER_ROW_NUMBER = Map.of(
            "store_sales", 2_880_404 / 240_000.0,
            "catalog_sales", 1_441_548 / 160_000.0,
            "web_sales", 719_384 / 60_000.0,
            "store_returns", 287_514 / 240_000.0,
            "catalog_returns", 144_067 / 160_000.0,
            "web_returns", 71_763 / 60_000.0);

    private final Table table;
    /** Generates this table's rows only. */
    private final Session session;
    /** Generates a sales table's rows with its returns' (dsdgen's default): one pass for both. */
    private final Session pairedSession;
    /** A sales table's returns table, or null. */
    private final TpcdsBenchmarkTable returns;
    private final Schema schema;
    /** Per column: how {@link #append} parses the generator's text. */
    private final ColumnType.Base[] bases;
    private final long rowNumbers;
    private final double rowsPerRowNumber;

    private TpcdsBenchmarkTable(Table table, double scale, TpcdsBenchmarkTable returns) {
        this.table = table;
        this.returns = returns;
        this.pairedSession = Session.getDefaultSession().withScale(scale);
        // withTable: a sales table's results then hold its own rows only, not its returns' too
        this.session = Session.getDefaultSession().withScale(scale).withTable(table);
        Set<String> keys = PRIMARY_KEYS.get(table.getName());
        Column[] columns = table.getColumns();
        List<Field> fields = new ArrayList<>(columns.length);
        this.bases = new ColumnType.Base[columns.length];
        for (int c = 0; c < columns.length; c++) {
            bases[c] = columns[c].getType().getBase();
            fields.add(new Field(null, columns[c].getName(), type(table, columns[c]),
                    !keys.contains(columns[c].getName())));
        }
        this.schema = new Schema(fields);
        this.rowNumbers = session.getScaling().getRowCount(table);
        this.rowsPerRowNumber = ROWS_PER_ROW_NUMBER.getOrDefault(table.getName(), 1.0);
    }

    /** The spec's 24 tables (not dsdgen's dbgen_version) at scale factor {@code scale}. */
    static List<BenchmarkTable> all(double scale) {
        Map<Table, TpcdsBenchmarkTable> made = new HashMap<>();
        // returns tables first, so that their sales tables can point at them
        for (Table t : Table.getBaseTables()) {
            if (t.isChild() && PRIMARY_KEYS.containsKey(t.getName())) {
                made.put(t, new TpcdsBenchmarkTable(t, scale, null));
            }
        }
        List<BenchmarkTable> tables = new ArrayList<>();
        for (Table t : Table.getBaseTables()) {
            if (PRIMARY_KEYS.containsKey(t.getName())) {
                tables.add(made.computeIfAbsent(t, k -> new TpcdsBenchmarkTable(k, scale,
                        k.hasChild() ? made.get(k.getChild()) : null)));
            }
        }
        return tables;
    }

    private static DataType type(Table table, Column column) {
        ColumnType type = column.getType();
        return switch (type.getBase()) {
            case IDENTIFIER -> DataType.INT64;
            case INTEGER -> DataType.INT32;
            case DECIMAL -> DataType.decimal(type.getPrecision().orElseThrow(), type.getScale().orElseThrow());
            case DATE -> DataType.DATE;
            case CHAR, VARCHAR -> DataType.VARCHAR;
            case TIME -> throw new IllegalStateException("TPC-DS " + table.getName() + "." + column.getName()
                    + ": no Troupe type for " + type.getBase());
        };
    }

    @Override
    public String name() {
        return table.getName();
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public long estimatedRows() {
        return Math.round(rowNumbers * rowsPerRowNumber);
    }

    @Override
    public List<Part> parts(long rowsPerPart) {
        long perPart = Math.max(1, (long) (rowsPerPart / rowsPerRowNumber));
        int count = table.keepsHistory() ? 1 : (int) Math.max(1, Math.min(4096, (rowNumbers + perPart - 1) / perPart));
        List<Part> parts = new ArrayList<>(count);
        long first = 1;
        for (int i = 0; i < count; i++) {
            long last = i == count - 1 ? rowNumbers : first + rowNumbers / count - 1;
            parts.add(new Part(i, count, first, last, Math.round((last - first + 1) * rowsPerRowNumber)));
            first = last + 1;
        }
        return parts;
    }

    @Override
    public BenchmarkTable companion() {
        return returns;
    }

    @Override
    public List<List<Batch>> generate(Part part, int batchRows, LongAdder progress, boolean withCompanion) {
        if (withCompanion && returns == null) {
            throw new IllegalArgumentException("TPC-DS " + name() + " has no returns table to generate with it");
        }
        ColumnsAppender out = new ColumnsAppender(schema, batchRows, progress);
        ColumnsAppender returned = withCompanion ? new ColumnsAppender(returns.schema, batchRows, progress) : null;
        long row = 0;
        long returnedRow = 0;
        for (List<List<String>> rows : Results.constructResults(table, part.first(), part.last(),
                withCompanion ? pairedSession : session)) {
            for (int i = 0; i < rows.size(); i++) {
                // with the returns table, a result is one line item and the returns it makes
                if (i == 0 || !withCompanion) {
                    appendRow(out, rows.get(i), part, ++row);
                } else {
                    returns.appendRow(returned, rows.get(i), part, ++returnedRow);
                }
            }
        }
        return withCompanion ? List.of(out.finish(), returned.finish()) : List.of(out.finish());
    }

    private void appendRow(ColumnsAppender out, List<String> values, Part part, long row) {
        if (values.size() != bases.length) {
            throw new IllegalStateException("TPC-DS " + name() + ", part " + (part.index() + 1) + " of "
                    + part.count() + ", row " + row + ": the generator made " + values.size()
                    + " values, the table has " + bases.length + " columns");
        }
        for (int c = 0; c < bases.length; c++) {
            try {
                append(out.column(c), c, values.get(c));
            } catch (RuntimeException e) {
                throw new IllegalStateException("TPC-DS " + name() + ", part " + (part.index() + 1) + " of "
                        + part.count() + ", row " + row + ", column " + schema.field(c).name() + ": "
                        + e.getMessage(), e);
            }
        }
        out.endRow();
    }

    private void append(VectorBuilder column, int c, String v) {
        // an empty text is dsdgen's NULL: its files hold an empty field for both, which every
        // loader (and DelimitedFormat.tpc()) reads as NULL; so the tables and the files agree
        if (v == null || v.isEmpty() && (bases[c] == ColumnType.Base.CHAR || bases[c] == ColumnType.Base.VARCHAR)) {
            if (!schema.field(c).nullable()) {
                throw new IllegalStateException("NULL in a NOT NULL column");
            }
            column.appendNull();
            return;
        }
        switch (bases[c]) {
            case IDENTIFIER -> column.appendLong(Long.parseLong(v));
            case INTEGER -> column.appendInt(Integer.parseInt(v));
            case DECIMAL -> column.appendLong(parseDecimal(v, schema.type(c).scale()));
            case DATE -> column.appendInt(Dates.parse(v));
            default -> column.appendString(v);
        }
    }

    /** The unscaled value of {@code text} ([-]digits[.digits]) at {@code scale}, exactly. */
    static long parseDecimal(String text, int scale) {
        int i = 0;
        boolean negative = false;
        if (!text.isEmpty() && (text.charAt(0) == '-' || text.charAt(0) == '+')) {
            negative = text.charAt(0) == '-';
            i = 1;
        }
        long unscaled = 0;
        int fraction = -1;
        int digits = 0;
        for (; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '.' && fraction < 0) {
                fraction = 0;
            } else if (ch >= '0' && ch <= '9') {
                if (fraction >= 0 && ++fraction > scale) {
                    throw new NumberFormatException("more than " + scale + " fractional digits: '" + text + "'");
                }
                unscaled = Math.addExact(Math.multiplyExact(unscaled, 10), ch - '0');
                digits++;
            } else {
                throw new NumberFormatException("not a decimal: '" + text + "'");
            }
        }
        if (digits == 0) {
            throw new NumberFormatException("not a decimal: '" + text + "'");
        }
        for (int f = Math.max(0, fraction); f < scale; f++) {
            unscaled = Math.multiplyExact(unscaled, 10);
        }
        return negative ? -unscaled : unscaled;
    }
}
