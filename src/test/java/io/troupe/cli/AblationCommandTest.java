package io.troupe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code troupe ablation} and {@code troupe bench --ablation} run in-process at tiny sizes: every
 * lesson runs under each of its settings, ablation.csv and the table say so, a disagreement between
 * settings fails it, and bad arguments exit with 2. No timing is asserted.
 */
class AblationCommandTest {

    @Test
    void runsEveryLessonUnderEachSettingAndWorkerCount(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.of(new TroupeCli(), "bench", "--ablation", "--rows", "20000", "--scale", "0.01",
                "--workers", "1,2", "--runs", "2", "--warmups", "0", "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());

        List<String> lines = Files.readAllLines(dir.resolve("ablation.csv"));
        assertEquals("lesson,workload,setting,workers,run,seconds", lines.get(0));
        List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
        Set<String> expected = Set.of(
                "s1/w3/check-before-write", "s1/w3/always-write",
                "s1/right-join/check-before-write", "s1/right-join/always-write",
                "s2/w1/preallocate=fit", "s2/w1/preallocate=0", "s2/w1/chunk-size=128k",
                "s3/w2/aeron", "s3/w2/locked-queue", "s3/w2/per-batch",
                "s3/gather/aeron", "s3/gather/locked-queue", "s3/gather/per-batch");
        // lessons x workloads x settings, x 2 worker counts x 2 runs
        assertEquals(expected.size() * 2 * 2, rows.size());
        for (String[] row : rows) {
            assertEquals(6, row.length, String.join(",", row));
            assertTrue(Double.parseDouble(row[5]) > 0, String.join(",", row));
        }
        assertEquals(expected, rows.stream().map(row -> row[0] + "/" + row[1] + "/" + row[2])
                .collect(Collectors.toSet()));
        for (String triple : expected) {
            assertEquals(Set.of("1/1", "1/2", "2/1", "2/2"), rows.stream()
                    .filter(row -> triple.equals(row[0] + "/" + row[1] + "/" + row[2]))
                    .map(row -> row[3] + "/" + row[4]).collect(Collectors.toSet()), triple);
        }

        assertTrue(r.out().contains("20,000 rows, W3 at SF 0.01, 2 timed rounds"), r.out());
        for (String lesson : List.of("s1", "s2", "s3")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(lesson + " ")), lesson + ": " + r.out());
        }
        // The baselines, starred, compare with themselves: ratio 1 throughout.
        List<String> baselines = r.out().lines().filter(l -> l.contains(" * ")).toList();
        assertEquals(5 * 2, baselines.size(), r.out());
        for (String line : baselines) {
            assertTrue(line.endsWith("1.00     1.00-1.00"), line);
        }
        assertTrue(r.out().contains("s2 w1 preallocate=fit: 32 KiB chunks, "), r.out());
        assertFalse(r.out().contains("NOT ENOUGH"), r.out());
        assertTrue(r.err().contains("bench: s3 gather: run 2/2:"), r.err());

