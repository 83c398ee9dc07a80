package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.ClusterQueries;
import io.troupe.actors.cluster.ClusterQueryStream;
import io.troupe.actors.cluster.NodeStatusFile;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With real JVMs: a 3-node local cluster on one host, every query spread over the
 * nodes alive. The coordinator of a query killed with SIGKILL: the client's query fails naming it, and
 * the other nodes end their parts (their status files count no query running), within the failure
 * detector's bound; the two survivors then answer a spread query as DuckDB does, orders (partitioned
 * over the three) cut again between them from its file. The host's media
 * driver killed during a query: the query fails (it does not hang), and so does the next, saying the
 * driver is gone. Every child is bounded in time and stopped by its pid in the finally.
 */
class ClusterFailureTest {

    private static final int NODES = 3;
    private static final Duration WAIT = TestClusters.WAIT;
    /** Detection, the resolver's stable-after and removal, a driver's client timeout, on a loaded 2-core machine. */
    private static final Duration LOSS_BOUND = Duration.ofSeconds(90);

    @TempDir
    Path runDir;

    @Test
    @Timeout(600)
    void aDeadCoordinatorEndsItsQueryEverywhereAndADeadDriverFailsQueries() throws Exception {
        Path tables = ClusterQueries.writeTables(runDir.resolve("tables"), 20_261_203L);
        int basePort = LocalCluster.freePorts(NODES);
        LocalCluster.Spec spec = TestClusters.spec(NODES, basePort, runDir, tables, List.of("orders:customer"));
        try (DuckDbOracle oracle = ClusterQueries.oracle(tables)) {
            ClusterManifest manifest = LocalCluster.start(spec, TroupeSettings.load().transport(),
                    new PrintWriter(new StringWriter(), true));
            List<String> nodeIds = TestClusters.nodeIds(NODES, basePort);
            try (TroupeCluster client = TroupeCluster.connect(TestClusters.client(nodeIds.get(1)), WAIT)) {
                TestClusters.awaitNodes(client, nodeIds);
                String coordinator = nodeIds.get(0);
                try (ClusterQueryStream stream = client.stream(ClusterQueries.ENDLESS, QueryOptions.defaults(),
                        coordinator)) {
                    assertNotNull(stream.next(WAIT));
                    assertEquals(NODES, stream.nodes());
                    kill(manifest.nodes().get(0));
                    long killed = System.nanoTime();
                    QueryFailedException lost = assertThrows(QueryFailedException.class, () -> {
                        while (stream.next(LOSS_BOUND) != null) {
                            // Read what the coordinator sent before it died.
                        }
                    });
                    assertTrue(lost.getMessage().contains("node " + coordinator), lost.getMessage());
                    for (ClusterManifest.Started survivor : manifest.nodes().subList(1, NODES)) {
                        awaitNoQuery(manifest.statusFile(survivor), killed);
                    }
                    System.out.printf("the coordinator's query ended on every survivor %.1f s after its kill%n",
                            (System.nanoTime() - killed) / 1e9);
                }

                ClusterQueries.Case c = ClusterQueries.CASES.get(3);
                try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults(), nodeIds.get(1))) {
                    ClusterQueries.assertAgrees(oracle, c, stream.remaining(), nodeIds.get(1));
                    assertEquals(NODES - 1, stream.nodes(), "spread over the survivors");
                }

                try (ClusterQueryStream stream = client.stream(ClusterQueries.ENDLESS, QueryOptions.defaults(),
                        nodeIds.get(1))) {
                    assertNotNull(stream.next(WAIT));
                    kill(manifest.driverProcess().orElseThrow());
                    long killed = System.nanoTime();
                    assertThrows(QueryFailedException.class, () -> {
                        while (stream.next(LOSS_BOUND) != null) {
                            // Until the query notices its driver is gone.
                        }
                    });
                    System.out.printf("the query failed %.1f s after its driver's kill%n",
                            (System.nanoTime() - killed) / 1e9);
                }
                QueryFailedException next = assertThrows(QueryFailedException.class,
                        () -> client.query(ClusterQueries.CASES.get(0).plan()));
                System.out.println("a query after the driver's death: " + next.getMessage());
            }
        } finally {
            Optional<ClusterManifest> left = ClusterManifest.read(runDir);
            if (left.isPresent()) {
                LocalCluster.stop(left.get(), new PrintWriter(new StringWriter()));
            }
        }
    }


    private static void kill(ClusterManifest.Started started) throws Exception {
        ProcessHandle process = started.handle().orElseThrow();
        process.destroyForcibly();
        process.onExit().get(30, TimeUnit.SECONDS);
    }

    /** Waits, bounded, until a view written after {@code sinceNanos} counts no running query. */
    private static void awaitNoQuery(Path statusFile, long sinceNanos) throws Exception {
        long deadline = System.nanoTime() + LOSS_BOUND.toNanos();
        while (true) {
            if (Files.exists(statusFile)) {
                try {
                    if (NodeStatusFile.read(statusFile).queries() == 0) {
                        return;
                    }
                } catch (IllegalArgumentException e) {
                    // Being replaced: read it again.
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError(statusFile + " still counts running queries "
                        + (System.nanoTime() - sinceNanos) / 1_000_000_000 + " s after the coordinator's kill");
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

}
