package io.troupe.cli;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bench's bookkeeping on made-up runs: medians, speedups, the table and the agreement check. */
class BenchReportTest {

    private static BenchRun run(String engine, int workers, int n, double seconds) {
        return new BenchRun(BenchWorkload.W1, engine, 1, workers, n, seconds, 1, BigDecimal.TEN);
    }

    @Test
    void mediansMinMaxAndSpeedupsPerEngine() {
        BenchReport report = new BenchReport(List.of());
        for (double s : new double[] {3.0, 1.0, 2.0}) {
            report.add(run("troupe", 1, 1, s));
        }
        report.add(run("troupe", 2, 1, 0.5));
        report.add(run("troupe", 2, 2, 1.5));
        report.add(run("duckdb", 1, 1, 4.0));
        report.add(run("duckdb", 2, 1, 1.0));
        List<BenchSummary> s = report.summaries(List.of("troupe", "duckdb"));
        assertEquals(List.of("troupe/1", "troupe/2", "duckdb/1", "duckdb/2"),
                s.stream().map(x -> x.engine() + "/" + x.workers()).toList());
        assertEquals(2.0, s.get(0).median());
        assertEquals(1.0, s.get(0).min());
        assertEquals(3.0, s.get(0).max());
        assertEquals(1.0, s.get(1).median(), "median of an even count is the mean of the middle two");
        assertEquals(2.0, s.get(1).speedup());
        assertEquals(4.0, s.get(3).speedup());
        String table = report.table(List.of("troupe", "duckdb"));
        assertTrue(table.contains("troupe/duckdb"), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("w1       troupe      1       1") && l.contains("0.50x")),
                table);
    }

    /** A cluster (bench --nodes) stands beside the others at its workers in all; its speedup is over Troupe's 1. */
    @Test
    void aClusterComparesWithTheOthersAtItsWorkersInAll() {
        BenchReport report = new BenchReport(List.of("troupe 2x1"));
        report.add(run("troupe", 1, 1, 4.0));
        report.add(run("troupe", 2, 1, 2.0));
        report.add(new BenchRun(BenchWorkload.W1, "troupe 2x1", 2, 1, 1, 3.0, 1, BigDecimal.TEN));
        report.add(run("duckdb", 2, 1, 1.5));
        List<String> engines = List.of("troupe", "troupe 2x1", "duckdb");
        BenchSummary cluster = BenchReport.find(report.summaries(engines), BenchWorkload.W1, "troupe 2x1", 2);
        assertEquals(2, cluster.nodes());
        assertEquals(1, cluster.workers());
        assertEquals(4.0 / 3.0, cluster.speedup(), 1e-9, "over embedded Troupe's 1-worker median");
        String table = report.table(engines);
        assertTrue(table.lines().findFirst().orElseThrow().contains("troupe/duckdb     NxW/troupe"), table);
        // 3.0 over duckdb's 1.5 with 2 threads, and over troupe's 2.0 with 2 workers.
        assertTrue(table.lines().anyMatch(l -> l.startsWith("w1       troupe 2x1     2       1      3.000")
                && l.contains(" 2.00x          1.50x ")), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("w1       troupe         1       2      2.000")
                && l.contains(" 1.33x              - ")), table);
    }

    @Test
    void checkAcceptsEqualDecimalsAndRejectsOtherAnswers() {
        BenchReport report = new BenchReport(List.of());
        report.check(BenchWorkload.W1, "troupe", 0, new BenchOutcome(1, 1, new BigDecimal("10")));
        report.check(BenchWorkload.W1, "duckdb", 1, new BenchOutcome(1, 1, new BigDecimal("10.00")));
        report.check(BenchWorkload.W2, "duckdb", 1, new BenchOutcome(1, 0, BigDecimal.ZERO));
        BenchMismatchException e = assertThrows(BenchMismatchException.class,
                () -> report.check(BenchWorkload.W1, "duckdb", 2, new BenchOutcome(1, 1, new BigDecimal("11"))));
        assertEquals("w1: results disagree: duckdb with 2 workers returned 1 rows, checksum 11, but troupe with 0 "
                + "workers returned 1 rows, checksum 10", e.getMessage());
    }
}
