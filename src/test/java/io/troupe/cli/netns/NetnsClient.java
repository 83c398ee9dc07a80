package io.troupe.cli.netns;

import com.typesafe.config.ConfigFactory;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.ClusterQueries;
import io.troupe.actors.cluster.ClusterQueryStream;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.oracle.DuckDbOracle;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The client of {@link NetnsClusterTest}, run inside host A's namespace (where the test JVM cannot reach):
 * joins the cluster as a client bound to host A's address, waits until the coordinator spreads a query over
 * both hosts, then runs every {@link ClusterQueries} case there and checks it against DuckDB over the same
 * CSV files. Prints one {@code agrees: CASE over N nodes} line per case and exits 0; any failure is
 * printed and exits 1.
 *
 * <p>Arguments: SEED CLIENT_HOST TABLES_DIR COORDINATOR_NODE_ID NODES.
 */
public final class NetnsClient {

    private static final Duration WAIT = Duration.ofSeconds(90);

    private NetnsClient() {
    }

    public static void main(String[] args) {
        try {
            run(args[0], args[1], Path.of(args[2]), args[3], Integer.parseInt(args[4]));
            System.exit(0);
        } catch (Throwable e) {
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run(String seed, String host, Path tables, String coordinator, int nodes) throws Exception {
        try (TroupeCluster client = TroupeCluster.connect(ConfigFactory.parseMap(Map.of(
                        "troupe.cluster.seed-nodes", List.of(seed), "troupe.cluster.host", host))
                .withFallback(ConfigFactory.load()), WAIT);
             DuckDbOracle oracle = ClusterQueries.oracle(tables)) {
            ClusterQueries.awaitSpread(client, oracle, coordinator, nodes, WAIT);
            for (ClusterQueries.Case c : ClusterQueries.CASES) {
                try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults(), coordinator)) {
                    ClusterQueries.assertAgrees(oracle, c, stream.remaining(), coordinator);
                    System.out.println("agrees: " + c.name() + " over " + stream.nodes() + " nodes");
                }
            }
        }
    }
}
