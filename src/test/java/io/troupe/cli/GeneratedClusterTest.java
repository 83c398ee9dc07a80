package io.troupe.cli;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.ClusterQueries;
import io.troupe.actors.cluster.ClusterQueryStream;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.cli.data.Benchmark;
import io.troupe.cli.data.BenchmarkDataGenerator;
import io.troupe.cli.data.GenerationProgress;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Tables a local cluster's nodes generate at start ({@code cluster start --generate
 * tpch:SF}), lineitem made in part on each node (its share of the generator's parts), orders cut by the
 * hash of its key, the rest replicated; queries spread over both nodes answer as DuckDB does over the
 * whole generated tables. Every child is bounded in time and stopped by its pid in the finally.
 */
class GeneratedClusterTest {

    private static final int NODES = 2;
    private static final double SCALE = 0.01;
    /** The TPC-H generator's text pool alone takes 300 MB of heap, at any scale factor. */
    private static final List<String> GENERATOR_HEAP = List.of("-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private static final List<ClusterQueries.Case> CASES = List.of(
            new ClusterQueries.Case("lineitem by flag",
                    Plan.scan("lineitem").aggregate(List.of(col("l_returnflag"), col("l_linestatus")),
                            sum(col("l_quantity")).as("qty"), sum(col("l_extendedprice")).as("price"),
                            count().as("n")),
                    "SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice), count(*) FROM lineitem"
                            + " GROUP BY l_returnflag, l_linestatus"),
            new ClusterQueries.Case("lineitem join orders",
                    Plan.scan("lineitem").join(Plan.scan("orders"), JoinType.INNER,
                                    col("l_orderkey").eq(col("o_orderkey")))
                            .aggregate(List.of(col("o_orderpriority")), count().as("n"),
                                    sum(col("l_quantity")).as("qty")),
                    "SELECT o_orderpriority, count(*), sum(l_quantity) FROM lineitem JOIN orders"
                            + " ON l_orderkey = o_orderkey GROUP BY o_orderpriority"),
            new ClusterQueries.Case("orders join customer join nation",
                    Plan.scan("orders").join(Plan.scan("customer"), JoinType.INNER, col("o_custkey").eq(col("c_custkey")))
                            .join(Plan.scan("nation"), JoinType.INNER, col("c_nationkey").eq(col("n_nationkey")))
                            .aggregate(List.of(col("n_name")), count().as("n"), sum(col("o_totalprice")).as("total")),
                    "SELECT n_name, count(*), sum(o_totalprice) FROM orders JOIN customer ON o_custkey = c_custkey"
                            + " JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name"));

    @TempDir
    Path runDir;

    @Test
    @Timeout(400)
    void nodesGenerateTheirPartsAndAnswerAsDuckDbDoesOverTheWholeTables() throws Exception {
        int basePort = LocalCluster.freePorts(NODES);
        LocalCluster.Spec base = TestClusters.spec(NODES, basePort, runDir, runDir, List.of());
        LocalCluster.Spec spec = new LocalCluster.Spec(base.nodes(), base.workers(), base.basePort(), base.runDir(),
                base.classpath(), GENERATOR_HEAP, base.settings(), Optional.empty(), base.upTimeout(),
                List.of("lineitem", "orders:o_orderkey"), Optional.of("tpch:" + SCALE));
        try (DuckDbOracle oracle = new DuckDbOracle()) {
            oracle.load(BenchmarkDataGenerator.generate(Benchmark.TPCH, SCALE, List.of(), 2, new GenerationProgress())
                    .tables());
            LocalCluster.start(spec, TroupeSettings.load().transport(), new PrintWriter(new StringWriter(), true));
            List<String> nodeIds = TestClusters.nodeIds(NODES, basePort);
            try (TroupeCluster client = TroupeCluster.connect(TestClusters.client(nodeIds.get(0)), TestClusters.WAIT)) {
                TestClusters.awaitNodes(client, nodeIds);
                for (String node : nodeIds) {
                    for (ClusterQueries.Case c : CASES) {
                        try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults(), node)) {
                            ClusterQueries.assertAgrees(oracle, c, stream.remaining(), node);
                            assertEquals(NODES, stream.nodes(), c.name() + ": spread over both nodes");
                        }
                    }
                }
            }
        } finally {
            Optional<ClusterManifest> left = ClusterManifest.read(runDir);
            if (left.isPresent()) {
                LocalCluster.stop(left.get(), new PrintWriter(new StringWriter()));
            }
        }
    }
}
