package io.troupe.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.ClusterQueries;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Plan;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cluster client that ends cleanly says nothing: after a query and a failed one, closing a {@link TroupeCluster}
 * (it leaves the cluster, then its actor system stops) logs no warning, where Artery's outbound streams to the
 * nodes used to log four "Upstream failed ... The connection has been aborted" lines. The cluster (a node JVM and
 * its media driver) is stopped by its pids in the finally.
 */
class ClusterClientExitTest {

    @TempDir
    Path runDir;

    @Test
    @Timeout(300)
    void shouldCloseAClientWithoutAWarning() throws Exception {
        Path tables = ClusterQueries.writeTables(runDir.resolve("tables"), 20_261_206L);
        TestClusters.Running cluster = TestClusters.start(1, runDir.resolve("run"), tables, List.of(), Map.of());
        try {
            TroupeCluster client = TroupeCluster.connect(TestClusters.client(cluster.nodeIds().get(0)),
                    TestClusters.WAIT);
            TestClusters.awaitNodes(client, cluster.nodeIds());
            assertTrue(client.query(Plan.scan("orders"), QueryOptions.defaults()).rowCount() > 0);
            assertThrows(QueryFailedException.class, () -> client.query(Plan.scan("nope"), QueryOptions.defaults()));
            Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
            ListAppender<ILoggingEvent> seen = new ListAppender<>();
            seen.start();
            root.addAppender(seen);
            try {
                client.close();
            } finally {
                root.detachAppender(seen);
            }
            List<String> warnings = seen.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                    .map(e -> e.getLevel() + " " + e.getLoggerName() + " " + e.getFormattedMessage() + " "
                            + e.getMDCPropertyMap())
                    .collect(Collectors.toList());
            assertEquals(List.of(), warnings);
        } finally {
            cluster.stop();
        }
    }
}
