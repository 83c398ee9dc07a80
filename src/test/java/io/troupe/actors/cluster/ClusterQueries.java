package io.troupe.actors.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.troupe.actors.api.QueryOptions;
import io.troupe.cli.loadtest.TableFiles;
import io.troupe.config.ClusterSettings;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * What the client tests (TroupeClusterTest in one JVM, ClusterClientTest across JVMs) ask a cluster:
 * random tables written as the CSV files a node loads ({@code --tables}), and plans with the SQL that DuckDB answers them with. Both the nodes and the oracle
 * read the same files through {@link TableFiles}, so they hold the same rows.
 */
public final class ClusterQueries {

    /** A plan and the SQL of the same query. */
    public record Case(String name, Plan plan, String sql) {
    }

    public static final List<Case> CASES = List.of(
            new Case("filter and project",
                    Plan.scan("orders").filter(col("amount").gt(lit(new BigDecimal("500"))))
                            .project(col("id"), col("customer"), col("amount"), col("day")),
                    "SELECT id, customer, amount, day FROM orders WHERE amount > 500"),
            new Case("join",
                    Plan.scan("orders").join(Plan.scan("customers"), JoinType.INNER,
                                    col("orders.customer").eq(col("customers.id")))
                            .project(col("orders.id"), col("customers.name"), col("orders.note")),
                    "SELECT o.id, c.name, o.note FROM orders o JOIN customers c ON o.customer = c.id"),
            new Case("aggregate",
                    Plan.scan("orders").aggregate(List.of(col("customer")), sum(col("amount")).as("total"),
                            count().as("n")),
                    "SELECT customer, sum(amount), count(*) FROM orders GROUP BY customer"),
            new Case("join then aggregate",
                    Plan.scan("orders").join(Plan.scan("customers"), JoinType.INNER,
                                    col("orders.customer").eq(col("customers.id")))
                            .aggregate(List.of(col("customers.region")), sum(col("orders.amount")).as("total")),
                    "SELECT c.region, sum(o.amount) FROM orders o JOIN customers c ON o.customer = c.id"
                            + " GROUP BY c.region"),
            new Case("many batches",
                    Plan.series("x", 1, 300_000).filter(col("x").mod(lit(7L)).eq(lit(3L)))
                            .project(col("x"), col("x").times(lit(2L)).as("y")),
                    "SELECT x, x * 2 FROM generate_series(1, 300000) t(x) WHERE x % 7 = 3"));

    /** A plan that fails while it runs, with this message in its error. */
    public static final Plan FAILS_AT_RUN_TIME = Plan.scan("orders").project(col("customer").div(lit(0)).as("boom"));
    public static final String RUN_TIME_ERROR = "division by zero";
    /** A plan the node refuses before it runs. */
    public static final Plan REFUSED = Plan.scan("no_such_table");
    /** A query with far more rows than a client reads before it closes the stream. */
    public static final Plan ENDLESS = Plan.series("x", 1, 2_000_000_000L);

    private ClusterQueries() {
    }

    /** Writes orders.csv and customers.csv with rows drawn from {@code seed} into {@code dir}. */
    public static Path writeTables(Path dir, long seed) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(seed);
        int customers = 40;
        StringBuilder c = new StringBuilder("id INT32 NOT NULL,name VARCHAR,region VARCHAR\n");
        for (int i = 1; i <= customers; i++) {
            c.append(i).append(",cust-").append(i).append(',').append(random.nextInt(5) == 0 ? "" : "r" + i % 4)
                    .append('\n');
        }
        Files.writeString(dir.resolve("customers.csv"), c);
        StringBuilder o = new StringBuilder(
                "id INT64 NOT NULL,customer INT32,amount DECIMAL(9,2),day DATE,note VARCHAR\n");
        LocalDate start = LocalDate.of(2024, 1, 1);
        for (long id = 1; id <= 5_000; id++) {
            // Some customers have no row in customers (the join drops them), some amounts are NULL.
            o.append(id).append(',').append(1 + random.nextInt(customers + 5)).append(',')
                    .append(random.nextInt(20) == 0 ? "" : BigDecimal.valueOf(random.nextInt(100_000), 2))
                    .append(',').append(start.plusDays(random.nextInt(365))).append(',')
                    .append(random.nextInt(3) == 0 ? "" : "note " + random.nextInt(1000)).append('\n');
        }
        Files.writeString(dir.resolve("orders.csv"), o);
        return dir;
    }

    /** An oracle with the tables of {@code dir} loaded. */
    public static DuckDbOracle oracle(Path dir) throws SQLException {
        List<Table> tables = TableFiles.read(dir);
        DuckDbOracle oracle = new DuckDbOracle();
        oracle.load(tables);
        return oracle;
    }

    /** Fails naming the case and the node unless {@code result} has DuckDB's rows for it (as multisets). */
    public static void assertAgrees(DuckDbOracle oracle, Case c, QueryResult result, String node) throws SQLException {
        List<List<Object>> expected = oracle.query(c.sql()).rows();
        String diff = ResultComparator.compare(expected, DuckDbOracle.normalise(result.rows()), false);
        assertNull(diff, c.name() + " on node " + node + ": " + diff);
    }

    /**
     * Runs the aggregate case on {@code node} until it spreads over {@code nodes} nodes, each answer checked:
     * the client and the nodes learn of each other through the eventually consistent Receptionist, so the
     * client may not list the node at first, and the node's first queries may run on fewer.
     *
     * @throws AssertionError when it has not within {@code wait}
     */
    public static void awaitSpread(TroupeCluster client, DuckDbOracle oracle, String node, int nodes, Duration wait)
            throws Exception {
        Case c = CASES.get(2);
        long deadline = System.nanoTime() + wait.toNanos();
        while (!client.nodes().contains(node)) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("node " + node + " never took queries; these do: " + client.nodes());
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        while (true) {
            try (ClusterQueryStream stream = client.stream(c.plan(), QueryOptions.defaults(), node)) {
                assertAgrees(oracle, c, stream.remaining(), node);
                if (stream.nodes() == nodes) {
                    return;
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("node " + node + " never spread a query over " + nodes + " nodes");
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    /**
     * Starts a node in this JVM on {@code port}, joining through {@code seed}, with the media driver in
     * {@code driverDir} (empty: none), nothing preallocated, {@code more} settings, its status file in
     * {@code dir}, and the tables of {@code tables} registered.
     */
    public static TroupeNode startNode(Path dir, int port, String seed, String driverDir, Path tables,
                                       Map<String, Object> more) throws Exception {
        Map<String, Object> settings = new HashMap<>(Map.of(
                "troupe.cluster.port", port,
                "troupe.cluster.seed-nodes", List.of(seed),
                "troupe.cluster.media-driver-dir", driverDir,
                "troupe.memory.preallocate", 0));
        settings.putAll(more);
        Config config = ConfigFactory.parseMap(settings).withFallback(ConfigFactory.load());
        TroupeNode node = TroupeNode.start(TroupeSettings.from(config), ClusterSettings.from(config), config,
                dir.resolve("node-" + port + ".json"));
        TableFiles.read(tables).forEach(node.troupe()::register);
        return node;
    }

    /** A client joined through {@code seed}, waiting at most {@code wait}. */
    public static TroupeCluster connect(String seed, Duration wait) throws InterruptedException {
        return TroupeCluster.connect(ConfigFactory.parseMap(Map.of("troupe.cluster.seed-nodes", List.of(seed)))
                .withFallback(ConfigFactory.load()), wait);
    }
}
