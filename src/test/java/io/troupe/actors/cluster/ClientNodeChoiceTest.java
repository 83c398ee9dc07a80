package io.troupe.actors.cluster;

import io.aeron.driver.MediaDriver;
import io.troupe.actors.api.QueryOptions;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A client takes in turn only the nodes whose media driver it sees, since it reads a query's rows through
 * the driver of the node it queries: here one node has a driver and one has none (as a node on another
 * host has one this client cannot see). Once the client knows the nodes' endpoints, every query it
 * submits without naming a node goes to the node with the driver and succeeds; taking both in turn would
 * fail every other one.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClientNodeChoiceTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int IN_A_ROW = 6;

    @TempDir
    Path dir;

    @Test
    void takesOnlyTheNodesWhoseDriverItSees() throws Exception {
        Path driverDir = dir.resolve("driver");
        Path tables = ClusterQueries.writeTables(dir.resolve("tables"), 20_261_204L);
        int first = TroupeNodeTest.freePort();
        String seed = "127.0.0.1:" + first;
        // Closed in the reverse order of their start: the client, the nodes, then the driver they use.
        List<AutoCloseable> started = new ArrayList<>();
        try (DuckDbOracle oracle = ClusterQueries.oracle(tables)) {
            started.add(MediaDriver.launchEmbedded(new MediaDriver.Context()
                    .aeronDirectoryName(driverDir.toString()).dirDeleteOnShutdown(true)));
            Map<String, Object> oneWorker = Map.of("troupe.workers.default", 1);
            TroupeNode withDriver = ClusterQueries.startNode(dir, first, seed, driverDir.toString(), tables, oneWorker);
            started.add(withDriver);
            started.add(ClusterQueries.startNode(dir, TroupeNodeTest.freePort(), seed, "", tables, oneWorker));
            TroupeCluster client = ClusterQueries.connect(seed, WAIT);
            started.add(client);
            ClusterQueries.Case c = ClusterQueries.CASES.get(2);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (client.nodes().size() < 2) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new AssertionError("the client never listed both nodes: " + client.nodes());
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            int inARow = 0;
            List<String> failures = new ArrayList<>();
            while (inARow < IN_A_ROW) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new AssertionError("no " + IN_A_ROW + " queries in a row succeeded within " + WAIT
                            + "; nodes " + client.nodes() + ", the first failures " + failures);
                }
                try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults())) {
                    ClusterQueries.assertAgrees(oracle, c, stream.remaining(), "the client's choice");
                    assertEquals(withDriver.nodeId(), stream.nodeId());
                    inARow++;
                } catch (io.troupe.operators.exec.QueryFailedException e) {
                    // Before the client knows the endpoints it may take the node without a driver.
                    if (failures.size() < 3) {
                        failures.add(e.getMessage());
                    }
                    inARow = 0;
                    TimeUnit.MILLISECONDS.sleep(200);
                }
            }
        } finally {
            Collections.reverse(started);
            for (AutoCloseable c : started) {
                c.close();
            }
        }
    }
}
