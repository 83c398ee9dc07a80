package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.ClusterQueries;
import io.troupe.actors.cluster.ClusterQueryStream;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.actors.wire.RemoteFailure;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Plan;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster client across real JVMs: a 2-node local cluster (the code behind
 * {@code bin/troupe cluster start --tables DIR}: a media driver process and two node JVMs, each loading the
 * same CSV tables), and this JVM as a {@link TroupeCluster} client. Each node answers the plans as DuckDB
 * does (rows cross from the node's JVM to this one through the shared driver); a plan failing on a node is
 * an exception naming that node with its error; a stream closed early is released and the node goes on;
 * every query spreads over both nodes (they share the host's driver), orders partitioned between them by
 * customer and customers replicated; a node killed with SIGKILL during a query it takes part in fails that
 * query with an error naming the node, within the failure detector's bound, not a hang; the survivor then
 * answers alone, over orders too: it re-reads the lost node's part from the table's file. Every child is
 * bounded in time and stopped by its pid in the finally.
 */
class ClusterClientTest {

    private static final int NODES = 2;
    private static final Duration WAIT = TestClusters.WAIT;
    /**
     * Detection, the resolver's stable-after and removal, and slack for a loaded 2-core machine: a bound,
     * not a measurement.
     */
    private static final Duration LOSS_BOUND = Duration.ofSeconds(90);

    @TempDir
    Path runDir;

    @Test
    @Timeout(500)
    void shouldQueryEachNodeAsDuckDbDoesAndFailClearly() throws Exception {
        Path tables = ClusterQueries.writeTables(runDir.resolve("tables"), 20_261_204L);
        int basePort = LocalCluster.freePorts(NODES);
        LocalCluster.Spec spec = TestClusters.spec(NODES, basePort, runDir, tables, List.of("orders:customer"));
        try (DuckDbOracle oracle = ClusterQueries.oracle(tables)) {
            ClusterManifest manifest = LocalCluster.start(spec, TroupeSettings.load().transport(),
                    new PrintWriter(new StringWriter(), true));
            List<String> nodeIds = TestClusters.nodeIds(NODES, basePort);
            try (TroupeCluster client = TroupeCluster.connect(TestClusters.client(nodeIds.get(0)), WAIT)) {
                TestClusters.awaitNodes(client, nodeIds);
                for (String node : nodeIds) {
                    for (ClusterQueries.Case c : ClusterQueries.CASES) {
                        try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults(), node)) {
                            assertEquals(node, stream.nodeId());
                            ClusterQueries.assertAgrees(oracle, c, stream.remaining(), node);
                            assertEquals(NODES, stream.nodes(), c.name() + ": spread over the host's nodes");
                        }
                    }
                }
                // Round robin: one query lands on each node.
                for (int i = 0; i < NODES; i++) {
                    ClusterQueries.Case c = ClusterQueries.CASES.get(2);
                    ClusterQueries.assertAgrees(oracle, c, client.query(c.plan()), "the next");
                }

                String second = nodeIds.get(1);
                QueryFailedException failed = assertThrows(QueryFailedException.class, () -> {
                    try (ClusterQueryStream stream = client.stream(ClusterQueries.FAILS_AT_RUN_TIME,
                            QueryOptions.defaults(), second)) {
                        stream.remaining();
                    }
                });
                assertTrue(failed.getMessage().contains("failed on node " + second), failed.getMessage());
                assertTrue(failed.getMessage().contains(ClusterQueries.RUN_TIME_ERROR), failed.getMessage());
                assertInstanceOf(RemoteFailure.class, failed.getCause());

                try (ClusterQueryStream stream = client.stream(ClusterQueries.ENDLESS, QueryOptions.defaults(),
                        nodeIds.get(0))) {
                    assertNotNull(stream.next(WAIT));
                }
                assertEquals(0, client.openQueries());
                awaitZero(client, "the closed stream's subscription");

                // A node killed during a query it takes part in (the first node coordinates it): the query fails
                // naming it, within the failure detector's bound.
                ClusterManifest.Started victim = manifest.nodes().get(1);
                try (ClusterQueryStream stream = client.stream(ClusterQueries.ENDLESS, QueryOptions.defaults(),
                        nodeIds.get(0))) {
                    Batch first = stream.next(WAIT);
                    assertNotNull(first);
                    ProcessHandle process = victim.handle().orElseThrow();
                    process.destroyForcibly();
                    process.onExit().get(30, TimeUnit.SECONDS);
                    long killed = System.nanoTime();
                    QueryFailedException lost = assertThrows(QueryFailedException.class, () -> {
                        while (stream.next(LOSS_BOUND) != null) {
                            // Read what the node sent before it died.
                        }
                    });
                    assertTrue(lost.getMessage().contains("node " + second), lost.getMessage());
                    System.out.printf("the query spread onto the killed node failed %.1f s after the kill: %s%n",
                            (System.nanoTime() - killed) / 1e9, lost.getMessage());
                }
                // The survivor goes on, alone, with the tables it holds whole.
                ClusterQueries.Case c = new ClusterQueries.Case("customers",
                        Plan.scan("customers").project(col("id"), col("name"), col("region")),
                        "SELECT id, name, region FROM customers");
                try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults(), nodeIds.get(0))) {
                    ClusterQueries.assertAgrees(oracle, c, stream.remaining(), nodeIds.get(0));
                    assertEquals(1, stream.nodes(), "the query runs on the survivor alone");
                }
                // Orders' other part is gone with its node: the survivor re-reads orders from its file, all of it.
                ClusterQueries.Case join = ClusterQueries.CASES.get(1);
                try (ClusterQueryStream stream = client.stream(join.plan(), QueryOptions.defaults(), nodeIds.get(0))) {
                    ClusterQueries.assertAgrees(oracle, join, stream.remaining(), nodeIds.get(0));
                }
            }
        } finally {
            Optional<ClusterManifest> left = ClusterManifest.read(runDir);
            if (left.isPresent()) {
                LocalCluster.stop(left.get(), new PrintWriter(new StringWriter()));
            }
        }
    }


    private static void awaitZero(TroupeCluster client, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (client.openSubscriptions() != 0) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError(what + ": " + client.openSubscriptions() + " subscriptions still open");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }
}
