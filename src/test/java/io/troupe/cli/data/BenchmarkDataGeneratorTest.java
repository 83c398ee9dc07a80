package io.troupe.cli.data;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.DelimitedFileLoader;
import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark data generator: row counts as the specs give them, the spec's types and
 * nullability, NULLs where the generator makes them, parts that concatenate to one sequential
 * run, '|' files that load back into the same rows, and that DuckDB reads the same values from
 * those files. Small: TPC-H at scale factor 0.01, TPC-DS's dimension tables at 1 (their size
 * hardly depends on it) and slices of sales tables (the full tables' counts at SF 1, which
 * match the spec's, are the command's to show: {@code bin/troupe generate --benchmark tpcds}).
 */
class BenchmarkDataGeneratorTest {

    /** TPC-DS tables whose SF 1 counts are in the spec (table 3-2) and cheap to make. */
    private static final Map<String, Long> TPCDS_SF1_ROWS = Map.ofEntries(
            Map.entry("call_center", 6L), Map.entry("date_dim", 73_049L), Map.entry("income_band", 20L),
            Map.entry("item", 18_000L), Map.entry("promotion", 300L), Map.entry("reason", 35L),
            Map.entry("ship_mode", 20L), Map.entry("store", 12L), Map.entry("warehouse", 5L),
            Map.entry("web_page", 60L), Map.entry("web_site", 30L), Map.entry("time_dim", 86_400L));

    /** TPC-H at SF 0.01: the spec's cardinalities, lineitem as dbgen makes it. */
    private static final Map<String, Long> TPCH_SF001_ROWS = Map.of(
            "region", 5L, "nation", 25L, "supplier", 100L, "customer", 1_500L, "part", 2_000L,
            "partsupp", 8_000L, "orders", 15_000L, "lineitem", 60_175L);

    private static BenchmarkDataGenerator.GeneratedData tpcds;
    private static BenchmarkDataGenerator.GeneratedData tpch;
    /** The line items of web_sales' first 5,000 orders at SF 1: a fact table, kept small. */
    private static Table webSales;

    @BeforeAll
    static void generate() {
        tpcds = BenchmarkDataGenerator.generate(Benchmark.TPCDS, 1, List.copyOf(TPCDS_SF1_ROWS.keySet()), 2,
                new GenerationProgress());
        tpch = BenchmarkDataGenerator.generate(Benchmark.TPCH, 0.01, List.of(), 2, new GenerationProgress());
        BenchmarkTable sales = tpcdsTable("web_sales");
        webSales = new Table("web_sales", sales.schema(),
                sales.generate(new BenchmarkTable.Part(0, 1, 1, 5_000, 0), 16_384, new LongAdder(), false).get(0));
    }

