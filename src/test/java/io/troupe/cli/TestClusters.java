package io.troupe.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.actors.cluster.TroupeCluster;

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
 * detector, the node ids on their ports, and a bounded wait until a client lists them all.
 */
final class TestClusters {

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
        Map<String, String> settings = new HashMap<>(FAST_DETECTOR);
        settings.put("troupe.memory.preallocate", "0");
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
        return ConfigFactory.parseMap(Map.of("troupe.cluster.seed-nodes", List.of(seed)))
                .withFallback(ConfigFactory.parseMap(FAST_DETECTOR)).withFallback(ConfigFactory.load());
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
