package io.troupe.cli;

import io.troupe.actors.cluster.DataPlaneEndpoint;
import io.troupe.actors.cluster.NodeStatusFile;
import io.troupe.actors.cluster.NodeView;
import io.troupe.actors.cluster.NodeView.EventKind;
import io.troupe.actors.cluster.NodeView.MemberStatus;
import io.troupe.actors.cluster.NodeView.MembershipEvent;
import io.troupe.config.TroupeSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With real JVMs: a 3-node local cluster started by the code behind
 * {@code bin/troupe cluster start} forms (every node Up, each discovers all three endpoints through the
 * Receptionist), {@code cluster status} reports it, a node killed with SIGKILL is seen unreachable and
 * then removed by the two others, and {@code cluster stop} leaves no process and no Aeron directory.
 * Every child is bounded in time and, whatever happens, stopped by its own pid in the finally.
 */
class LocalClusterTest {

    private static final int NODES = 3;
    /** Short, test-only failure detection: with 1 s heartbeats and a 3 s pause a killed node is removed in about 6 s. */
    private static final Duration PAUSE = Duration.ofSeconds(2);
    private static final Duration STABLE_AFTER = Duration.ofSeconds(3);
    /**
     * How long the survivors may take to remove the killed node: detection (the pause), the resolver's
     * stable-after, its removal margin (stable-after again), and slack for a loaded 2-core machine. A
     * bound on a wait, not a measurement: the test fails only when removal does not happen at all.
     */
    private static final Duration REMOVAL_BOUND = PAUSE.plus(STABLE_AFTER.multipliedBy(2)).plusSeconds(30);
    private static final Duration UP_TIMEOUT = Duration.ofSeconds(150);

    @TempDir
    Path runDir;

