package io.troupe.actors.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.aeron.driver.MediaDriver;
import io.troupe.actors.cluster.NodeView.EventKind;
import io.troupe.actors.cluster.NodeView.MemberStatus;
import io.troupe.actors.cluster.NodeView.NodeState;
import io.troupe.config.ClusterSettings;
import io.troupe.config.TroupeSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two nodes in one JVM (two actor systems on two ports) form a cluster, discover
 * each other's data-plane endpoint through the Receptionist, write their views to their status files,
 * and a node that closes leaves: the other sees it removed. The multi-JVM version is LocalClusterTest.
 */
class TroupeNodeTest {

    /** Generous: the cluster forms in a few seconds; the bound only keeps a broken build from hanging. */
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path runDir;

    @Test
    void shouldFormDiscoverEndpointsAndSeeALeaverRemoved() throws Exception {
        int port1 = freePort();
        int port2 = freePort();
        String seed = "127.0.0.1:" + port1;
        // A driver in a directory whose name needs escaping in an actor's name: the first node publishes it.
        Path driverDir = runDir.resolve("a dir~with odd characters");
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
                .aeronDirectoryName(driverDir.toString()).dirDeleteOnShutdown(true));
             TroupeNode first = node(port1, seed, driverDir.toString());
             TroupeNode second = node(port2, seed, "")) {
            NodeView view1 = await(first, v -> v.reachableIn(MemberStatus.UP) == 2 && v.endpoints().size() == 2);
            NodeView view2 = await(second, v -> v.reachableIn(MemberStatus.UP) == 2 && v.endpoints().size() == 2);
            List<DataPlaneEndpoint> expected = List.of(
                    new DataPlaneEndpoint(seed, "127.0.0.1", driverDir.toString(), port1),
                    new DataPlaneEndpoint("127.0.0.1:" + port2, "127.0.0.1", "", port2));
            assertEquals(expected.stream().sorted(Comparator.comparing(DataPlaneEndpoint::nodeId)).toList(),
                    view1.endpoints());
            assertEquals(view1.endpoints(), view2.endpoints());
            assertEquals(NodeState.UP, view1.state());
            assertEquals(seed, view1.nodeId());
            assertEquals(ProcessHandle.current().pid(), view2.pid());

            NodeView fromFile = await(first, v -> NodeStatusFile.read(statusFile(port1)).members().size() == 2);
            assertEquals(2, NodeStatusFile.read(statusFile(port1)).endpoints().size());
            assertEquals(fromFile.nodeId(), NodeStatusFile.read(statusFile(port1)).nodeId());

            second.close();
            assertEquals(NodeState.STOPPED, NodeStatusFile.read(statusFile(port2)).state());
            assertTrue(second.terminated().isDone());
            NodeView after = await(first, v -> v.members().stream().anyMatch(
                    m -> m.address().equals("127.0.0.1:" + port2) && m.status() == MemberStatus.REMOVED)
                    && v.endpoints().size() == 1);
            assertTrue(after.events().stream().anyMatch(e -> e.member().equals("127.0.0.1:" + port2)
                    && e.kind() == EventKind.REMOVED), after.events().toString());
            assertEquals(NodeState.UP, after.state());
        }
    }

    private TroupeNode node(int port, String seed, String driverDir) throws InterruptedException {
        Config config = ConfigFactory.parseMap(Map.of(
                "troupe.cluster.port", port,
                "troupe.cluster.seed-nodes", List.of(seed),
                "troupe.cluster.media-driver-dir", driverDir,
                "troupe.workers.default", 0)).withFallback(ConfigFactory.load());
        return TroupeNode.start(TroupeSettings.from(config), ClusterSettings.from(config), config, statusFile(port));
    }

    private Path statusFile(int port) {
        return runDir.resolve("node-" + port + ".json");
    }

    private static NodeView await(TroupeNode node, Predicate<NodeView> condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            NodeView view = node.view().orElse(null);
            if (view != null && condition.test(view)) {
                return view;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new AssertionError("node " + node.nodeId() + " never got there within " + WAIT.toSeconds()
                + " s; its view: " + node.view());
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