        BufferedImage chart = ImageIO.read(dir.resolve("ablation.png").toFile());
        assertNotNull(chart, "ablation.png decodes");
        assertEquals(5 * 420, chart.getHeight(), "one row of panels per lesson and workload");
        for (String profile : List.of("s1-w3", "s1-right-join", "s2-w1", "s3-w2", "s3-gather")) {
            String summary = Files.readString(dir.resolve("profile-" + profile + ".txt"));
            assertTrue(summary.startsWith("JFR profile profile-" + profile + ".jfr: "), summary);
            assertTrue(Files.size(dir.resolve("profile-" + profile + ".jfr")) > 0, profile);
        }
    }

    @Test
    void workersDefaultToDoublingsUpToTheProcessors(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.of(new BenchCommand(), "--ablation", "--lessons", "S2", "--rows", "3000", "--runs", "1",
                "--warmups", "0", "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = Files.readAllLines(dir.resolve("ablation.csv"));
        Set<String> expected = AblationCommand.defaultWorkers(Runtime.getRuntime().availableProcessors()).stream()
                .map(String::valueOf).collect(Collectors.toSet());
        assertEquals(expected, lines.subList(1, lines.size()).stream().map(l -> l.split(",")[3])
                .collect(Collectors.toSet()));
        assertTrue(lines.subList(1, lines.size()).stream().allMatch(l -> l.startsWith("s2,w1,")), lines.toString());
        assertEquals(List.of(1), AblationCommand.defaultWorkers(1));
        assertEquals(List.of(1, 2), AblationCommand.defaultWorkers(2));
        assertEquals(List.of(1, 2, 3), AblationCommand.defaultWorkers(3));
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 64, 72), AblationCommand.defaultWorkers(72));
    }

    @Test
    void theAblationCommandRunsWhatBenchAblationRunsWithItsOwnDefaults(@TempDir Path dir) throws IOException {
        // One lesson (runsEveryLessonUnderEachSettingAndWorkerCount runs them all): what differs here is the command.
        CliRun r = CliRun.of(new TroupeCli(), "ablation", "--lessons", "s2", "--rows", "4000", "--workers", "2,1",
                "--runs", "2", "--warmups", "1", "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = Files.readAllLines(dir.resolve("ablation.csv"));
        assertEquals("lesson,workload,setting,workers,run,seconds", lines.get(0));
        Set<String> expected = Set.of("s2/w1/preallocate=fit", "s2/w1/preallocate=0", "s2/w1/chunk-size=128k");
        assertEquals(expected.size() * 2 * 2, lines.size() - 1, "settings x 2 worker counts x 2 timed runs");
        assertEquals(expected, lines.subList(1, lines.size()).stream()
                .map(l -> String.join("/", List.of(l.split(",")).subList(0, 3))).collect(Collectors.toSet()));
        assertTrue(r.out().startsWith("troupe ablation: 4,000 rows, W3 at SF 1, 2 timed rounds after 1 warm-up(s)"),
                r.out());
        assertTrue(r.err().contains("ablation: s2 w1: warm-up 1/1:"), r.err());
        assertTrue(r.err().contains("ablation: s2 w1: run 1/2:  preallocate=fit/1 "), r.err());
        assertTrue(Files.size(dir.resolve("ablation.png")) > 0);

        RoundOptions defaults = AblationCommand.defaults();
        assertEquals(AblationCommand.DEFAULT_ROWS, defaults.rows);
        assertEquals(AblationCommand.defaultWorkers(Runtime.getRuntime().availableProcessors()), defaults.workers);
    }

    @Test
    void aChecksumDisagreementBetweenSettingsFailsNamingBothRuns(@TempDir Path dir) {
        BenchCommand command = new BenchCommand();
        command.seam = (engine, workers, outcome) -> engine.equals("s2 preallocate=0") && workers == 2
                ? outcome.withChecksum(outcome.checksum().add(BigDecimal.ONE)) : outcome;
        CliRun r = CliRun.of(command, "--ablation", "--lessons", "s2", "--rows", "5000", "--workers", "1,2",
                "--runs", "1", "--warmups", "0", "--out", dir.toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("troupe bench: FAILED: w1: results disagree: s2 preallocate=0 with 2 workers "
                + "returned 1 rows, checksum 5001, but s2 preallocate=fit with 1 worker returned 1 rows, "
                + "checksum 5000"),
                r.err());
        assertFalse(Files.exists(dir.resolve("ablation.csv")));
    }

    @Test
    void aRowCountDisagreementInAWarmUpFailsToo(@TempDir Path dir) {
        BenchCommand command = new BenchCommand();
        command.seam = (engine, workers, outcome) -> engine.equals("s3 locked-queue")
                ? new BenchOutcome(outcome.seconds(), outcome.rows() - 1, outcome.checksum()) : outcome;
        CliRun r = CliRun.of(command, "--ablation", "--lessons", "s3", "--rows", "5000", "--workers", "1",
                "--runs", "1", "--warmups", "1", "--out", dir.toString());
        assertEquals(1, r.exitCode(), r.err());
        // The warm-up round runs in reverse order: per-batch gave the first answer.
        assertTrue(r.err().contains("w2: results disagree: s3 locked-queue with 1 worker returned -1 rows, checksum 0, "
                + "but s3 per-batch with 1 worker returned 0 rows, checksum 0"), r.err());
        assertFalse(r.err().contains("run 1/1"), r.err());
    }

    @Test
    void badArgumentsExitWithTwoAndSayWhatIsWrong(@TempDir Path dir) {
        String out = dir.toString();
        assertBad("--workers must be in 1..256 in an ablation", "--ablation", "--workers", "0", "--out", out);
        assertBad("--workers must be in 1..256 in an ablation", "--ablation", "--workers", "2,0", "--out", out);
        assertBad("unknown lesson 's4' in --lessons (known: s1, s2, s3)", "--ablation", "--lessons", "s1,s4",
                "--out", out);
        assertBad("--runs must be at least 1, got 0", "--ablation", "--runs", "0", "--out", out);
        assertFalse(Files.exists(dir.resolve("ablation.csv")));
    }

    private static void assertBad(String expected, String... args) {
        CliRun r = CliRun.of(new BenchCommand(), args);
        assertEquals(2, r.exitCode(), String.join(" ", args) + ": " + r.err());
        assertTrue(r.err().contains(expected), String.join(" ", args) + ": " + r.err());
    }
}
