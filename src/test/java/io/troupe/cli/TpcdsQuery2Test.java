package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.Troupe;
import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.cli.data.GenerationProgress;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.profile.NodeProfile;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.table.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * W3, TPC-DS query 2 at scale factor 1, as the bench runs it: Troupe's plan with 0, 1 and 2
 * workers returns the anchor's result (src/test/resources/tpcds/, PostgreSQL's output; ratios to
 * 0.01, since PostgreSQL divides decimals exactly and Troupe, like DuckDB, in FLOAT64), and exactly
 * what DuckDB returns for q2's SQL over the same values, loaded the way the bench loads them, and
 * computes the shared wswscs once (EXPLAIN ANALYZE), also when its joins spill. The three tables are
 * generated once for the class (about 25 s on 2 cores).
 */
class TpcdsQuery2Test {

    private static final Path EXPECTED = Path.of("src", "test", "resources", "tpcds", "q2-sf1-expected.csv");
    private static final long EXPECTED_ROWS = 2_513;
    private static final long EXPECTED_WEEK_SUM = 13_308_848;
    private static final BigDecimal EXPECTED_RATIO_SUM = new BigDecimal("18090.80");

    private static Troupe troupe;
    private static List<Table> tables;
    private static List<List<Object>> duckDbRows;

    @BeforeAll
    static void generate() throws Exception {
        tables = BenchmarkDataGenerator.generate(Benchmark.TPCDS, 1, TpcdsQuery2.TABLES, 2,
                new GenerationProgress()).tables();
        troupe = Troupe.start();
        tables.forEach(troupe::register);
        try (Connection duck = DriverManager.getConnection(DuckDbBenchEngine.URL)) {
            DuckDbBenchEngine.loadTables(duck, tables);
            duckDbRows = new ArrayList<>();
            try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(TpcdsQuery2.SQL)) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int c = 1; c <= columns; c++) {
                        row.add(rs.getObject(c));
                    }
                    duckDbRows.add(row);
                }
            }
        }
    }

    @AfterAll
    static void close() {
        if (troupe != null) {
            troupe.close();
        }
    }

    @ParameterizedTest(name = "workers = {0}")
    @ValueSource(ints = {0, 1, 2})
    void equalsTheAnchorAndDuckDb(int workers) throws Exception {
        QueryResult result = troupe.execute(TpcdsQuery2.plan(), QueryOptions.defaults().withWorkers(workers));
        List<List<Object>> rows = result.rows();
        assertEquals(8, result.schema().size(), result.schema().toString());
        for (int i = 1; i < rows.size(); i++) {
            assertTrue((Integer) rows.get(i - 1).get(0) <= (Integer) rows.get(i).get(0), "ordered by d_week_seq1 at row " + i);
        }

        // (a) the anchor, as a multiset of rows, ratios to 0.01; and its sums
        List<List<Object>> expected = anchor();
        assertEquals(EXPECTED_ROWS, rows.size());
        List<List<Object>> actual = sorted(rows);
        long weekSum = 0;
        BigDecimal ratioSum = BigDecimal.ZERO;
        for (int i = 0; i < actual.size(); i++) {
            List<Object> a = actual.get(i);
            List<Object> e = expected.get(i);
            assertEquals(e.get(0), a.get(0), "d_week_seq1 of sorted row " + i);
            weekSum += (Integer) a.get(0);
            for (int c = 1; c < 8; c++) {
                double value = (Double) a.get(c);
                assertEquals(((BigDecimal) e.get(c)).doubleValue(), value, 0.01 + 1e-9,
                        "column " + c + " of sorted row " + i + ": " + a + " against " + e);
                ratioSum = ratioSum.add(BigDecimal.valueOf(value));
            }
        }
        assertEquals(EXPECTED_WEEK_SUM, weekSum);
        assertTrue(ratioSum.subtract(EXPECTED_RATIO_SUM).abs().compareTo(new BigDecimal("0.000001")) < 0,
                "sum of the ratios " + ratioSum);

        // (b) DuckDB over the same values, row by row after sorting, exactly
        assertEquals(sorted(duckDbRows), actual);
    }

    /**
     * Under a budget of 1/4, 1/8 and 1/20 of what q2 holds in memory (its nodes' peaks together), its
     * hash joins spill (the date_dim builds; the sales rows go to the partitions' files) and q2
     * still returns exactly DuckDB's rows, with 0 and 2 workers, leaving no spill file, memory or
     * worker behind. At 1/4 and 1/8 the final sort finds room only because the small join tables
     * below it (365 rows each, whose count nobody knew before they were built) hold their rows'
     * columns while they are probed, not a whole chunk's.
     */
    @Test
    void spillsUnderAQuarterAnEighthAndATwentiethOfItsMemoryAndStillEqualsDuckDb() throws Exception {
        long need = need();
        for (int divisor : new int[] {4, 8, 20}) {
            TroupeSettings settings = TroupeSettings.load();
            TroupeSettings.Memory memory = settings.memory();
            try (Troupe small = Troupe.start(settings.withMemory(
                    new TroupeSettings.Memory(memory.chunkBytes(), 0, need / divisor)))) {
                tables.forEach(small::register);
                for (int workers : new int[] {0, 2}) {
                    String run = "q2 at 1/" + divisor + " of " + need + " bytes, " + workers + " workers";
                    long spilled = small.spillSpace().writtenBytes();
                    List<List<Object>> rows = new ArrayList<>();
                    try (QueryStream stream = small.stream(TpcdsQuery2.plan(), QueryOptions.defaults().withWorkers(workers))) {
                        for (Batch b = stream.next(); b != null; b = stream.next()) {
                            for (int i = 0; i < b.size(); i++) {
                                rows.add(Arrays.asList(b.rowObjects(i)));
                            }
                        }
                    }
                    assertEquals(sorted(duckDbRows), sorted(rows), run);
                    assertTrue(small.spillSpace().writtenBytes() > spilled, run + ": nothing spilled");
                    assertEquals(0, small.spillSpace().fileCount(), run + ": spill files left");
                    assertEquals(0, small.memoryArena().inUseBytes(), run + ": memory held");
                    assertEquals(0, small.status().liveWorkers(), run + ": workers alive");
                }
            }
        }
    }

    /** What q2 holds in memory run alone: its nodes' peaks together. */
    private static long need() {
        QueryProfile inMemory = troupe.explainAnalyze(TpcdsQuery2.plan(), QueryOptions.defaults().withWorkers(0));
        return inMemory.nodes().stream().mapToLong(n -> n.memory().peakBytes()).sum();
    }

    /** wswscs is computed once: one CTE line, one aggregate and one scan of each sales table, read by y and z. */
    @Test
    void computesTheCommonTableExpressionOnce() {
        QueryProfile profile = troupe.explainAnalyze(TpcdsQuery2.plan(), QueryOptions.defaults().withWorkers(2));
        String text = profile.render();
        NodeProfile cte = profile.find("CTE wswscs");
        assertTrue(cte.rows() > 0, text);
        assertEquals(1, profile.nodes().stream().filter(n -> n.label().startsWith("Hash Aggregate")).count(), text);
        assertEquals(1, profile.nodes().stream().filter(n -> n.label().equals("Scan web_sales")).count(), text);
        assertEquals(1, profile.nodes().stream().filter(n -> n.label().equals("Scan catalog_sales")).count(), text);
        List<NodeProfile> uses = profile.nodes().stream().filter(n -> n.label().startsWith("CTE Scan on wswscs")).toList();
        assertEquals(2, uses.size(), text);
        for (NodeProfile use : uses) {
            assertEquals(cte.rows(), use.rows(), text);
        }
        assertEquals(EXPECTED_ROWS, profile.result().rowCount(), text);
    }

    /** The anchor's rows: an Integer week and seven BigDecimal ratios, sorted. */
    private static List<List<Object>> anchor() throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        for (String line : Files.readAllLines(EXPECTED)) {
            String[] fields = line.split(",", -1);
            List<Object> row = new ArrayList<>();
            row.add(Integer.valueOf(fields[0]));
            Arrays.stream(fields, 1, fields.length).map(BigDecimal::new).forEach(row::add);
            rows.add(row);
        }
        return sorted(rows);
    }

    /** {@code rows} sorted by every column in turn, NULLs first. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<List<Object>> sorted(List<List<Object>> rows) {
        Comparator<List<Object>> byColumns = (a, b) -> {
            for (int c = 0; c < a.size(); c++) {
                Comparable x = (Comparable) a.get(c);
                Comparable y = (Comparable) b.get(c);
                int cmp = x == null ? (y == null ? 0 : -1) : y == null ? 1 : x.compareTo(y);
                if (cmp != 0) {
                    return cmp;
                }
            }
            return 0;
        };
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(byColumns);
        return copy;
    }
}
