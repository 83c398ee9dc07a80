package io.troupe.actors.api;

import io.troupe.actors.cluster.ClusterQueries;
import io.troupe.actors.exchange.InMemoryNodeLinks;
import io.troupe.cli.loadtest.TableFiles;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.profile.PartProfile;
import io.troupe.operators.profile.SpreadProfile;
import io.troupe.operators.table.Table;
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
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EXPLAIN ANALYZE of queries spread over three "nodes" that are Troupes in one JVM, over in-memory
 * streams ({@link Troupe#analyzePart}, merged into a {@link SpreadProfile}): every plan node's rows summed
 * over the nodes are what DuckDB counts for the same subquery, every node shows, and what each exchange's
 * nodes sent is what its nodes received.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SpreadAnalyzeTest {

    private static final int NODES = 3;
    private static final int WORKERS = 2;

    @TempDir
    static Path dir;
    private static DuckDbOracle oracle;
    /** Joins repartition both sides, so that a join and an aggregate each move rows between nodes. */
    private static final List<Troupe> troupes = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        ClusterQueries.writeTables(dir, 7);
        oracle = ClusterQueries.oracle(dir);
        // Chunks (morsels) of 256 rows, so that every node reads a share of orders.
        List<Table> tables = TableFiles.read(dir, 256);
        TroupeSettings settings = TroupeSettings.load().withBatchSize(256);
        settings = settings.withMemory(new TroupeSettings.Memory(settings.memory().chunkBytes(), 0,
                settings.memory().budgetBytes(), settings.memory().queryLimitBytes()));
        settings = settings.withSpread(new TroupeSettings.Spread(TroupeSettings.JoinDistribution.REPARTITION,
                settings.spread().broadcastMaxRows()));
        for (int n = 0; n < NODES; n++) {
            Troupe troupe = Troupe.start(settings);
            tables.forEach(troupe::register);
            troupes.add(troupe);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        troupes.forEach(Troupe::close);
        if (oracle != null) {
            oracle.close();
        }
    }

    @Test
    void rowsPerNodeSumToDuckDbsAndEveryExchangeReceivesWhatItSent() throws Exception {
        Plan plan = Plan.scan("orders").join(Plan.scan("customers"), JoinType.INNER,
                        col("orders.customer").eq(col("customers.id")))
                .aggregate(List.of(col("customers.region")), sum(col("orders.amount")).as("total"))
                .sort(col("total").desc());
        SpreadProfile profile = analyze(plan);
        String text = profile.render();
        String join = "FROM orders o JOIN customers c ON o.customer = c.id";
        long groups = count("SELECT count(*) FROM (SELECT c.region " + join + " GROUP BY c.region) g");
        assertEquals(count("SELECT count(*) FROM orders"), profile.find("Scan orders").total().rows(), text);
        assertEquals(count("SELECT count(*) FROM customers"), profile.find("Scan customers").total().rows(), text);
        assertEquals(count("SELECT count(*) " + join), profile.find("Hash Join").total().rows(), text);
        assertEquals(count("SELECT count(*) " + join), profile.find("Hash Aggregate").total().rowsIn(), text);
        assertEquals(groups, profile.find("Hash Aggregate").total().rows(), text);
        assertEquals(groups, profile.find("Sort").total().rows(), text);
        assertEquals(groups, profile.lines().get(0).total().rows(), text);

        assertEquals(NODES, profile.nodes());
        for (int n = 0; n < NODES; n++) {
            assertTrue(profile.find("Scan orders").node(n).rows() > 0, "node " + n + " read its share:\n" + text);
            assertTrue(text.contains("Node " + n + ": "), text);
        }
        // The sort runs on the coordinator alone.
        assertEquals(groups, profile.find("Sort").node(0).rows(), text);
        assertEquals(0, profile.find("Sort").node(1).rows() + profile.find("Sort").node(2).rows(), text);

        List<SpreadProfile.Exchange> repartitions = profile.exchanges().stream()
                .filter(e -> e.label().startsWith("Repartition")).toList();
        assertEquals(3, repartitions.size(), "both join sides and the aggregate's input:\n" + text);
        for (SpreadProfile.Exchange e : profile.exchanges()) {
            assertEquals(e.total().sentBatches(), e.total().receivedBatches(), e.label() + ":\n" + text);
            assertEquals(e.total().sentRows(), e.total().receivedRows(), e.label() + ":\n" + text);
            assertEquals(e.total().sentBytes(), e.total().receivedBytes(), e.label() + ":\n" + text);
        }
        for (SpreadProfile.Exchange e : repartitions) {
            PartProfile.Traffic sent = e.total();
            assertTrue(sent.sentBatches() > 0 && sent.sentBytes() > sent.sentRows(), e.label() + ":\n" + text);
        }
        SpreadProfile.Exchange byRegion = repartitions.stream()
                .filter(e -> e.label().equals("Repartition by hash (customers.region)")).findFirst().orElseThrow();
        for (PartProfile.Traffic t : byRegion.byNode()) {
            assertTrue(t.sentRows() > 0 && t.receivedRows() > 0, "every node sends and receives:\n" + text);
        }
        assertTrue(text.indexOf("Repartition by hash (customers.region)") < text.indexOf("Hash Join"), text);
        assertTrue(text.contains("Nodes: 3, Workers Planned: 2 per node"), text);
    }

    @Test
    void anUngroupedAggregateGathersOneRowFromEachOtherNodeNotItsInput() throws Exception {
        Plan plan = Plan.scan("orders").join(Plan.scan("customers"), JoinType.INNER,
                        col("orders.customer").eq(col("customers.id")))
                .aggregate(List.of(), Expr.count().as("n"), sum(col("orders.amount")).as("total"));
        SpreadProfile profile = analyze(plan);
        String text = profile.render();
        long joined = count("SELECT count(*) FROM orders o JOIN customers c ON o.customer = c.id");
        assertTrue(joined > NODES, text);
        assertEquals(joined, profile.find("Hash Join").total().rows(), text);
        SpreadProfile.Exchange gather = profile.exchanges().stream()
                .filter(e -> e.label().startsWith("Gather")).findFirst().orElseThrow();
        assertEquals(NODES - 1, gather.total().sentRows(), "a partial row from each node but the coordinator:\n" + text);
        assertEquals(NODES - 1, gather.total().receivedRows(), text);
        assertEquals(1, profile.lines().get(0).total().rows(), text);
    }

    /**
     * A self join on one column moves its rows once: one Repartition sends each row of orders that belongs
     * elsewhere, and the build side reads the rows that Repartition left on each node, so its own scan
     * never runs.
     */
    @Test
    void aSelfJoinMovesItsRowsOnce() throws Exception {
        Plan plan = Plan.scan("orders").as("o1").join(Plan.scan("orders").as("o2"), JoinType.INNER,
                col("o1.customer").eq(col("o2.customer"))).aggregate(List.of(), Expr.count().as("n"));
        SpreadProfile profile = analyze(plan);
        String text = profile.render();
        long orders = count("SELECT count(*) FROM orders");
        assertEquals(count("SELECT count(*) FROM orders o1 JOIN orders o2 ON o1.customer = o2.customer"),
                profile.find("Hash Join").total().rows(), text);
        List<SpreadProfile.Exchange> repartitions = profile.exchanges().stream()
                .filter(e -> e.label().startsWith("Repartition")).toList();
        assertEquals(1, repartitions.size(), text);
        assertTrue(repartitions.get(0).total().sentRows() < orders, text);
        assertEquals(orders, profile.find("Scan orders AS o1").total().rows(), text);
        assertTrue(text.contains("->  Scan orders AS o2 (never executed)\n"), text);
    }

    @Test
    void partsOfAnotherPlanDoNotMerge() {
        Plan plan = Plan.scan("orders").aggregate(List.of(col("customer")), sum(col("amount")).as("total"));
        SpreadProfile profile = analyze(plan);
        List<PartProfile> parts = new ArrayList<>(profile.parts());
        parts.set(1, new PartProfile(1, "node 1", 0, parts.get(1).lines().subList(1, parts.get(1).lines().size()),
                List.of()));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new SpreadProfile(parts, WORKERS, 0));
        assertTrue(refused.getMessage().contains("node 1 profiled other lines than node 0"), refused.getMessage());
    }

    private static long count(String sql) throws Exception {
        return ((Number) oracle.query(sql).rows().get(0).get(0)).longValue();
    }

    /** Runs every node's analyzed part of {@code plan}; a part that fails cancels the others. */
    private static SpreadProfile analyze(Plan plan) {
        InMemoryNodeLinks.Hub hub = new InMemoryNodeLinks.Hub(NODES);
        QueryOptions options = QueryOptions.defaults().withWorkers(WORKERS).withTimeout(Duration.ofSeconds(60));
        List<AnalyzedPart> parts = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            parts.add(troupes.get(n).analyzePart(plan, options, hub.node(n)));
        }
        for (AnalyzedPart part : parts) {
            part.query().result().whenComplete((r, e) -> {
                if (e != null) {
                    parts.forEach(other -> other.query().cancel("another node's part failed: " + e));
                }
            });
        }
        List<PartProfile> profiles = new ArrayList<>();
        for (AnalyzedPart part : parts) {
            profiles.add(part.awaitProfile());
        }
        assertTrue(hub.allClosed(), "every stream closed at both ends");
        return new SpreadProfile(profiles, WORKERS, profiles.get(0).executionNanos());
    }
}
