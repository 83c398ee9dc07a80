package io.troupe.cli;

import io.troupe.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code troupe bench --nodes 2x1} end to end, in-process at a tiny size: the workload's tables written as
 * CSV, a real 2-node local cluster (a media driver and two node JVMs with small heaps) started on them, the
 * query run through a cluster client beside the embedded engine, and the cluster stopped. W1 (a self join
 * whose answer is its row count) is the workload: a node that read more or less than its share would change
 * it. No timing is asserted. Every JVM it starts is stopped by its pid, by the bench and again in the finally.
 */
class BenchCommandClusterTest {

    private static final Pattern STOPPED = Pattern.compile("\\(pid ([0-9]+)\\): stopped");

    @Test
    @Timeout(300)
    void aTwoNodeClusterRunsTheWorkloadAndAgreesWithTheEmbeddedEngine(@TempDir Path dir) throws Exception {
        BenchCommand command = new BenchCommand();
        command.classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        command.nodeJvmFlags = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
        Path runDir = dir.resolve("clusters/2x1-w1");
        try {
            CliRun r = CliRun.of(command, "--workload", "w1", "--rows", "30000", "--workers", "1", "--nodes", "2x1",
                    "--node-heap", "256m", "--runs", "1", "--warmups", "0", "--peers", "none", "--out", dir.toString());
            assertEquals(0, r.exitCode(), r.err());

            List<String[]> rows = Files.readAllLines(dir.resolve("results.csv")).stream().skip(1)
                    .map(l -> l.split(",", -1)).toList();
            assertEquals(Set.of("troupe/1/1", "troupe 2x1/1/2"),
                    rows.stream().map(row -> row[1] + "/" + row[2] + "/" + row[7]).collect(Collectors.toSet()));
            assertEquals(Set.of("1/30000"), rows.stream()
                    .map(row -> row[5] + "/" + new BigDecimal(row[6]).stripTrailingZeros().toPlainString())
                    .collect(Collectors.toSet()), "the cluster's rows and checksum are the embedded engine's");
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith("w1       troupe 2x1     2       1")), r.out());
            assertNotNull(ImageIO.read(dir.resolve("chart.png").toFile()));

            assertTrue(r.err().contains("bench: w1: tables written as CSV for the clusters in "), r.err());
            assertTrue(r.err().contains("bench: w1: troupe 2x1: cluster of 2 node JVMs up in "), r.err());
            String stop = r.err().lines().filter(l -> l.startsWith("bench: w1: troupe 2x1: cluster stopped in "))
                    .findFirst().orElseThrow(() -> new AssertionError("no stop line: " + r.err()));
            Matcher pids = STOPPED.matcher(stop);
            int stopped = 0;
            while (pids.find()) {
                long pid = Long.parseLong(pids.group(1));
                assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                        "pid " + pid + ": " + stop);
                stopped++;
            }
            assertEquals(3, stopped, "two nodes and the driver: " + stop);
            assertFalse(Files.exists(runDir.resolve(ClusterManifest.FILE)), "the manifest is gone with the cluster");
            assertFalse(Files.exists(dir.resolve("tables/w1")), "the tables' files are deleted after the workload");
        } finally {
            Optional<ClusterManifest> left = Files.isDirectory(runDir) ? ClusterManifest.read(runDir)
                    : Optional.empty();
            if (left.isPresent()) {
                LocalCluster.stop(left.get(), new PrintWriter(new StringWriter()));
            }
        }
    }

    /**
     * A bench ended from outside (SIGTERM, as Ctrl-C or kill send) while its cluster runs stops that
     * cluster on its way out: no node JVM or media driver outlives it.
     */
    @Test
    @Timeout(300)
    void aBenchThatIsKilledStopsItsCluster(@TempDir Path dir) throws Exception {
        Path runDir = dir.resolve("clusters/2x1-w1");
        try (ChildJvm bench = ChildJvm.start(TroupeCli.class, List.of("-Xmx512m"), "bench", "--workload", "w1",
                "--rows", "30000", "--workers", "1", "--nodes", "2x1", "--node-heap", "256m", "--runs", "100000",
                "--warmups", "0", "--peers", "none", "--out", dir.toString())) {
            bench.awaitLine("bench: w1: troupe 2x1: cluster of 2 node JVMs up in ", Duration.ofSeconds(180));
            ClusterManifest manifest = ClusterManifest.read(runDir).orElseThrow();
            assertTrue(manifest.anyAlive(), "the cluster runs: " + bench.output());

            ProcessHandle.of(bench.pid()).ifPresent(ProcessHandle::destroy);
            bench.awaitExit(Duration.ofSeconds(60));
            assertFalse(manifest.anyAlive(), "a node or the driver outlived the bench: " + bench.output());
        } finally {
            // Whatever failed above (the child was killed with SIGKILL by then, its hook unrun): what its manifest
            // still lists goes, by pid.
            Optional<ClusterManifest> left = Files.isDirectory(runDir) ? ClusterManifest.read(runDir)
                    : Optional.empty();
            if (left.isPresent()) {
                LocalCluster.stop(left.get(), new PrintWriter(new StringWriter()));
            }
        }
    }
}
