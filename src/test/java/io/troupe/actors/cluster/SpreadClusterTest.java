package io.troupe.actors.cluster;

import io.aeron.driver.MediaDriver;
import io.troupe.actors.api.QueryOptions;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.profile.SpreadProfile;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two nodes in one JVM (two actor systems, a cluster over Artery) sharing one media driver, so every
 * query a client submits spreads over both through the wire serializer and the shared driver. They are
 * set up to plan joins differently ({@code troupe.spread.join}: repartition on one, broadcast on the
 * other): a query without a join spreads and agrees with DuckDB, and one with a join fails at once with
 * an error that says the nodes plan it otherwise, instead of waiting on streams that never come.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SpreadClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static MediaDriver driver;
    private static final List<TroupeNode> nodes = new ArrayList<>();
    private static TroupeCluster client;
    private static DuckDbOracle oracle;

    @BeforeAll
    static void startNodesAndClient() throws Exception {
        Path driverDir = dir.resolve("driver");
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().aeronDirectoryName(driverDir.toString())
                .dirDeleteOnShutdown(true));
        Path tables = ClusterQueries.writeTables(dir.resolve("tables"), 20_261_203L);
        int first = TroupeNodeTest.freePort();
        String seed = "127.0.0.1:" + first;
        for (String join : List.of("repartition", "broadcast")) {
            int port = nodes.isEmpty() ? first : TroupeNodeTest.freePort();
            nodes.add(ClusterQueries.startNode(dir, port, seed, driverDir.toString(), tables,
                    Map.of("troupe.spread.join", join, "troupe.workers.default", 2)));
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
        if (driver != null) {
            driver.close();
        }
        if (oracle != null) {
            oracle.close();
        }
    }

    @Test
    void spreadsOverBothNodesAndRefusesAPlanTheyPlanOtherwise() throws Exception {
        String coordinator = nodes.get(0).nodeId();
        ClusterQueries.awaitSpread(client, oracle, coordinator, 2, WAIT);
        ClusterQueries.Case join = ClusterQueries.CASES.get(1);
        QueryFailedException failed = assertThrows(QueryFailedException.class, () -> {
            try (ClusterQueryStream stream = client.stream(join.plan(), QueryOptions.defaults(), coordinator)) {
                stream.remaining();
            }
        });
        assertTrue(failed.getMessage().contains("plans this query otherwise than its coordinator"),
                failed.getMessage());
        assertTrue(failed.getMessage().contains(nodes.get(1).nodeId()), failed.getMessage());
    }

    /**
     * EXPLAIN ANALYZE through the client: both nodes' parts come back merged, over the wire; the rows of
     * each plan node summed over the nodes are DuckDB's, and the aggregate's repartition received, over the
     * shared driver, every batch, row and byte that was sent.
     */
    @Test
    void explainAnalyzeMergesBothNodesParts() throws Exception {
        String coordinator = nodes.get(0).nodeId();
        ClusterQueries.Case aggregate = ClusterQueries.CASES.get(2);
        ClusterQueries.awaitSpread(client, oracle, coordinator, 2, WAIT);
        AnalyzedQuery analyzed = client.explainAnalyze(aggregate.plan(), QueryOptions.defaults(), coordinator);
        ClusterQueries.assertAgrees(oracle, aggregate, analyzed.result(), coordinator);
        SpreadProfile profile = analyzed.profile();
        String text = analyzed.render();
        assertEquals(2, profile.nodes(), text);
        for (int n = 0; n < 2; n++) {
            assertEquals("node " + nodes.get(n).nodeId(), profile.parts().get(n).name(), text);
            assertTrue(text.contains("Node " + n + " (node " + nodes.get(n).nodeId() + "): "), text);
            assertTrue(profile.find("Hash Aggregate").node(n).rows() > 0, "node " + n + " made groups:\n" + text);
        }
        long orders = count("SELECT count(*) FROM orders");
        long groups = count("SELECT count(DISTINCT customer) FROM orders");
        assertEquals(orders, profile.find("Scan orders").total().rows(), text);
        assertEquals(orders, profile.find("Hash Aggregate").total().rowsIn(), text);
        assertEquals(groups, profile.find("Hash Aggregate").total().rows(), text);
        assertEquals(groups, profile.lines().get(0).total().rows(), text);
        SpreadProfile.Exchange repartition = profile.exchanges().stream()
                .filter(e -> e.label().startsWith("Repartition by hash")).findFirst().orElseThrow();
        assertTrue(repartition.total().sentBatches() > 0 && repartition.total().sentBytes() > 0, text);
        for (SpreadProfile.Exchange e : profile.exchanges()) {
            assertEquals(e.total().sentBatches(), e.total().receivedBatches(), e.label() + ":\n" + text);
            assertEquals(e.total().sentRows(), e.total().receivedRows(), e.label() + ":\n" + text);
            assertEquals(e.total().sentBytes(), e.total().receivedBytes(), e.label() + ":\n" + text);
        }
    }

    private static long count(String sql) throws Exception {
        return ((Number) oracle.query(sql).rows().get(0).get(0)).longValue();
    }
}
