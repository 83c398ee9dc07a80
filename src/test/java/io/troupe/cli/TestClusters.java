package io.troupe.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.config.TroupeSettings;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * What the tests that start a local cluster of node JVMs share: small node JVMs with a fast failure
 * detector, the node ids on their ports, and a bounded wait until a client lists them all. Tests of other
 * packages (LocalCluster is this package's) start one with {@link #start}.
 */
public final class TestClusters {

    /** How long a node JVM may take to come Up on a loaded 2-core machine. */
    static final Duration UP_TIMEOUT = Duration.ofSeconds(150);
    static final Duration WAIT = Duration.ofSeconds(60);
    /** A node killed is downed in seconds, not the 20 s of the defaults: nodes and client alike use these. */
    static final Map<String, String> FAST_DETECTOR = Map.of(
            "troupe.cluster.failure-detector.heartbeat-interval", "500ms",
            "troupe.cluster.failure-detector.acceptable-heartbeat-pause", "2000ms",
            "troupe.cluster.split-brain-resolver.stable-after", "3000ms");

    private TestClusters() {
    }

    /**
     * {@code nodes} node JVMs of 1 worker each on ports from {@code basePort}, small heaps, the fast detector,
     * loading {@code tables} (with the {@code partitioned} ones cut to each node's part).
     */
    static LocalCluster.Spec spec(int nodes, int basePort, Path runDir, Path tables, List<String> partitioned) {
        return spec(nodes, basePort, runDir, tables, partitioned, Map.of());
    }

    /** {@link #spec} with more {@code troupe.*} settings for every node. */
    static LocalCluster.Spec spec(int nodes, int basePort, Path runDir, Path tables, List<String> partitioned,
                                  Map<String, String> more) {
        Map<String, String> settings = new HashMap<>(FAST_DETECTOR);
        settings.put("troupe.memory.preallocate", "0");
        settings.putAll(more);
        return new LocalCluster.Spec(nodes, 1, basePort, runDir,
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), settings, Optional.of(tables),
                UP_TIMEOUT, partitioned);
    }

    /** The ids of {@code nodes} nodes on ports from {@code basePort}. */
    static List<String> nodeIds(int nodes, int basePort) {
        return IntStream.range(0, nodes).mapToObj(i -> "127.0.0.1:" + (basePort + i)).toList();
    }

    /** A client's configuration: seed {@code seed}, the fast detector. */
    static Config client(String seed) {
        return ConfigFactory.parseMap(Map.of("troupe.cluster.seed-nodes", List.of(seed))).withFallback(fastDetector());
    }

    /** The settings of reference.conf under the nodes' fast failure detector, for a client made elsewhere. */
    public static Config fastDetector() {
        return ConfigFactory.parseMap(FAST_DETECTOR).withFallback(ConfigFactory.load());
    }

    /**
     * Starts {@code nodes} node JVMs as {@link #spec} and {@code settings} say, on free ports, and connects a
     * client that lists them all; on any failure stops what it started.
     */
    public static Running start(int nodes, Path runDir, Path tables, List<String> partitioned,
                                Map<String, String> settings) throws IOException, InterruptedException {
        int basePort = LocalCluster.freePorts(nodes);
        LocalCluster.Spec spec = spec(nodes, basePort, runDir, tables, partitioned, settings);
        ClusterManifest manifest = LocalCluster.start(spec, TroupeSettings.load().transport(),
                new PrintWriter(new StringWriter(), true));
        List<String> nodeIds = nodeIds(nodes, basePort);
        TroupeCluster client = null;
        try {
            client = TroupeCluster.connect(client(nodeIds.get(0)), WAIT);
            awaitNodes(client, nodeIds);
            return new Running(manifest, nodeIds, client);
        } catch (InterruptedException | RuntimeException | Error e) {
            if (client != null) {
                client.close();
            }
            LocalCluster.stop(manifest, new PrintWriter(new StringWriter()));
            throw e;
        }
    }

    /** A local cluster {@link #start}ed for a test, and its client. Not threadsafe: one test class's. */
    public static final class Running {
        private final ClusterManifest manifest;
        private final List<String> nodeIds;
        private final TroupeCluster client;

        private Running(ClusterManifest manifest, List<String> nodeIds, TroupeCluster client) {
            this.manifest = manifest;
            this.nodeIds = nodeIds;
            this.client = client;
        }

        /** The nodes, {@code host:port}, in port order. */
        public List<String> nodeIds() {
            return nodeIds;
        }

        public TroupeCluster client() {
            return client;
        }

        /** Kills node {@code index} (0-based, port order) with SIGKILL and waits, bounded, until it is gone. */
        public void kill(int index) throws Exception {
            ProcessHandle process = manifest.nodes().get(index).handle().orElseThrow(
                    () -> new AssertionError("node " + index + " runs no more"));
            process.destroyForcibly();
            process.onExit().get(30, TimeUnit.SECONDS);
        }

        /**
         * Closes the client, then stops the nodes and the driver by their pids (SIGTERM, SIGKILL past a bound)
         * and removes the Aeron files.
         *
         * @return what was stopped, one line a process ({@code node 1 (pid 4242): stopped})
         */
        public String stop() throws InterruptedException {
            client.close();
            StringWriter out = new StringWriter();
            LocalCluster.stop(manifest, new PrintWriter(out));
            return out.toString();
        }
    }

    /** Waits, bounded, until the client lists every node (the Receptionist is eventually consistent). */
    static void awaitNodes(TroupeCluster client, List<String> nodeIds) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!client.nodes().equals(nodeIds)) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("the client lists " + client.nodes() + ", not " + nodeIds);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }
}
