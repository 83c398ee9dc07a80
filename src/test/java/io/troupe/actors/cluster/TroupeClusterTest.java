package io.troupe.actors.cluster;

import com.typesafe.config.ConfigFactory;
import io.aeron.driver.MediaDriver;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.wire.RemoteFailure;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.PlanException;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster client in one JVM: a node (its own actor system, a cluster member on its own port,
 * its Troupe holding the tables) and a {@link TroupeCluster} client (another actor system, a member with
 * the client role) talk over Artery TCP, so every control message is serialized by Troupe's wire
 * serializer and read back as it would be in another JVM; rows go through a media driver both connect to
 * as separate Aeron clients, as two JVMs on one host do. ClusterClientTest does the same across real JVMs.
 *
 * <p>Checked: results agree with DuckDB; a plan refused or failing on the node is an exception naming the
 * node with the node's error as a RemoteFailure; a stream closed early stops the query on the node and
 * releases both ends; a seed where nothing runs is a clear error within the bound; a client's close
 * releases its streams and the queries they read on the node.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TroupeClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    private static MediaDriver driver;
    private static TroupeNode node;
    private static TroupeCluster client;
    private static DuckDbOracle oracle;

    @BeforeAll
    static void startNodeAndClient() throws Exception {
        Path driverDir = dir.resolve("driver");
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().aeronDirectoryName(driverDir.toString())
                .dirDeleteOnShutdown(true));
        Path tables = ClusterQueries.writeTables(dir.resolve("tables"), 20_261_203L);
        int port = TroupeNodeTest.freePort();
        String seed = "127.0.0.1:" + port;
        node = ClusterQueries.startNode(dir, port, seed, driverDir.toString(), tables,
                Map.of("troupe.workers.default", 2));
        client = ClusterQueries.connect(seed, WAIT);
        oracle = ClusterQueries.oracle(tables);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (client != null) {
            client.close();
        }
        if (node != null) {
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
    void shouldAnswerAsDuckDbDoes() throws Exception {
        assertEquals(List.of(node.nodeId()), client.nodes());
        for (ClusterQueries.Case c : ClusterQueries.CASES) {
            for (int workers : new int[] {0, 2}) {
                QueryResult result = client.query(c.plan(), QueryOptions.defaults().withWorkers(workers));
                ClusterQueries.assertAgrees(oracle, c, result, node.nodeId());
                assertEquals(c.plan().validate(node.troupe().catalog()), result.schema(), c.name());
            }
        }
        awaitZero(client::openSubscriptions, "the client's subscriptions close with their streams");
        awaitZero(() -> node.troupe().status().runningQueries(), "the node's queries end");
    }

    @Test
    void shouldReportTheNodesErrorNamingTheNode() throws Exception {
        QueryFailedException refused = assertThrows(QueryFailedException.class,
                () -> client.query(ClusterQueries.REFUSED));
        assertTrue(refused.getMessage().contains("failed on node " + node.nodeId()), refused.getMessage());
        assertTrue(refused.getMessage().contains("no_such_table"), refused.getMessage());
        RemoteFailure cause = assertInstanceOf(RemoteFailure.class, refused.getCause());
        assertEquals(PlanException.class.getName(), cause.originClass());

        for (int workers : new int[] {0, 2}) {
            QueryFailedException failed = assertThrows(QueryFailedException.class, () -> client.query(
                    ClusterQueries.FAILS_AT_RUN_TIME, QueryOptions.defaults().withWorkers(workers)));
            assertTrue(failed.getMessage().contains("failed on node " + node.nodeId()), failed.getMessage());
            assertTrue(failed.getMessage().contains(ClusterQueries.RUN_TIME_ERROR), failed.getMessage());
            assertInstanceOf(RemoteFailure.class, failed.getCause());
        }
        // The client and the node go on.
        ClusterQueries.assertAgrees(oracle, ClusterQueries.CASES.get(2), client.query(ClusterQueries.CASES.get(2)
                .plan()), node.nodeId());
    }

    @Test
    void shouldStopTheQueryOnTheNodeWhenTheStreamCloses() throws Exception {
        for (int workers : new int[] {0, 2}) {
            try (ClusterQueryStream stream = client.stream(ClusterQueries.ENDLESS,
                    QueryOptions.defaults().withWorkers(workers))) {
                assertEquals(node.nodeId(), stream.nodeId());
                assertEquals(ClusterQueries.ENDLESS.validate(node.troupe().catalog()), stream.schema(WAIT));
                for (int i = 0; i < 3; i++) {
                    Batch batch = stream.next(WAIT);
                    assertNotNull(batch);
                    assertTrue(batch.size() > 0);
                }
                assertEquals(1, node.troupe().status().runningQueries(), "the query runs on the node");
            }
            awaitZero(() -> node.troupe().status().runningQueries(), "the node's query ends once the stream closes");
            awaitZero(client::openSubscriptions, "the client's subscription is closed");
            assertEquals(0, client.openQueries());
        }
    }

    @Test
    void shouldReleaseEverythingWhenTheClientCloses() throws Exception {
        TroupeCluster second = TroupeCluster.connect(ConfigFactory.parseMap(Map.of("troupe.cluster.seed-nodes",
                List.of(node.nodeId()))).withFallback(ConfigFactory.load()), WAIT);
        ClusterQueryStream stream;
        try {
            stream = second.stream(ClusterQueries.ENDLESS, QueryOptions.defaults().withWorkers(2));
            assertNotNull(stream.next(WAIT));
            assertEquals(1, second.openQueries());
            assertEquals(1, second.openSubscriptions());
        } finally {
            second.close();
        }
        assertEquals(0, second.openQueries());
        assertEquals(0, second.openSubscriptions());
        assertThrows(IllegalStateException.class, () -> stream.next(WAIT), "the stream closed with its client");
        assertThrows(IllegalStateException.class, () -> second.stream(ClusterQueries.ENDLESS, QueryOptions.defaults()));
        awaitZero(() -> node.troupe().status().runningQueries(), "the node's query ends with the client");
        // The node serves the clients that stay.
        ClusterQueries.assertAgrees(oracle, ClusterQueries.CASES.get(0), client.query(ClusterQueries.CASES.get(0)
                .plan()), node.nodeId());
    }

    @Test
    void shouldTimeOutOnTheNodeAndSaySo() throws Exception {
        QueryFailedException failed = assertThrows(QueryFailedException.class, () -> client.query(
                ClusterQueries.ENDLESS, QueryOptions.defaults().withWorkers(2).withTimeout(Duration.ofMillis(300))));
        assertTrue(failed.getMessage().contains("failed on node " + node.nodeId()), failed.getMessage());
        awaitZero(() -> node.troupe().status().runningQueries(), "the timed-out query ends on the node");
    }

    @Test
    void shouldRefuseASeedWhereNoNodeRuns() throws Exception {
        int nobody = TroupeNodeTest.freePort();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TroupeCluster.connect(
                ConfigFactory.parseMap(Map.of("troupe.cluster.seed-nodes", List.of("127.0.0.1:" + nobody)))
                        .withFallback(ConfigFactory.load()), Duration.ofSeconds(3)));
        assertTrue(e.getMessage().contains("could not join Troupe cluster 'troupe' through [127.0.0.1:" + nobody
                + "] within 3 s"), e.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> TroupeCluster.connect(ConfigFactory.load(), Duration.ofSeconds(3)));
        assertTrue(none.getMessage().contains("troupe.cluster.seed-nodes is empty"), none.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> client.stream(ClusterQueries.REFUSED, QueryOptions.defaults(), "127.0.0.1:1"));
        assertTrue(unknown.getMessage().contains("no node 127.0.0.1:1 takes queries"), unknown.getMessage());
    }

    /** Waits, bounded, for {@code count} to reach 0. */
    static void awaitZero(IntSupplier count, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int last;
        while ((last = count.getAsInt()) != 0) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError(what + ": still " + last + " after " + WAIT.toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }
}
