package io.troupe.cli.netns;

import io.aeron.driver.MediaDriver;
import io.troupe.ChildJvm;
import io.troupe.actors.cluster.ClusterQueries;
import io.troupe.cli.TroupeCli;
import io.troupe.config.TroupeSettings;
import io.troupe.transport.aeron.StandaloneDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two hosts as Linux network namespaces joined by a veth pair ({@link NetworkNamespaces}),
 * each with its own media driver and node JVM, the node bound to its host's veth address: Artery between
 * them over TCP, batches over Aeron UDP (their drivers differ, so no stream can be IPC), the client in host
 * A's namespace. Every {@link ClusterQueries} case spreads over both hosts and agrees with DuckDB, as on
 * one host; orders is partitioned, half on each host. A node started in host B with the defaults (bound to
 * loopback) and host A as its seed is refused before it starts, with the reason. Needs root and iproute2,
 * which CI has; elsewhere it is skipped, saying which is missing. Every process is ended by its own pid,
 * then the namespaces by their names.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class NetnsClusterTest {

    private static final Duration UP = Duration.ofSeconds(150);
    private static final Duration CLIENT = Duration.ofSeconds(180);
    private static final int PORT = 25520;

    @TempDir
    Path dir;

    @Test
    void twoHostsAnswerAsOneDoesOverArteryAndAeronUdp() throws Exception {
        Optional<String> unavailable = NetworkNamespaces.unavailable();
        assumeTrue(unavailable.isEmpty(), () -> "two hosts need network namespaces: " + unavailable.orElseThrow());
        Path tables = ClusterQueries.writeTables(dir.resolve("tables"), 20_261_204L);
        List<ChildJvm> started = new ArrayList<>();
        try (NetworkNamespaces hosts = NetworkNamespaces.make()) {
            try {
                String seed = hosts.addressA + ":" + PORT;
                started.add(driver(hosts.a, "a"));
                started.add(driver(hosts.b, "b"));
                ChildJvm nodeA = node(hosts.a, "a", hosts.addressA, seed, tables, "1/2");
                started.add(nodeA);
                ChildJvm nodeB = node(hosts.b, "b", hosts.addressB, seed, tables, "2/2");
                started.add(nodeB);
                nodeA.awaitLine("troupe node " + seed + " ", UP);
                nodeB.awaitLine("troupe node " + hosts.addressB + ":" + PORT + " ", UP);

                ChildJvm loopback = ChildJvm.startThrough(NetworkNamespaces.inside(hosts.b), TroupeCli.class,
                        List.of("-Xmx128m"), "node", "--seed", seed, "--port", String.valueOf(PORT + 1),
                        "--run-dir", dir.resolve("run-b-loopback").toString());
                started.add(loopback);
                assertEquals(2, loopback.awaitExit(UP), loopback.output());
                assertTrue(loopback.output().contains("troupe.cluster.host is 127.0.0.1, a loopback address (the"
                        + " default), but seed node " + seed + " is on another host"), loopback.output());

                ChildJvm client = ChildJvm.startThrough(NetworkNamespaces.inside(hosts.a), NetnsClient.class,
                        List.of("-Xmx512m"), seed, hosts.addressA, tables.toString(), seed, "2");
                started.add(client);
                int exit = client.awaitExit(CLIENT);
                assertEquals(0, exit, "the client in host A:\n" + client.output() + "\nnode A:\n" + nodeA.output()
                        + "\nnode B:\n" + nodeB.output());
                for (ClusterQueries.Case c : ClusterQueries.CASES) {
                    assertTrue(client.output().contains("agrees: " + c.name() + " over 2 nodes"), client.output());
                }
            } finally {
                Collections.reverse(started);
                for (ChildJvm child : started) {
                    child.close();
                }
            }
        }
    }

    /** Host {@code host}'s media driver, in the namespace {@code namespace}. */
    private ChildJvm driver(String namespace, String host) throws Exception {
        List<String> options = new ArrayList<>(List.of("-Xmx128m"));
        options.addAll(StandaloneDriver.systemProperties(TroupeSettings.load().transport(), driverDir(host)));
        return ChildJvm.startThrough(NetworkNamespaces.inside(namespace), MediaDriver.class, options);
    }

    /** Host {@code host}'s node, bound to {@code address}, holding part {@code part} of orders. */
    private ChildJvm node(String namespace, String host, String address, String seed, Path tables, String part)
            throws Exception {
        return ChildJvm.startThrough(NetworkNamespaces.inside(namespace), TroupeCli.class,
                List.of("-Xmx384m", "-XX:+UseSerialGC", "-Dtroupe.cluster.media-driver-dir=" + driverDir(host),
                        "-Dtroupe.memory.preallocate=0", "-Dtroupe.transport.dir=" + dir.resolve("aeron-" + host)),
                "node", "--host", address, "--port", String.valueOf(PORT), "--seed", seed, "--workers", "1",
                "--run-dir", dir.resolve("run-" + host).toString(), "--tables", tables.toString(),
                "--partitioned", "orders", "--part", part);
    }

    private Path driverDir(String host) {
        return dir.resolve("driver-" + host);
    }
}
