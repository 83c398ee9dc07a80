package io.troupe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code troupe bench} run in-process at tiny sizes: what it writes (results.csv, chart.png, the
 * table), that a disagreement between engines fails it, and that bad arguments exit with 2. No
 * timing is asserted.
 */
class BenchCommandTest {

    @Test
    void writesResultsAndChartWithEqualChecksumsAcrossEnginesAndWorkers(@TempDir Path dir) throws IOException {
        Path outDir = dir.resolve("nested/out");
        CliRun r = CliRun.of(new TroupeCli(), "bench", "--workload", "w1,w2", "--rows", "20000", "--workers", "0,1,2",
                "--runs", "2", "--peers", "duckdb", "--out", outDir.toString());
        assertEquals(0, r.exitCode(), r.err());

        List<String> lines = Files.readAllLines(outDir.resolve("results.csv"));
        assertEquals("workload,engine,workers,run,seconds,rows,checksum,nodes", lines.get(0));
        List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
        // Per workload: troupe with 0, 1, 2 workers and duckdb with 1, 2 threads, 2 runs each.
        assertEquals(2 * (3 + 2) * 2, rows.size());
        for (String[] row : rows) {
            assertEquals(8, row.length, String.join(",", row));
            assertTrue(Double.parseDouble(row[4]) > 0, String.join(",", row));
            assertEquals("1", row[7], "one node: " + String.join(",", row));
        }
        Map<String, List<String[]>> byWorkload = rows.stream().collect(Collectors.groupingBy(row -> row[0]));
        assertEquals(Set.of("w1", "w2"), byWorkload.keySet());
        for (List<String[]> group : byWorkload.values()) {
            assertEquals(Set.of("troupe/0", "troupe/1", "troupe/2", "duckdb/1", "duckdb/2"),
                    group.stream().map(row -> row[1] + "/" + row[2]).collect(Collectors.toSet()));
            assertEquals(Set.of("1", "2"), group.stream().map(row -> row[3]).collect(Collectors.toSet()));
            assertEquals(1, group.stream().map(row -> row[5] + "/" + new BigDecimal(row[6]).stripTrailingZeros())
                    .distinct().count(), "rows and checksum agree across engines and workers");
        }
        String[] w1 = byWorkload.get("w1").get(0);
        assertEquals("1", w1[5]);
        assertEquals("20000", w1[6]);
        String[] w2 = byWorkload.get("w2").get(0);
        assertEquals("0", w2[5]);
        assertEquals("0", w2[6]);

        byte[] png = Files.readAllBytes(outDir.resolve("chart.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
        BufferedImage image = ImageIO.read(outDir.resolve("chart.png").toFile());
        assertNotNull(image);
        assertTrue(image.getWidth() > 600 && image.getHeight() > 400, image.getWidth() + "x" + image.getHeight());

        assertTrue(r.out().contains("median s"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("w1       duckdb      1       2")), r.out());
        assertTrue(r.err().contains("bench: w1: run 2/2"), r.err());
    }

    /**
     * {@code --memory 4}: Troupe and DuckDB again under a quarter of what each workload needs, as
     * engines of their own, whose answers the bench checks against the others'; DuckDB may refuse
     * a limit that small (out of its memory_limit), which the bench reports and goes on.
     */
    @Test
    void underAShareOfTheMemoryBothEnginesRunAgainAndAgreeOrAreReportedRefused(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.of(new BenchCommand(), "--workload", "w1,w2", "--rows", "30000", "--workers", "1,2",
                "--runs", "1", "--warmups", "0", "--memory", "4", "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("bench: w1: needs "), r.err());
        assertTrue(r.err().contains(" bytes in memory with 2 workers"), r.err());
        List<String[]> rows = Files.readAllLines(dir.resolve("results.csv")).stream().skip(1)
                .map(l -> l.split(",", -1)).toList();
        Set<String> ran = rows.stream().map(row -> row[0] + " " + row[1] + "/" + row[2]).collect(Collectors.toSet());
        for (String workload : List.of("w1", "w2")) {
            for (String slot : List.of("troupe/1", "troupe/2", "troupe@1/4/1", "troupe@1/4/2")) {
                assertTrue(ran.contains(workload + " " + slot), workload + " " + slot + " ran: " + ran + "\n" + r.out());
            }
            for (String slot : List.of("duckdb@1/4/1", "duckdb@1/4/2")) {
                assertTrue(ran.contains(workload + " " + slot)
                        || r.out().contains("refused: " + workload + " " + slot + ": Out of Memory Error"),
                        workload + " " + slot + " ran or was refused: " + r.out());
            }
        }
        assertEquals(2, rows.stream().map(row -> row[0] + ":" + row[5] + "/" + new BigDecimal(row[6]).stripTrailingZeros())
                .distinct().count(), "one answer per workload, whatever the memory");
        assertBad("--memory takes divisors of 2 or more (1/D of the memory), got 1", "--memory", "4,1",
                "--out", dir.toString());
    }

    @Test
    void w3RunsTpcdsQuery2AtAScaleFactorAndEnginesAgree(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.of(new TroupeCli(), "bench", "--workload", "w3", "--scale", "0.01", "--rows", "7",
                "--workers", "0,1,2", "--runs", "1", "--warmups", "0", "--peers", "duckdb", "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
        assertEquals(Set.of("w3/troupe/0", "w3/troupe/1", "w3/troupe/2", "w3/duckdb/1", "w3/duckdb/2"),
                rows.stream().map(row -> row[0] + "/" + row[1] + "/" + row[2]).collect(Collectors.toSet()));
        // q2 at SF 0.01 (date_dim is as big as at SF 1): 2,513 rows; --rows does not apply
        assertEquals(Set.of("2513/13328384.51"), rows.stream()
                .map(row -> row[5] + "/" + new BigDecimal(row[6]).stripTrailingZeros().toPlainString())
                .collect(Collectors.toSet()), "rows and checksum agree across engines and workers");
        assertTrue(r.err().contains("bench: w3: table date_dim with 73,049 rows, table web_sales with "), r.err());
        assertTrue(r.out().contains("w3 SF 0.01;"), r.out());
        assertNotNull(ImageIO.read(dir.resolve("chart.png").toFile()));
    }

    /**
     * {@code --sql --optimize}: STAR's SQL through the planner and its plan written in a bad order through the
     * optimizer, beside the hand-ordered plan and DuckDB; the bench checks that every engine returns the same rows.
     */
    @Test
    void starRunsThePlannersPlansBesideTheHandOrderedOne(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.of(new TroupeCli(), "bench", "--workload", "star", "--scale", "0.01", "--sql", "--optimize",
                "--workers", "0,2", "--runs", "1", "--warmups", "0", "--peers", "duckdb", "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
        assertEquals(Set.of("troupe/0", "troupe/2", "troupe-sql/0", "troupe-sql/2", "troupe-optimized/0",
                        "troupe-optimized/2", "duckdb/2"),
                rows.stream().map(row -> row[1] + "/" + row[2]).collect(Collectors.toSet()));
        assertEquals(1, rows.stream().map(row -> row[5] + "/" + new BigDecimal(row[6]).stripTrailingZeros())
                .distinct().count(), "rows and checksum agree across engines and workers");
        assertTrue(Long.parseLong(rows.get(0)[5]) > 0, "q52 at SF 0.01 returns rows");
    }

    @Test
    void tpchRunsThe22QueriesFromSqlAgainstDuckDb(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.of(new TroupeCli(), "bench", "--workload", "tpch", "--scale", "0.01", "--workers", "2",
                "--runs", "1", "--warmups", "0", "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = Files.readAllLines(dir.resolve("tpch.csv"));
        assertEquals("query,engine,workers,run,plan_seconds,seconds,rows,checksum", lines.get(0));
        List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
        assertEquals(44, rows.size(), "22 queries on troupe and duckdb");
        for (int q = 1; q <= 22; q++) {
            String name = "q" + q;
            List<String[]> runs = rows.stream().filter(row -> row[0].equals(name)).toList();
            assertEquals(Set.of("troupe", "duckdb"), runs.stream().map(row -> row[1]).collect(Collectors.toSet()), name);
            assertEquals(1, runs.stream().map(row -> row[6]).distinct().count(), name + ": rows agree");
            assertTrue(runs.stream().filter(row -> row[1].equals("troupe")).allMatch(row -> Double.parseDouble(row[4]) > 0),
                    name + ": troupe's planning is timed apart");
        }
        assertTrue(r.out().contains("geometric mean of troupe/duckdb at 2 workers over 22 queries: "), r.out());
        assertBad("--workload tpch runs alone (its 22 queries are a bench of their own)", "--workload", "tpch,w1",
                "--out", dir.toString());
        assertBad("--workload tpch compares with DuckDB: give --peers duckdb (the default)", "--workload", "tpch",
                "--peers", "none", "--out", dir.toString());
    }

    /**
     * TPC-DS queries from SQL: q1, q5 (concat), q24a and q75 timed on both engines with the same rows; q12, whose
     * ratio divides by zero at SF 0.01 (both engines refuse it), skipped with the reason.
     */
    @Test
    void tpcdsRunsItsQueriesFromSqlAndSkipsThoseNotRun(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.of(new TroupeCli(), "bench", "--workload", "tpcds", "--queries", "q1,q5,q12,q24a,q75",
                "--scale", "0.01", "--workers", "2", "--runs", "1", "--warmups", "0", "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = Files.readAllLines(dir.resolve("tpcds.csv"));
        assertEquals(QuerySetBench.HEADER, lines.get(0));
        Map<String, List<String[]>> byQuery = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1))
                .collect(Collectors.groupingBy(row -> row[0]));
        assertEquals(Set.of("q1", "q5", "q24a", "q75"), byQuery.keySet());
        for (List<String[]> runs : byQuery.values()) {
            assertEquals(Set.of("troupe", "duckdb"), runs.stream().map(row -> row[1]).collect(Collectors.toSet()));
            assertEquals(1, runs.stream().map(row -> row[6]).distinct().count(), runs.get(0)[0] + ": rows agree");
        }
        assertTrue(r.out().contains("q12   skipped: duckdb failed: Invalid Input Error: Division by zero"), r.out());
        assertTrue(r.out().contains("geometric mean of troupe/duckdb at 2 workers over 4 queries: "), r.out());
        assertTrue(r.out().contains("1 of 5 queries skipped"), r.out());
        assertBad("--workload tpcds runs alone (its 96 queries are a bench of their own)", "--workload",
                "w1,tpcds", "--out", dir.toString());
        assertBad("unknown query 'q3' in --queries (tpcds has q1, q2, q4, ", "--workload", "tpcds", "--queries",
                "q3", "--out", dir.toString());
        assertBad("--queries goes with --workload tpch or tpcds", "--workload", "w1", "--queries", "q1",
                "--out", dir.toString());
    }

    @Test
    void troupeAloneWithoutAOneWorkerRunDrawsTimesOnly(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.of(new BenchCommand(), "--workload", "W2", "--rows", "1000", "--workers", "0", "--runs", "1",
                "--warmups", "0", "--peers", "none", "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(List.of("w2,troupe,0,1"), lines.subList(1, lines.size()).stream()
                .map(l -> String.join(",", Arrays.copyOf(l.split(","), 4))).toList());
        assertNotNull(ImageIO.read(dir.resolve("chart.png").toFile()));
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("w2       troupe      1       0") && l.contains(" - ")),
                r.out());
    }

    @Test
    void aChecksumDisagreementFailsLoudlyNamingBothRuns(@TempDir Path dir) {
        BenchCommand command = new BenchCommand();
        command.seam = (engine, workers, outcome) -> engine.equals("duckdb") && workers == 2
                ? outcome.withChecksum(outcome.checksum().add(BigDecimal.ONE)) : outcome;
        CliRun r = CliRun.of(command, "--workload", "w1", "--rows", "5000", "--workers", "0,1,2", "--runs", "1",
                "--peers", "duckdb", "--out", dir.toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("FAILED"), r.err());
        assertTrue(r.err().contains("duckdb with 2 workers returned 1 rows, checksum 5001"), r.err());
        assertTrue(r.err().contains("troupe with 0 workers returned 1 rows, checksum 5000")
                || r.err().contains("troupe with 2 workers returned 1 rows, checksum 5000"), r.err());
        assertFalse(Files.exists(dir.resolve("results.csv")));
    }

    @Test
    void aRowCountDisagreementFailsToo(@TempDir Path dir) {
        BenchCommand command = new BenchCommand();
        command.seam = (engine, workers, outcome) -> engine.equals("troupe") && workers == 1
                ? new BenchOutcome(outcome.seconds(), outcome.rows() + 1, outcome.checksum()) : outcome;
        CliRun r = CliRun.of(command, "--workload", "w2", "--rows", "5000", "--workers", "0,1", "--runs", "1",
                "--peers", "none", "--out", dir.toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("w2: results disagree: troupe with "), r.err());
        assertTrue(r.err().contains("troupe with 1 worker returned 1 rows, checksum 0"), r.err());
        assertTrue(r.err().contains("troupe with 0 workers returned 0 rows, checksum 0"), r.err());
    }

    @Test
    void badArgumentsExitWithTwoAndSayWhatIsWrong(@TempDir Path dir) throws IOException {
        String out = dir.toString();
        assertBad("unknown workload 'w9' in --workload (known: w1, w2, w3, star, tpch, tpcds)", "--workload", "w1,w9", "--out", out);
        assertBad("unknown peer 'postgres' in --peers (known: duckdb, none)", "--peers", "postgres", "--out", out);
        assertBad("--rows", "--rows", "many", "--out", out);
        assertBad("--rows must be in 1..2147483647", "--rows", "0", "--out", out);
        assertBad("--workers", "--workers", "1,two", "--out", out);
        assertBad("--workers must be in 0..256, got -1", "--workers", "0,-1", "--out", out);
        assertBad("--runs must be at least 1, got 0", "--runs", "0", "--out", out);
        assertBad("--scale must be a positive scale factor, got 0.0", "--workload", "w3", "--scale", "0", "--out", out);
        assertBad("--scale must be a positive scale factor, got -1.0", "--scale", "-1", "--out", out);
        assertBad("--scale", "--scale", "one", "--out", out);
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Path below = file.resolve("sub");
        assertBad("--out " + below + " is not a writable directory", "--out", below.toString());
        assertBad("--out " + file + " is not a writable directory", "--out", file.toString());
    }

    @Test
    void aMissingDuckDbDriverIsAClearError(@TempDir Path dir) {
        BenchCommand command = new BenchCommand();
        command.duckDbUrl = "jdbc:troupe-no-such-driver:";
        CliRun r = CliRun.of(command, "--rows", "100", "--peers", "duckdb", "--out", dir.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("peer duckdb needs the DuckDB JDBC driver"), r.err());
        assertTrue(r.err().contains("target/bench-lib"), r.err());
    }

    private static void assertBad(String expected, String... args) {
        CliRun r = CliRun.of(new BenchCommand(), args);
        assertEquals(2, r.exitCode(), String.join(" ", args) + ": " + r.err());
        assertTrue(r.err().contains(expected), String.join(" ", args) + ": " + r.err());
    }
}