    private static BenchmarkTable tpcdsTable(String name) {
        return Benchmark.TPCDS.tables(1).stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void rowCountsAreTheSpecs() {
        for (Map.Entry<String, Long> e : TPCDS_SF1_ROWS.entrySet()) {
            assertEquals(e.getValue(), tpcds.table(e.getKey()).rowCount(), "TPC-DS SF 1 " + e.getKey());
        }
        assertEquals(TPCH_SF001_ROWS.keySet(), new HashSet<>(tpch.tableNames()));
        for (Map.Entry<String, Long> e : TPCH_SF001_ROWS.entrySet()) {
            assertEquals(e.getValue(), tpch.table(e.getKey()).rowCount(), "TPC-H SF 0.01 " + e.getKey());
        }
        Catalog catalog = new Catalog();
        tpch.registerInto(catalog);
        assertEquals(60_175, catalog.table("LINEITEM").rowCount());
    }

    @Test
    void typesAndNullabilityFollowTheSpecs() {
        Schema dateDim = tpcds.table("date_dim").schema();
        assertField(dateDim, "d_date_sk", DataType.INT64, false);
        assertField(dateDim, "d_date_id", DataType.VARCHAR, false);
        assertField(dateDim, "d_date", DataType.DATE, true);
        assertField(dateDim, "d_year", DataType.INT32, true);
        Schema sales = webSales.schema();
        assertField(sales, "ws_order_number", DataType.INT64, false);
        assertField(sales, "ws_sold_date_sk", DataType.INT64, true);
        assertField(sales, "ws_ext_sales_price", DataType.decimal(7, 2), true);
        assertField(tpcds.table("store").schema(), "s_gmt_offset", DataType.decimal(5, 2), true);
        Schema lineitem = tpch.table("lineitem").schema();
        assertField(lineitem, "l_orderkey", DataType.INT64, false);
        assertField(lineitem, "l_linenumber", DataType.INT32, false);
        assertField(lineitem, "l_extendedprice", DataType.decimal(15, 2), false);
        assertField(lineitem, "l_shipdate", DataType.DATE, false);
        assertField(lineitem, "l_comment", DataType.VARCHAR, false);
        for (Table t : tpch.tables()) {
            assertTrue(t.schema().fields().stream().noneMatch(Field::nullable), "TPC-H columns are NOT NULL: " + t);
        }
        // the first order of dbgen's SF 0.01 orders.tbl: 1|370|O|172799.49|1996-01-02|5-LOW|...
        Object[] order = tpch.table("orders").chunks().get(0).rowObjects(0);
        assertEquals(1L, order[0]);
        assertEquals(new BigDecimal("172799.49"), order[3]);
        assertEquals(LocalDate.of(1996, 1, 2), order[4]);
    }

    @Test
    void nullsAppearWhereTheGeneratorMakesThem() {
        for (Table t : List.of(webSales, tpcds.table("item"), tpcds.table("store"), tpcds.table("time_dim"))) {
            String name = t.name();
            long nulls = 0;
            for (Batch b : t.chunks()) {
                for (int c = 0; c < t.schema().size(); c++) {
                    for (int r = 0; r < b.size(); r++) {
                        if (b.column(c).isNull(r)) {
                            assertTrue(t.schema().field(c).nullable(), name + "." + t.schema().field(c).name());
                            nulls++;
                        }
                    }
                }
            }
            assertTrue(nulls > 0, name + " has NULLs in its nullable columns");
        }
    }

    @Test
    void partsConcatenateToOneSequentialRun() {
        BenchmarkTable sales = tpcdsTable("catalog_sales");
        BenchmarkTable.Part orders1to3000 = new BenchmarkTable.Part(0, 1, 1, 3_000, 0);
        List<Object[]> whole = rows(sales.generate(orders1to3000, 1024, new LongAdder(), false).get(0));
        List<Batch> parts = new ArrayList<>();
        List<Batch> returnParts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            List<List<Batch>> both = sales.generate(new BenchmarkTable.Part(i, 3, 1 + i * 1_000L, (i + 1) * 1_000L, 0),
                    1024, new LongAdder(), true);
            parts.addAll(both.get(0));
            returnParts.addAll(both.get(1));
        }
        assertTrue(whole.size() > 3_000, "orders make several line items: " + whole.size());
        assertRowsEqual(whole, rows(parts), "catalog_sales orders 1..3000 in one part and in three (with returns)");
        // the returns made in the sales' pass are those the returns table makes alone
        BenchmarkTable returns = tpcdsTable("catalog_returns");
        assertEquals(returns.name(), sales.companion().name());
        List<Object[]> alone = rows(returns.generate(orders1to3000, 1024, new LongAdder(), false).get(0));
        assertTrue(alone.size() > 100, "returns of 3,000 orders: " + alone.size());
        assertRowsEqual(alone, rows(returnParts), "catalog_returns of orders 1..3000, alone and with their sales");

        BenchmarkTable orders = Benchmark.TPCH.tables(0.01).stream().filter(t -> t.name().equals("orders"))
                .findFirst().orElseThrow();
        List<BenchmarkTable.Part> split = orders.parts(4_000);
        assertEquals(4, split.size());
        List<Batch> pieces = new ArrayList<>();
        for (BenchmarkTable.Part p : split) {
            pieces.addAll(orders.generate(p, 1024, new LongAdder(), false).get(0));
        }
        assertRowsEqual(rows(tpch.table("orders").chunks()), rows(pieces), "TPC-H orders in four parts");
    }