    @Test
    @Timeout(400)
    void shouldFormReportSeeAKilledNodeRemovedAndStopClean() throws Exception {
        int basePort = LocalCluster.freePorts(NODES);
        LocalCluster.Spec spec = new LocalCluster.Spec(NODES, 1, basePort, runDir,
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                Map.of("troupe.cluster.failure-detector.heartbeat-interval", "500ms",
                        "troupe.cluster.failure-detector.acceptable-heartbeat-pause", PAUSE.toMillis() + "ms",
                        "troupe.cluster.split-brain-resolver.stable-after", STABLE_AFTER.toMillis() + "ms",
                        "troupe.memory.preallocate", "0"),
                Optional.empty(), UP_TIMEOUT);
        StringWriter progress = new StringWriter();
        try {
            long start = System.nanoTime();
            ClusterManifest manifest = LocalCluster.start(spec, TroupeSettings.load().transport(),
                    new PrintWriter(progress, true));
            System.out.printf("3-node cluster up in %.1f s (from the first JVM's launch)%n",
                    (System.nanoTime() - start) / 1e9);
            assertTrue(progress.toString().contains("3/3 nodes up"), progress.toString());
            List<String> nodeIds = IntStream.range(0, NODES).mapToObj(i -> "127.0.0.1:" + (basePort + i)).toList();
            String driverDir = manifest.aeronParent().resolve("driver").toString();
            assertTrue(Files.isDirectory(Path.of(driverDir)), "the media driver's directory");

            for (ClusterManifest.Started node : manifest.nodes()) {
                NodeView view = NodeStatusFile.read(manifest.statusFile(node));
                assertEquals(NodeView.NodeState.UP, view.state());
                assertEquals(node.pid(), view.pid());
                assertEquals(nodeIds, view.members().stream().map(NodeView.Member::address).toList());
                assertEquals(NODES, view.reachableIn(MemberStatus.UP), view.members().toString());
                assertEquals(nodeIds.stream().map(id -> new DataPlaneEndpoint(id, "127.0.0.1", driverDir,
                                Integer.parseInt(id.substring(id.lastIndexOf(':') + 1)))).toList(),
                        view.endpoints(), "node " + node.index() + " discovers every endpoint");
            }

            CliRun status = CliRun.of(new TroupeCli(), "cluster", "status", "--run-dir", runDir.toString());
            assertEquals(0, status.exitCode(), status.err());
            for (ClusterManifest.Started node : manifest.nodes()) {
                assertTrue(status.out().contains("node " + node.index() + ": 127.0.0.1:" + node.port() + " pid "
                        + node.pid() + " alive"), status.out());
            }
            assertTrue(status.out().contains("members: " + String.join(" UP, ", nodeIds) + " UP"), status.out());

            ClusterManifest.Started victim = manifest.nodes().get(NODES - 1);
            String victimId = "127.0.0.1:" + victim.port();
            ProcessHandle victimProcess = victim.handle().orElseThrow();
            victimProcess.destroyForcibly();
            victimProcess.onExit().get(30, TimeUnit.SECONDS);
            long killed = System.nanoTime();
            for (ClusterManifest.Started survivor : manifest.nodes().subList(0, NODES - 1)) {
                NodeView view = awaitView(manifest.statusFile(survivor), REMOVAL_BOUND, v -> v.members().contains(
                        new NodeView.Member(victimId, MemberStatus.REMOVED, false)));
                System.out.printf("node %d saw the killed node removed within %.1f s%n", survivor.index(),
                        (System.nanoTime() - killed) / 1e9);
                List<EventKind> kinds = view.events().stream().filter(e -> e.member().equals(victimId))
                        .map(MembershipEvent::kind).toList();
                assertTrue(kinds.contains(EventKind.UNREACHABLE) && kinds.lastIndexOf(EventKind.UNREACHABLE)
                        < kinds.lastIndexOf(EventKind.REMOVED), "unreachable, then removed: " + kinds);
                assertEquals(NodeView.NodeState.UP, view.state());
                assertEquals(NODES - 1, view.reachableIn(MemberStatus.UP), view.members().toString());
                assertFalse(view.endpoints().stream().anyMatch(e -> e.nodeId().equals(victimId)), view.endpoints()
                        .toString());
            }
            status = CliRun.of(new TroupeCli(), "cluster", "status", "--run-dir", runDir.toString());
            assertTrue(status.out().contains("node 3: " + victimId + " pid " + victim.pid() + " not running"),
                    status.out());

            CliRun stop = CliRun.of(new TroupeCli(), "cluster", "stop", "--run-dir", runDir.toString());
            assertEquals(0, stop.exitCode(), stop.err());
            assertTrue(stop.out().contains("node 1 (pid " + manifest.nodes().get(0).pid() + "): stopped"), stop.out());
            assertTrue(stop.out().contains("node 3 (pid " + victim.pid() + "): not running"), stop.out());
            for (ClusterManifest.Started node : manifest.nodes()) {
                assertTrue(ProcessHandle.of(node.pid()).map(h -> !h.isAlive()).orElse(true), "node " + node.index());
            }
            assertTrue(manifest.driverProcess().orElseThrow().handle().isEmpty(), "the media driver ended");
            assertFalse(Files.exists(manifest.aeronParent()), "no Aeron directory left: " + manifest.aeronParent());
            assertEquals(NodeView.NodeState.STOPPED, NodeStatusFile.read(manifest.statusFile(manifest.nodes().get(0)))
                    .state());
        } finally {
            // Whatever failed above: every process the test started goes, by its own pid.
            Optional<ClusterManifest> left = ClusterManifest.read(runDir);
            if (left.isPresent()) {
                LocalCluster.stop(left.get(), new PrintWriter(new StringWriter()));
            }
        }
    }

    /** Node JVMs ask for huge pages only where the kernel hands them out on request. */
    @Test
    void nodesAskForHugePagesWhereTheKernelGivesThemOnRequest(@TempDir Path dir) throws Exception {
        Path mode = dir.resolve("enabled");
        Files.writeString(mode, "always [madvise] never\n");
        assertEquals(List.of("-XX:+UseTransparentHugePages"), LocalCluster.hugePages(mode));
        Files.writeString(mode, "[always] madvise never\n");
        assertEquals(List.of(), LocalCluster.hugePages(mode), "every process has them already");
        Files.writeString(mode, "always madvise [never]\n");
        assertEquals(List.of(), LocalCluster.hugePages(mode), "asking would only warn");
        assertEquals(List.of(), LocalCluster.hugePages(dir.resolve("absent")), "a kernel without them");
    }

    private static NodeView awaitView(Path statusFile, Duration bound, Predicate<NodeView> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        NodeView view = null;
        while (System.nanoTime() - deadline < 0) {
            view = NodeStatusFile.read(statusFile);
            if (condition.test(view)) {
                return view;
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        throw new AssertionError(statusFile + " never showed it within " + bound.toSeconds() + " s; last view: " + view);
    }
}
