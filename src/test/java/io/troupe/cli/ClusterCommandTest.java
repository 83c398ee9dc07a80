package io.troupe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/troupe cluster} as a user meets it from another folder: a cluster started with its run directory
 * elsewhere is found by {@code status} and {@code stop} without {@code --run-dir} (through the user's registry of
 * clusters, here a temporary folder), and a second {@code start} on its ports says that it runs, where, and how to
 * stop it. The node JVM is stopped by its own pid in the finally, whatever happens.
 */
class ClusterCommandTest {

    @Test
    @Timeout(300)
    void shouldFindTheClusterFromAnyFolderAndRefuseASecondStartSayingWhereItRuns(@TempDir Path dir) throws Exception {
        assertFalse(Files.exists(Path.of(ClusterCommand.DEFAULT_RUN_DIR, ClusterManifest.FILE)),
                "this test runs where no cluster was started in " + ClusterCommand.DEFAULT_RUN_DIR);
        Path registry = dir.resolve("registry");
        Path run = dir.resolve("first");
        int basePort = LocalCluster.freePorts(1);
        ClusterManifest started = null;
        try {
            CliRun first = CliRun.of(start(registry), "--nodes", "1", "--base-port", String.valueOf(basePort),
                    "--run-dir", run.toString(), "--heap", "256m", "--set", "troupe.memory.preallocate=0");
            started = ClusterManifest.read(run).orElse(null);
            assertEquals(0, first.exitCode(), first.err());

            CliRun second = CliRun.of(start(registry), "--nodes", "2", "--base-port", String.valueOf(basePort - 1),
                    "--run-dir", dir.resolve("second").toString());
            assertEquals(1, second.exitCode(), second.err());
            assertTrue(second.err().startsWith("troupe cluster start: a cluster is already running: 1 node on "
                    + "127.0.0.1, port " + basePort + ", run directory " + run.toAbsolutePath() + ". Stop it with: "
                    + "bin/troupe cluster stop --run-dir " + run.toAbsolutePath()), second.err());
            assertFalse(Files.exists(dir.resolve("second")), "the second start started nothing");

            ClusterCommand.Status status = new ClusterCommand.Status();
            status.registry = registry;
            CliRun seen = CliRun.of(status);
            assertEquals(0, seen.exitCode(), seen.err());
            assertTrue(seen.out().startsWith("cluster in " + run.toAbsolutePath()), seen.out());
            assertTrue(seen.out().contains("node 1: 127.0.0.1:" + basePort + " pid "), seen.out());

            CliRun stopped = CliRun.of(stop(registry));
            assertEquals(0, stopped.exitCode(), stopped.err());
            assertTrue(stopped.out().contains("node 1 (pid " + started.nodes().get(0).pid() + "): stopped"),
                    stopped.out());
            assertFalse(started.anyAlive(), "the cluster's processes are gone");
            assertEquals(0, Files.list(registry).count(), "the stopped cluster is no longer written down");

            CliRun none = CliRun.of(stop(registry));
            assertEquals(1, none.exitCode());
            assertTrue(none.err().startsWith("troupe cluster stop: no cluster runs: none in "), none.err());
        } finally {
            if (started != null) {
                LocalCluster.stop(started, new PrintWriter(new StringWriter()));
            }
        }
    }

    private static ClusterCommand.Start start(Path registry) {
        ClusterCommand.Start start = new ClusterCommand.Start();
        start.registry = registry;
        return start;
    }

    private static ClusterCommand.Stop stop(Path registry) {
        ClusterCommand.Stop stop = new ClusterCommand.Stop();
        stop.registry = registry;
        return stop;
    }
}
