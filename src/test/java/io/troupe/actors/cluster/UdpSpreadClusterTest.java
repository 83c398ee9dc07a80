package io.troupe.actors.cluster;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.status.SystemCounterDescriptor;
import io.troupe.actors.api.QueryOptions;
import io.troupe.operators.profile.SpreadProfile;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two nodes in one JVM, each with a media driver of its own, as two hosts have: their endpoints name other
 * drivers, so the streams between them are Aeron UDP (each node's data plane on its own loopback port,
 * frames of troupe.cluster.data-mtu) while the client reads a node's rows over IPC through that node's
 * driver. Every client query spreads over both nodes and agrees with DuckDB, and each driver sent UDP bytes
 * (its BYTES_SENT counter: IPC sends none), and EXPLAIN ANALYZE counts as many batches and bytes received
 * as were sent, and shows the plan the coordinator optimized. The netns test (NetnsClusterTest) does the same between network
 * namespaces, where root is at hand.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class UdpSpreadClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static final List<MediaDriver> drivers = new ArrayList<>();
    private static final List<TroupeNode> nodes = new ArrayList<>();
    private static TroupeCluster client;
    private static DuckDbOracle oracle;

    @BeforeAll
    static void startNodesAndClient() throws Exception {
        Path tables = ClusterQueries.writeTables(dir.resolve("tables"), 20_261_204L);
        int first = TroupeNodeTest.freePort();
        String seed = "127.0.0.1:" + first;
        for (int i = 0; i < 2; i++) {
            Path driverDir = dir.resolve("host-" + i + "-driver");
            drivers.add(MediaDriver.launchEmbedded(new MediaDriver.Context().aeronDirectoryName(driverDir.toString())
                    .dirDeleteOnShutdown(true)));
            int port = i == 0 ? first : TroupeNodeTest.freePort();
            nodes.add(ClusterQueries.startNode(dir, port, seed, driverDir.toString(), tables,
                    Map.of("troupe.cluster.data-port", freeUdpPort(), "troupe.workers.default", 2)));
        }
        client = ClusterQueries.connect(seed, WAIT);
        oracle = ClusterQueries.oracle(tables);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (client != null) {
            client.close();
        }
        for (TroupeNode node : nodes) {
            node.close();
        }
        drivers.forEach(MediaDriver::close);
        if (oracle != null) {
            oracle.close();
        }
    }

    @Test
    void spreadsEveryCaseOverBothHostsThroughUdp() throws Exception {
        for (int n = 0; n < nodes.size(); n++) {
            String coordinator = nodes.get(n).nodeId();
            ClusterQueries.awaitSpread(client, oracle, coordinator, 2, WAIT);
            for (ClusterQueries.Case c : ClusterQueries.CASES) {
                try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults(), coordinator)) {
                    ClusterQueries.assertAgrees(oracle, c, stream.remaining(), coordinator);
                    assertEquals(2, stream.nodes(), c.name() + " on " + coordinator);
                }
            }
        }
        // EXPLAIN ANALYZE's traffic over UDP: every batch and byte sent between the hosts arrived.
        AnalyzedQuery analyzed = client.explainAnalyze(ClusterQueries.CASES.get(3).plan(), QueryOptions.defaults(),
                nodes.get(0).nodeId());
        ClusterQueries.assertAgrees(oracle, ClusterQueries.CASES.get(3), analyzed.result(), nodes.get(0).nodeId());
        String text = analyzed.render();
        assertEquals(2, analyzed.profile().nodes(), text);
        // The coordinator optimized the Java plan before spreading it: orders narrowed to the columns it names.
        String narrowed = text.lines().filter(line -> line.strip().startsWith("->  Project orders."))
                .findFirst().orElseThrow(() -> new AssertionError("orders not narrowed:\n" + text));
        assertTrue(!narrowed.contains("note") && !narrowed.contains("day"), narrowed);
        assertTrue(analyzed.profile().exchanges().stream().anyMatch(e -> e.total().sentBytes() > 0), text);
        for (SpreadProfile.Exchange e : analyzed.profile().exchanges()) {
            assertEquals(e.total().sentBatches(), e.total().receivedBatches(), e.label() + ":\n" + text);
            assertEquals(e.total().sentBytes(), e.total().receivedBytes(), e.label() + ":\n" + text);
        }
        for (int i = 0; i < drivers.size(); i++) {
            long sent = drivers.get(i).context().systemCounters().get(SystemCounterDescriptor.BYTES_SENT).get();
            assertTrue(sent > 0, "host " + i + "'s driver sent no UDP bytes: the streams did not cross over UDP");
        }
    }


    /** A UDP port free on loopback now. */
    static int freeUdpPort() throws Exception {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
