package io.troupe.actors.api;

import io.troupe.actors.cluster.ClusterQueries;
import io.troupe.actors.exchange.InMemoryNodeLinks;
import io.troupe.cli.loadtest.TableFiles;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.troupe.operators.plan.Expr.avg;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.countDistinct;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.max;
import static io.troupe.operators.plan.Expr.min;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queries spread over three "nodes" that are Troupes in one JVM ({@link Troupe#submitPart}), their
 * rows moving between nodes over in-memory streams ({@link InMemoryNodeLinks}): every plan shape the
 * spread plan handles (broadcast joins, repartitioned aggregates, gathered global aggregates, sorts,
 * limits, RIGHT and FULL joins, count(DISTINCT)'s tee, shared subplans), checked against DuckDB.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SpreadQueryTest {

    private static final int NODES = 3;
    private static final Duration PART_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static DuckDbOracle oracle;
    /** The nodes, every join broadcasting its build side ({@code troupe.spread.join = broadcast}). */
    private static final List<Troupe> troupes = new ArrayList<>();
    /** The same nodes, but every join repartitions both sides ({@code troupe.spread.join = repartition}). */
    private static final List<Troupe> repartitioning = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        ClusterQueries.writeTables(dir, 42);
        oracle = ClusterQueries.oracle(dir);
        List<Table> tables = TableFiles.read(dir);
        TroupeSettings settings = TroupeSettings.load().withBatchSize(256);
        settings = settings.withMemory(new TroupeSettings.Memory(settings.memory().chunkBytes(), 0,
                settings.memory().budgetBytes(), settings.memory().queryLimitBytes()));
        TroupeSettings broadcast = settings.withSpread(new TroupeSettings.Spread(
                TroupeSettings.JoinDistribution.BROADCAST, settings.spread().broadcastMaxRows()));
        TroupeSettings repartition = settings.withSpread(new TroupeSettings.Spread(
                TroupeSettings.JoinDistribution.REPARTITION, settings.spread().broadcastMaxRows()));
        for (int n = 0; n < NODES; n++) {
            troupes.add(Troupe.start(broadcast));
            repartitioning.add(Troupe.start(repartition));
        }
        for (Troupe troupe : troupes) {
            tables.forEach(troupe::register);
        }
        for (Troupe troupe : repartitioning) {
            tables.forEach(troupe::register);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        troupes.forEach(Troupe::close);
        repartitioning.forEach(Troupe::close);
        if (oracle != null) {
            oracle.close();
        }
    }

    static Stream<ClusterQueries.Case> cases() {
        Plan joined = Plan.scan("orders").join(Plan.scan("customers"), JoinType.INNER,
                col("orders.customer").eq(col("customers.id")));
        List<ClusterQueries.Case> more = List.of(
                new ClusterQueries.Case("global aggregate",
                        Plan.scan("orders").aggregate(List.of(), count().as("n"), sum(col("amount")).as("total")),
                        "SELECT count(*), sum(amount) FROM orders"),
                new ClusterQueries.Case("global aggregates over a join, merged from every node's partial row",
                        joined.aggregate(List.of(), count().as("n"), count(col("orders.note")).as("notes"),
                                sum(col("orders.amount")).as("total"), min(col("orders.note")).as("first"),
                                max(col("orders.day")).as("last"), min(col("customers.id")).as("low")),
                        "SELECT count(*), count(o.note), sum(o.amount), min(o.note), max(o.day), min(c.id)"
                                + " FROM orders o JOIN customers c ON o.customer = c.id"),
                new ClusterQueries.Case("global aggregates of nothing, merged",
                        joined.filter(col("orders.id").lt(lit(0L))).aggregate(List.of(), count().as("n"),
                                sum(col("orders.amount")).as("total"), max(col("orders.note")).as("last")),
                        "SELECT count(*), sum(o.amount), max(o.note) FROM orders o JOIN customers c"
                                + " ON o.customer = c.id WHERE o.id < 0"),
                new ClusterQueries.Case("a global average beside a count, gathered whole",
                        Plan.scan("orders").aggregate(List.of(), avg(col("amount")).as("mean"), count().as("n")),
                        "SELECT avg(amount), count(*) FROM orders"),
                new ClusterQueries.Case("global aggregate of nothing",
                        Plan.scan("orders").filter(col("id").lt(lit(0L))).aggregate(List.of(), count().as("n")),
                        "SELECT count(*) FROM orders WHERE id < 0"),
                new ClusterQueries.Case("right join",
                        Plan.scan("orders").join(Plan.scan("customers"), JoinType.RIGHT,
                                col("orders.customer").eq(col("customers.id")))
                                .project(col("orders.id"), col("customers.id")),
                        "SELECT o.id, c.id FROM orders o RIGHT JOIN customers c ON o.customer = c.id"),
                new ClusterQueries.Case("full join",
                        Plan.scan("customers").join(Plan.scan("orders"), JoinType.FULL,
                                col("customers.id").eq(col("orders.customer")))
                                .project(col("orders.id"), col("customers.id")),
                        "SELECT o.id, c.id FROM customers c FULL JOIN orders o ON o.customer = c.id"),
                new ClusterQueries.Case("anti join",
                        Plan.scan("orders").join(Plan.scan("customers"), JoinType.ANTI,
                                col("orders.customer").eq(col("customers.id"))).project(col("orders.id")),
                        "SELECT o.id FROM orders o WHERE NOT EXISTS"
                                + " (SELECT 1 FROM customers c WHERE o.customer = c.id)"),
                new ClusterQueries.Case("a limit over a join",
                        joined.limit(1_000_000).project(col("orders.id")),
                        "SELECT o.id FROM orders o JOIN customers c ON o.customer = c.id"),
                new ClusterQueries.Case("limit",
                        Plan.scan("orders").filter(col("amount").gt(lit(new java.math.BigDecimal("900"))))
                                .limit(1_000_000).project(col("id")),
                        "SELECT id FROM orders WHERE amount > 900"),
                new ClusterQueries.Case("distinct",
                        Plan.scan("orders").project(col("customer"), col("note").isNull().as("no_note")).distinct(),
                        "SELECT DISTINCT customer, note IS NULL FROM orders"),
                new ClusterQueries.Case("count distinct beside others",
                        Plan.scan("orders").aggregate(List.of(col("day")), countDistinct(col("customer")).as("c"),
                                max(col("amount")).as("m")),
                        "SELECT day, count(DISTINCT customer), max(amount) FROM orders GROUP BY day"),
                new ClusterQueries.Case("aggregate over a join, then a join",
                        joined.aggregate(List.of(col("customers.region")), sum(col("orders.amount")).as("total"))
                                .join(Plan.scan("customers"), JoinType.INNER, col("region").eq(col("customers.region")))
                                .project(col("customers.id"), col("total")),
                        "SELECT c2.id, t.total FROM (SELECT c.region, sum(o.amount) AS total FROM orders o"
                                + " JOIN customers c ON o.customer = c.id GROUP BY c.region) t"
                                + " JOIN customers c2 ON t.region = c2.region"),
                new ClusterQueries.Case("a self join on one key with a residual, counted (TPC-DS q95's shape)",
                        Plan.scan("orders").as("o1").join(Plan.scan("orders").as("o2"), JoinType.INNER,
                                        col("o1.customer").eq(col("o2.customer")).and(col("o1.id").ne(col("o2.id"))))
                                .aggregate(List.of(), count().as("n"), max(col("o2.id")).as("last")),
                        "SELECT count(*), max(o2.id) FROM orders o1 JOIN orders o2"
                                + " ON o1.customer = o2.customer AND o1.id <> o2.id"),
                new ClusterQueries.Case("a full self join on its unique key with a residual",
                        Plan.scan("orders").as("o1").join(Plan.scan("orders").as("o2"), JoinType.FULL,
                                        col("o1.id").eq(col("o2.id"))
                                                .and(col("o1.amount").gt(lit(new java.math.BigDecimal("500")))))
                                .project(col("o1.id"), col("o2.id")),
                        "SELECT o1.id, o2.id FROM orders o1 FULL JOIN orders o2 ON o1.id = o2.id AND o1.amount > 500"),
                new ClusterQueries.Case("an anti self join of projections on a nullable key",
                        customerRegions("c1").join(customerRegions("c2"), JoinType.ANTI,
                                        col("c1.region").eq(col("c2.region")).and(col("c1.id").lt(col("c2.id"))))
                                .project(col("c1.id")),
                        "SELECT c1.id FROM customers c1 WHERE NOT EXISTS"
                                + " (SELECT 1 FROM customers c2 WHERE c1.region = c2.region AND c1.id < c2.id)"),
                new ClusterQueries.Case("shared subplan read twice",
                        shared().unionAll(shared().filter(col("customer").lt(lit(10)))),
                        "WITH s AS (SELECT id, customer FROM orders WHERE amount > 700)"
                                + " SELECT * FROM s UNION ALL SELECT * FROM s WHERE customer < 10"));
        return Stream.concat(ClusterQueries.CASES.stream(), more.stream());
    }

    private static Plan customerRegions(String alias) {
        return Plan.scan("customers").as(alias).project(col(alias + ".id"), col(alias + ".region"));
    }

    private static Plan sharedSubplan;

    private static Plan shared() {
        if (sharedSubplan == null) {
            sharedSubplan = Plan.scan("orders").filter(col("amount").gt(lit(new java.math.BigDecimal("700"))))
                    .project(col("id"), col("customer")).share("s");
        }
        return sharedSubplan;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void spreadQueryReturnsDuckDbsRows(ClusterQueries.Case c) throws Exception {
        List<List<Object>> expected = oracle.query(c.sql()).rows();
        for (int workers : new int[] {1, 2}) {
            for (List<Troupe> nodes : List.of(troupes, repartitioning)) {
                QueryResult result = runSpread(nodes, c.plan(), QueryOptions.defaults().withWorkers(workers));
                String diff = ResultComparator.compare(expected, DuckDbOracle.normalise(result.rows()), false);
                assertNull(diff, c.name() + " spread over " + NODES + " nodes, " + workers + " workers each, joins "
                        + nodes.get(0).settings().spread().join() + ": " + diff);
            }
        }
    }

    @Test
    void aRepartitionedJoinSpreadsEvenARightJoinAndExplainSaysSo() {
        Plan plan = Plan.scan("orders").join(Plan.scan("customers"), JoinType.RIGHT,
                col("orders.customer").eq(col("customers.id")));
        String explain = repartitioning.get(0).explainSpread(plan, QueryOptions.defaults(), NODES);
        assertTrue(explain.contains("Repartition by hash (orders.customer)"), explain);
        assertTrue(explain.contains("Repartition by hash (customers.id)"), explain);
        assertTrue(!explain.contains("sent from the coordinator") && !explain.contains("Broadcast"), explain);
        // Broadcast, the RIGHT join probes on the coordinator alone, so its build side gathers there.
        String broadcast = troupes.get(0).explainSpread(plan, QueryOptions.defaults(), NODES);
        assertTrue(broadcast.contains("sent from the coordinator") && !broadcast.contains("Repartition"), broadcast);
        // auto: a RIGHT join repartitions; a small build side of an INNER join is broadcast.
        try (Troupe auto = Troupe.start(TroupeSettings.load().withMemory(troupes.get(0).settings().memory()))) {
            TableFiles.read(dir).forEach(auto::register);
            assertTrue(auto.explainSpread(plan, QueryOptions.defaults(), NODES).contains("Repartition by hash"));
            String inner = auto.explainSpread(ClusterQueries.CASES.get(1).plan(), QueryOptions.defaults(), NODES);
            assertTrue(inner.contains("Broadcast") && !inner.contains("Repartition"), inner);
        }
    }

    /**
     * A self join on one column repartitions its rows once: the build side reads each node's kept share
     * of the probe side (EXPLAIN's Forward), which halves what crosses; a self join on two different
     * columns moves both sides.
     */
    @Test
    void aSelfJoinOnOneColumnRepartitionsItsRowsOnce() {
        Plan self = Plan.scan("orders").as("o1").join(Plan.scan("orders").as("o2"), JoinType.INNER,
                col("o1.customer").eq(col("o2.customer")));
        String explain = repartitioning.get(0).explainSpread(self, QueryOptions.defaults(), NODES);
        assertEquals(1, explain.split("Repartition by hash", -1).length - 1, explain);
        assertTrue(explain.contains("Forward (the probe side's repartition, reused"), explain);
        Plan otherColumns = Plan.scan("customers").as("c1").join(Plan.scan("customers").as("c2"), JoinType.INNER,
                col("c1.name").eq(col("c2.region")));
        Plan otherRows = Plan.scan("orders").as("o1").join(
                Plan.scan("orders").as("o2").filter(col("o2.amount").isNotNull()), JoinType.INNER,
                col("o1.customer").eq(col("o2.customer")));
        for (Plan plan : List.of(otherColumns, otherRows)) {
            String both = repartitioning.get(0).explainSpread(plan, QueryOptions.defaults(), NODES);
            assertEquals(2, both.split("Repartition by hash", -1).length - 1, both);
            assertTrue(!both.contains("reused"), both);
        }
    }

    @Test
    void aLimitPassesExactlyItsCountFromEveryNodesRows() throws Exception {
        Plan plan = Plan.scan("orders").limit(100, 7).project(col("id"));
        for (List<Troupe> nodes : List.of(troupes, repartitioning)) {
            QueryResult result = runSpread(nodes, plan, QueryOptions.defaults().withWorkers(2));
            assertEquals(100, result.rowCount());
            List<List<Object>> all = oracle.query("SELECT id FROM orders").rows();
            assertTrue(all.containsAll(DuckDbOracle.normalise(result.rows())), "rows of orders, each once");
            assertEquals(100, DuckDbOracle.normalise(result.rows()).stream().distinct().count());
        }
        String explain = troupes.get(0).explainSpread(plan, QueryOptions.defaults(), NODES);
        assertTrue(explain.contains("Gather to the coordinator") && explain.contains("sent from every node"), explain);
    }

    @Test
    void partitionedTablesEachNodeHoldingItsPartAnswerAsDuckDbDoes() throws Exception {
        List<Troupe> partitioned = new ArrayList<>();
        try {
            TroupeSettings auto = troupes.get(0).settings().withSpread(new TroupeSettings.Spread(
                    TroupeSettings.JoinDistribution.AUTO, 100_000));
            for (int n = 0; n < NODES; n++) {
                Troupe troupe = Troupe.start(auto);
                partitioned.add(troupe);
                for (Table table : TableFiles.read(dir)) {
                    // orders by the hash of its join key, customers round robin: the joins must move rows.
                    String column = table.name().equals("orders") ? "customer" : null;
                    troupe.register(table.part(new Table.Part(n, NODES, column)));
                }
            }
            List<ClusterQueries.Case> all = cases().toList();
            for (ClusterQueries.Case c : all) {
                QueryResult result = runSpread(partitioned, c.plan(), QueryOptions.defaults().withWorkers(2));
                String diff = ResultComparator.compare(oracle.query(c.sql()).rows(),
                        DuckDbOracle.normalise(result.rows()), false);
                assertNull(diff, c.name() + " over partitioned tables: " + diff);
            }
            // Broadcast, a RIGHT join probes on the coordinator alone, which holds a part of orders only.
            try (Troupe broadcast = Troupe.start(troupes.get(0).settings())) {
                broadcast.register(TableFiles.read(dir).get(1).part(new Table.Part(0, NODES, "customer")));
                TableFiles.read(dir).stream().filter(t -> t.name().equals("customers")).forEach(broadcast::register);
                IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                        () -> broadcast.explainSpread(Plan.scan("orders").join(Plan.scan("customers"), JoinType.RIGHT,
                                col("orders.customer").eq(col("customers.id"))), QueryOptions.defaults(), NODES));
                assertTrue(refused.getMessage().contains("partitioned across the nodes"), refused.getMessage());
            }
        } finally {
            partitioned.forEach(Troupe::close);
        }
    }

    /**
     * Orders partitioned by the hash of customer and customers by the hash of id: a join on those keys and
     * an aggregate or DISTINCT by customer need no exchange (EXPLAIN shows the Forward), and every case,
     * co-located or not, answers as DuckDB does.
     */
    @Test
    void coLocatedInputsJoinAndGroupWhereTheyAre() throws Exception {
        List<Troupe> partitioned = new ArrayList<>();
        try {
            for (int n = 0; n < NODES; n++) {
                Troupe troupe = Troupe.start(troupes.get(0).settings().withSpread(new TroupeSettings.Spread(
                        TroupeSettings.JoinDistribution.AUTO, 100_000)));
                partitioned.add(troupe);
                for (Table table : TableFiles.read(dir)) {
                    String column = table.name().equals("orders") ? "customer" : "id";
                    troupe.register(table.part(new Table.Part(n, NODES, column)));
                }
            }
            List<ClusterQueries.Case> coLocated = new ArrayList<>();
            for (JoinType type : List.of(JoinType.INNER, JoinType.LEFT, JoinType.RIGHT, JoinType.FULL)) {
                coLocated.add(new ClusterQueries.Case(type + " join on the partition columns",
                        Plan.scan("orders").filter(col("amount").isNotNull())
                                .join(Plan.scan("customers"), type, col("orders.customer").eq(col("customers.id")))
                                .project(col("orders.id"), col("customers.name")),
                        "SELECT o.id, c.name FROM (SELECT * FROM orders WHERE amount IS NOT NULL) o " + type
                                + " JOIN customers c ON o.customer = c.id"));
            }
            coLocated.add(new ClusterQueries.Case("aggregate by the partition column, renamed",
                    Plan.scan("orders").project(col("customer").as("who"), col("amount"))
                            .aggregate(List.of(col("who")), sum(col("amount")).as("total"), count().as("n")),
                    "SELECT customer, sum(amount), count(*) FROM orders GROUP BY customer"));
            coLocated.add(new ClusterQueries.Case("distinct on the partition column and another",
                    Plan.scan("orders").project(col("customer"), col("day")).distinct(),
                    "SELECT DISTINCT customer, day FROM orders"));
            for (ClusterQueries.Case c : coLocated) {
                String explain = partitioned.get(0).explainSpread(c.plan(), QueryOptions.defaults(), NODES);
                assertTrue(explain.contains("Forward (co-located: partitioned by hash of"), c.name() + ":\n" + explain);
                assertTrue(!explain.contains("Repartition") && !explain.contains("Broadcast"), c.name() + ":\n" + explain);
            }
            List<ClusterQueries.Case> all = new ArrayList<>(coLocated);
            cases().forEach(all::add);
            for (ClusterQueries.Case c : all) {
                QueryResult result = runSpread(partitioned, c.plan(), QueryOptions.defaults().withWorkers(2));
                String diff = ResultComparator.compare(oracle.query(c.sql()).rows(),
                        DuckDbOracle.normalise(result.rows()), false);
                assertNull(diff, c.name() + " over co-located tables: " + diff);
            }
        } finally {
            partitioned.forEach(Troupe::close);
        }
    }

    @Test
    void orderedResultKeepsItsOrder() throws Exception {
        Plan plan = Plan.scan("orders").filter(col("amount").isNotNull())
                .sort(col("amount").desc(), col("id").asc()).limit(100, 5).project(col("id"), col("amount"));
        QueryResult result = runSpread(plan, QueryOptions.defaults().withWorkers(2));
        List<List<Object>> expected = oracle.query(
                "SELECT id, amount FROM orders WHERE amount IS NOT NULL ORDER BY amount DESC, id LIMIT 100 OFFSET 5").rows();
        assertNull(ResultComparator.compare(expected, DuckDbOracle.normalise(result.rows()), true));
    }

    @Test
    void aFailingPartFailsAndEveryPartReleasesItsStreams() {
        InMemoryNodeLinks.Hub hub = new InMemoryNodeLinks.Hub(NODES);
        List<RunningQuery> parts = start(ClusterQueries.FAILS_AT_RUN_TIME, QueryOptions.defaults().withWorkers(2), hub);
        RuntimeException failed = assertThrows(RuntimeException.class, () -> parts.get(0).await());
        assertTrue(String.valueOf(failed.getMessage()).contains(ClusterQueries.RUN_TIME_ERROR)
                || String.valueOf(failed.getMessage()).contains("another node's part failed"), failed.getMessage());
        for (RunningQuery part : parts) {
            // Ended either way: failed, cancelled, or done before the failure reached it.
            part.result().handle((r, e) -> null).join();
        }
        assertTrue(hub.allClosed(), "every stream closed at both ends");
    }

    @Test
    void everyStreamIsClosedAfterASpreadQuery() throws Exception {
        InMemoryNodeLinks.Hub hub = new InMemoryNodeLinks.Hub(NODES);
        List<RunningQuery> parts = start(ClusterQueries.CASES.get(3).plan(), QueryOptions.defaults().withWorkers(2), hub);
        for (RunningQuery part : parts) {
            part.await();
        }
        assertTrue(hub.streams() > 0, "rows crossed nodes");
        assertTrue(hub.allClosed(), "every stream closed at both ends");
        for (int n = 1; n < NODES; n++) {
            assertEquals(0, parts.get(n).await().rowCount(), "node " + n + " holds no result rows");
        }
    }

    @Test
    void theCoordinatorStreamsEveryNodesRowsAndAnEarlyCloseEndsEveryPart() throws Exception {
        ClusterQueries.Case c = ClusterQueries.CASES.get(4);
        InMemoryNodeLinks.Hub hub = new InMemoryNodeLinks.Hub(NODES);
        List<RunningQuery> others = new ArrayList<>();
        QueryResult streamed;
        try (QueryStream stream = troupes.get(0).streamPart(c.plan(), QueryOptions.defaults().withWorkers(2),
                hub.node(0))) {
            for (int n = 1; n < NODES; n++) {
                others.add(troupes.get(n).submitPart(c.plan(), QueryOptions.defaults().withWorkers(2), hub.node(n)));
            }
            streamed = stream.remaining();
        }
        assertNull(ResultComparator.compare(oracle.query(c.sql()).rows(), DuckDbOracle.normalise(streamed.rows()),
                false));
        others.forEach(RunningQuery::await);

        InMemoryNodeLinks.Hub early = new InMemoryNodeLinks.Hub(NODES);
        List<RunningQuery> parts = new ArrayList<>();
        try (QueryStream stream = troupes.get(0).streamPart(ClusterQueries.ENDLESS,
                QueryOptions.defaults().withWorkers(2), early.node(0))) {
            for (int n = 1; n < NODES; n++) {
                parts.add(troupes.get(n).submitPart(ClusterQueries.ENDLESS, QueryOptions.defaults().withWorkers(2),
                        early.node(n)));
            }
            assertTrue(stream.next().size() > 0);
        }
        // The other parts go on until told: the cluster cancels them when the coordinator's part ends.
        parts.forEach(p -> p.cancel("the coordinator's stream closed"));
        for (RunningQuery part : parts) {
            part.result().handle((r, e) -> null).join();
        }
        assertTrue(early.allClosed(), "every stream closed at both ends");
        assertThrows(IllegalArgumentException.class, () -> troupes.get(1).streamPart(c.plan(),
                QueryOptions.defaults(), new InMemoryNodeLinks.Hub(NODES).node(1)));
    }

    @Test
    void explainDrawsEveryExchangeBetweenNodes() {
        Plan plan = Plan.scan("orders").join(Plan.scan("customers"), JoinType.INNER,
                        col("orders.customer").eq(col("customers.id")))
                .aggregate(List.of(col("customers.region")), sum(col("orders.amount")).as("total"))
                .sort(col("total").desc());
        String explain = troupes.get(0).explainSpread(plan, QueryOptions.defaults().withWorkers(2), NODES);
        assertTrue(explain.contains("Broadcast"), explain);
        assertTrue(explain.contains("Repartition by hash (customers.region)"), explain);
        assertTrue(explain.contains("Gather to the coordinator"), explain);
        assertTrue(explain.contains("Nodes: 3, sent from every node"), explain);
        // The sort's input gathers: it sorts on the coordinator, above the Gather.
        assertTrue(explain.indexOf("Gather to the coordinator") < explain.indexOf("Sort"), explain);
        assertTrue(explain.indexOf("Broadcast") < explain.indexOf("Scan customers"), explain);
        assertThrows(IllegalArgumentException.class, () -> troupes.get(0).explainSpread(plan,
                QueryOptions.defaults(), 1));

        // An ungrouped aggregate's partial rows, one a node, are what gathers: drawn above it, not above the join.
        Plan counted = Plan.scan("orders").join(Plan.scan("customers"), JoinType.INNER,
                col("orders.customer").eq(col("customers.id"))).aggregate(List.of(), count().as("n"));
        String partial = troupes.get(0).explainSpread(counted, QueryOptions.defaults(), NODES);
        int aggregate = partial.indexOf("Hash Aggregate count(*)");
        assertTrue(aggregate > 0, partial);
        assertTrue(partial.substring(0, aggregate).contains("Nodes: 3, sent from every node"), partial);
        assertTrue(!partial.substring(aggregate).contains("Gather"), partial);
    }

    /** Runs {@code plan} on every node and returns the coordinator's result. */
    private static QueryResult runSpread(Plan plan, QueryOptions options) {
        return runSpread(troupes, plan, options);
    }

    /** Runs {@code plan} on every one of {@code nodes} and returns the coordinator's result. */
    static QueryResult runSpread(List<Troupe> nodes, Plan plan, QueryOptions options) {
        List<RunningQuery> parts = start(nodes, plan, options, new InMemoryNodeLinks.Hub(NODES));
        QueryResult result = parts.get(0).await();
        for (int n = 1; n < NODES; n++) {
            parts.get(n).await();
        }
        return result;
    }

    /** Starts every node's part; a part that fails cancels the others, as a cluster's coordinator does. */
    private static List<RunningQuery> start(Plan plan, QueryOptions options, InMemoryNodeLinks.Hub hub) {
        return start(troupes, plan, options, hub);
    }

    private static List<RunningQuery> start(List<Troupe> nodes, Plan plan, QueryOptions options,
                                            InMemoryNodeLinks.Hub hub) {
        List<RunningQuery> parts = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            parts.add(nodes.get(n).submitPart(plan, options.withTimeout(PART_TIMEOUT), hub.node(n)));
        }
        for (RunningQuery part : parts) {
            part.result().whenComplete((r, e) -> {
                if (e != null) {
                    parts.forEach(other -> other.cancel("another node's part failed: " + e));
                }
            });
        }
        return parts;
    }
}
