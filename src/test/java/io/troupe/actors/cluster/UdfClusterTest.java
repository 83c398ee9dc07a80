package io.troupe.actors.cluster;

import io.aeron.driver.MediaDriver;
import io.troupe.actors.api.QueryOptions;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.udf.AggregateUdfTest;
import io.troupe.operators.udf.ScalarUdfTest;
import io.troupe.operators.udf.UserFunctions;
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

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Functions of one's own across a cluster of two nodes in one JVM: a plan that calls them is refused, naming the
 * function, while one node lacks them, and once both registered them under the same name it spreads over both, the
 * aggregate's partial states crossing the wire as rows of their fields, and agrees with DuckDB.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class UdfClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static MediaDriver driver;
    private static final List<TroupeNode> nodes = new ArrayList<>();
    private static TroupeCluster client;
    private static DuckDbOracle oracle;

    private static final ClusterQueries.Case SUM_SQ = new ClusterQueries.Case("sum_sq",
            Plan.scan("orders").aggregate(List.of(), Expr.call("sum_sq", col("amount")).as("ss"), count().as("n")),
            "SELECT sum(CAST(amount AS DOUBLE) * CAST(amount AS DOUBLE)), count(*) FROM orders");
    private static final ClusterQueries.Case PLUS_TAX = new ClusterQueries.Case("plus_tax",
            Plan.scan("orders").project(col("id"), Expr.call("plus_tax", col("amount")).as("gross")),
            "SELECT id, CAST(amount AS DOUBLE) * 1.2 FROM orders");

    @BeforeAll
    static void startNodesAndClient() throws Exception {
        Path driverDir = dir.resolve("driver");
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().aeronDirectoryName(driverDir.toString())
                .dirDeleteOnShutdown(true));
        Path tables = ClusterQueries.writeTables(dir.resolve("tables"), 20_261_207L);
        int first = TroupeNodeTest.freePort();
        String seed = "127.0.0.1:" + first;
        for (int n = 0; n < 2; n++) {
            int port = n == 0 ? first : TroupeNodeTest.freePort();
            nodes.add(ClusterQueries.startNode(dir, port, seed, driverDir.toString(), tables,
                    Map.of("troupe.workers.default", 2)));
        }
        register(nodes.get(0).troupe().functions());
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

    /** ScalarUdfTest's plus_tax and AggregateUdfTest's sum_sq, and the others of theirs. */
    private static void register(UserFunctions functions) {
        ScalarUdfTest.register(functions);
        AggregateUdfTest.register(functions);
    }

    @Test
    void aNodeWithoutTheFunctionsRefusesThePlanNamingOneThenBothRunIt() throws Exception {
        String coordinator = nodes.get(0).nodeId();
        ClusterQueries.awaitSpread(client, oracle, coordinator, 2, WAIT);
        for (ClusterQueries.Case c : List.of(SUM_SQ, PLUS_TAX)) {
            QueryFailedException refused = assertThrows(QueryFailedException.class, () -> {
                try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults(), coordinator)) {
                    stream.remaining();
                }
            });
            assertTrue(refused.getMessage().contains("the function " + c.name() + " of " + c.name()
                    + "(amount) is not registered in this Troupe"), refused.getMessage());
        }
        register(nodes.get(1).troupe().functions());
        for (ClusterQueries.Case c : List.of(SUM_SQ, PLUS_TAX)) {
            try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults(), coordinator)) {
                ClusterQueries.assertAgrees(oracle, c, stream.remaining(), coordinator);
                assertEquals(2, stream.nodes(), c.name());
            }
        }
    }
}