    @Test
    void delimitedFilesLoadBackIntoTheSameRowsAndDuckDbReadsThem(@TempDir Path dir) throws Exception {
        BenchmarkDataGenerator.GeneratedData some = new BenchmarkDataGenerator.GeneratedData(Benchmark.TPCDS, 1,
                List.of(tpcds.table("date_dim"), tpcds.table("item"), webSales, tpcds.table("time_dim")), 0);
        List<Path> files = new ArrayList<>(BenchmarkDataGenerator.writeDelimited(some, dir, 2));
        files.add(BenchmarkDataGenerator.writeDelimited(new BenchmarkDataGenerator.GeneratedData(Benchmark.TPCH, 0.01,
                List.of(tpch.table("lineitem")), 0), dir, 1).get(0));
        List<Table> tables = List.of(tpcds.table("date_dim"), tpcds.table("item"), webSales,
                tpcds.table("time_dim"), tpch.table("lineitem"));
        assertEquals(dir.resolve("web_sales.dat"), files.get(2));
        assertEquals(dir.resolve("lineitem.tbl"), files.get(4));
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            for (int i = 0; i < tables.size(); i++) {
                Table t = tables.get(i);
                List<Object[]> expected = rows(t.chunks());
                Table loaded = new DelimitedFileLoader(t.schema(), DelimitedFormat.tpc()).load(files.get(i), t.name());
                assertRowsEqual(expected, rows(loaded.chunks()), t.name() + " through " + files.get(i));
                assertDuckDbReads(duck, t, files.get(i), expected);
            }
        }
    }

    @Test
    void unknownTablesAndScalesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BenchmarkDataGenerator
                .generate(Benchmark.TPCH, 1, List.of("lineitems"), 1, new GenerationProgress()));
        assertTrue(e.getMessage().contains("lineitems") && e.getMessage().contains("lineitem"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BenchmarkDataGenerator
                .generate(Benchmark.TPCH, 0, List.of(), 1, new GenerationProgress()));
        assertEquals(Benchmark.TPCDS, Benchmark.parse("TPC-DS"));
        assertFalse(BenchmarkDataGenerator.tableNames(Benchmark.TPCDS).contains("dbgen_version"));
        assertEquals(24, BenchmarkDataGenerator.tableNames(Benchmark.TPCDS).size());
    }

    /** DuckDB reads every 101st row of {@code file} as Troupe holds it (compared as text). */
    private static void assertDuckDbReads(Connection duck, Table t, Path file, List<Object[]> expected) throws Exception {
        StringBuilder columns = new StringBuilder("{");
        for (Field f : t.schema().fields()) {
            columns.append('\'').append(f.name()).append("': '").append(f.type().sqlName()).append("', ");
        }
        // dsdgen and dbgen end every line with '|': one empty column more
        columns.append("'trailing_': 'VARCHAR'}");
        String sql = "SELECT * EXCLUDE (trailing_) FROM (SELECT *, row_number() OVER () - 1 AS n_ FROM read_csv('"
                + file + "', delim = '|', header = false, quote = '', escape = '', auto_detect = false, columns = "
                + columns + ")) WHERE n_ % 101 = 0 ORDER BY n_";
        int compared = 0;
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int width = t.schema().size();
            while (rs.next()) {
                int n = (int) rs.getLong(width + 1);
                Object[] row = expected.get(n);
                for (int c = 0; c < width; c++) {
                    String duckValue = rs.getString(c + 1);
                    String troupeValue = row[c] instanceof BigDecimal d ? d.toPlainString()
                            : row[c] == null ? null : row[c].toString();
                    assertEquals(troupeValue, duckValue, t.name() + " row " + (n + 1) + " column "
                            + t.schema().field(c).name());
                }
                compared++;
            }
        }
        assertEquals((expected.size() + 100) / 101, compared, t.name() + ": rows DuckDB returned");
    }

    private static void assertField(Schema schema, String name, DataType type, boolean nullable) {
        Field f = schema.field(schema.resolve(name));
        assertEquals(type, f.type(), name);
        assertEquals(nullable, f.nullable(), name + " nullable");
    }

    private static List<Object[]> rows(List<Batch> batches) {
        List<Object[]> rows = new ArrayList<>();
        for (Batch b : batches) {
            for (int r = 0; r < b.size(); r++) {
                rows.add(b.rowObjects(r));
            }
        }
        return rows;
    }

    private static void assertRowsEqual(List<Object[]> expected, List<Object[]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": rows");
        for (int i = 0; i < expected.size(); i++) {
            if (!Arrays.equals(expected.get(i), actual.get(i))) {
                throw new AssertionError(what + ", row " + (i + 1) + ": expected " + Arrays.toString(expected.get(i))
                        + " but was " + Arrays.toString(actual.get(i)));
            }
        }
    }
}
