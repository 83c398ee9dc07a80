package io.troupe.oracle;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.RunningQuery;
import io.troupe.actors.api.Troupe;
import io.troupe.actors.exchange.InMemoryNodeLinks;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.fragment.SpreadPlan;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.oracle.RandomPlans.Case;
import io.troupe.oracle.RandomTables.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The randomized differential test of queries spread over nodes ({@link Troupe#submitPart}): the random
 * plans of {@link DifferentialTest}, each run over {@value #NODES} Troupes in this JVM joined by
 * in-memory streams ({@link InMemoryNodeLinks}) and compared with DuckDB as DifferentialTest compares
 * (as multisets, in order under a total sort, as a subset under a bare LIMIT). Every stream must be
 * closed at both ends once the query ended, and the nodes other than the coordinator return no rows.
 *
 * <ul>
 *   <li>{@code -Dtroupe.spread.plans=N}: how many plans (default {@value #DEFAULT_PLANS}, about a minute
 *       here).</li>
 *   <li>{@code -Dtroupe.spread.seed=S}: replays just the case with seed S (as a failure prints it).</li>
 *   <li>{@code -Dtroupe.spread.run.seed=R}: replays the whole run with run seed R (as the run prints it
 *       first, and a failure too). Without it each run draws a new run seed.</li>
 *   <li>{@code -Dtroupe.features}: as in {@link DifferentialTest}.</li>
 * </ul>
 *
 * <p>Case seeds are DifferentialTest's ({@link DifferentialTest#caseSeed}): case S here generates the plan
 * of DifferentialTest's case S, so {@code -Dtest=DifferentialTest -Dtroupe.seed=S} tells whether a
 * failure is the spread's. A world's cases share its {@value #NODES} Troupes, started when it loads with
 * the world's batch size, a small one drawn from the world's seed (1 to 256 rows), so that a table's rows
 * cross nodes in many batches; each case draws 1 or 2 workers a node. Every node's part runs under a
 * timeout, a part that fails cancels the others, and the case waits for all of them a bounded time.
 */
class SpreadDifferentialTest {

    private static final int NODES = 3;
    private static final int DEFAULT_PLANS = 300;
    private static final int[] BATCH_SIZES = {1, 2, 3, 7, 16, 64, 256};
    private static final Duration PART_TIMEOUT = Duration.ofSeconds(60);
    /** Beyond the parts' own timeout, how long a case waits for every part to end before it cancels them. */
    private static final Duration END_GRACE = Duration.ofSeconds(30);

    private static DuckDbOracle oracle;
    private static FeatureSet features;
    private static World loadedWorld;
    /** Whether the loaded world's tables are partitioned across the nodes. */
    private static boolean partitionedWorld;
    /** The loaded world's nodes, node 0 the coordinator; closed with the world. */
    private static final List<Troupe> NODE_TROUPES = new ArrayList<>();
    private static final Map<String, Integer> COVERAGE = new ConcurrentHashMap<>();
    /** Cases per executor setting (workers a node, batch size), for the report. */
    private static final Map<String, Integer> EXECUTORS = new ConcurrentSkipListMap<>();
    private static final AtomicInteger CASES = new AtomicInteger();
    private static final AtomicInteger SKIPPED = new AtomicInteger();
    /** Cases whose rows crossed nodes (opened a stream between two): all but those the coordinator runs alone. */
    private static final AtomicInteger CROSSED = new AtomicInteger();
    /** Cases over tables partitioned across the nodes, and of those the ones with an input co-located. */
    private static final AtomicInteger OVER_PARTS = new AtomicInteger();
    private static final AtomicInteger CO_LOCATED = new AtomicInteger();
    /** Cases a spread query over partitioned tables refuses (a pipeline on the coordinator would scan one). */
    private static final AtomicInteger REFUSED = new AtomicInteger();
    /** The run seed of this run's cases, for the replay line of a failure; null when one case is replayed. */
    private static Long runSeed;

    @BeforeAll
    static void start() throws SQLException {
        features = FeatureSet.fromSpec(System.getProperty("troupe.features"));
        oracle = new DuckDbOracle();
        System.out.println("Spread differential test over " + NODES + " nodes against DuckDB; features: " + features);
    }

    @AfterAll
    static void stop() throws SQLException {
        System.out.println("Ran " + CASES.get() + " spread cases (" + SKIPPED.get() + " regenerated: result above "
                + DifferentialCases.MAX_RESULT_ROWS + " rows; " + CROSSED.get() + " moved rows between nodes; "
                + OVER_PARTS.get() + " over partitioned tables, " + CO_LOCATED.get() + " of them with a co-located"
                + " input, " + REFUSED.get() + " more refused there: a pipeline on the coordinator would scan one);"
                + " generated:\n" + RandomPlans.coverageReport(COVERAGE)
                + "executor settings (cases): " + EXECUTORS);
        closeNodes();
        if (oracle != null) {
            oracle.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> spreadPlansAgreeWithDuckDb() {
        String replay = System.getProperty("troupe.spread.seed");
        if (replay != null && !replay.isBlank()) {
            long seed = Long.decode(replay.trim());
            return Stream.of(DynamicTest.dynamicTest("seed " + seed, () -> runCase(seed)));
        }
        int plans = Integer.getInteger("troupe.spread.plans", DEFAULT_PLANS);
        String given = System.getProperty("troupe.spread.run.seed");
        long run = given == null || given.isBlank() ? ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE
                : Long.decode(given.trim());
        runSeed = run;
        System.out.println("SpreadDifferentialTest: " + plans + " plans over " + NODES + " nodes, run seed " + run
                + " (replay the run: " + replayRun() + ")");
        Stream<DynamicTest> cases = IntStream.range(0, plans).mapToObj(i -> {
            long seed = DifferentialTest.caseSeed(run, i);
            return DynamicTest.dynamicTest("case " + i + ", seed " + seed, () -> runCase(seed));
        });
        // Last (dynamic tests run in order): a run whose cases all regenerated past their attempts checked nothing.
        // and one whose rows never left their node tested no spreading.
        return Stream.concat(cases, Stream.of(DynamicTest.dynamicTest("most cases ran, across nodes", () -> {
            assertTrue(CASES.get() >= plans / 2, CASES.get() + " of " + plans + " cases ran");
            assertTrue(CROSSED.get() >= CASES.get() / 2, CROSSED.get() + " of " + CASES.get() + " cases moved rows");
        })));
    }

    private static String replayRun() {
        Integer plans = Integer.getInteger("troupe.spread.plans");
        return "mvn -B -q test -Dtest=SpreadDifferentialTest -Dtroupe.spread.run.seed=" + runSeed
                + (plans == null ? "" : " -Dtroupe.spread.plans=" + plans);
    }

    private static void runCase(long seed) throws SQLException {
        World world = world(seed >>> 16);
        int workers = 1 + (int) ((DifferentialTest.mix(seed ^ 0x5b7ead) >>> 44) & 1);
        Troupe coordinator = NODE_TROUPES.get(SpreadPlan.COORDINATOR);
        String header = header(seed, workers);
        Case c = DifferentialCases.generate(seed, world, features, coordinator.catalog(), COVERAGE, oracle, SKIPPED,
                header, SpreadDifferentialTest::explain);
        if (c == null) {
            return;
        }
        if (partitionedWorld) {
            String spread;
            try {
                spread = coordinator.explainSpread(c.plan(), QueryOptions.defaults().withWorkers(workers), NODES);
            } catch (IllegalArgumentException e) {
                if (!String.valueOf(e.getMessage()).contains("partitioned across the nodes")) {
                    throw e;
                }
                REFUSED.incrementAndGet();
                return;
            }
            OVER_PARTS.incrementAndGet();
            if (spread.contains("Forward (co-located")) {
                CO_LOCATED.incrementAndGet();
            }
        }
        CASES.incrementAndGet();
        EXECUTORS.merge("workers " + workers + " batch " + coordinator.settings().batchSize(), 1, Integer::sum);
        DuckDbOracle.Result expected = oracle.query(c.sql());
        InMemoryNodeLinks.Hub hub = new InMemoryNodeLinks.Hub(NODES);
        QueryResult actual;
        try {
            actual = runSpread(c.plan(), QueryOptions.defaults().withWorkers(workers), hub);
        } catch (RuntimeException | AssertionError e) {
            fail(report(header, c, "Troupe failed where DuckDB returned " + expected.rows().size() + " rows:\n"
                    + DifferentialCases.stackTrace(e)));
            return;
        }
        if (hub.streams() > 0) {
            CROSSED.incrementAndGet();
        }
        String diff = DifferentialCases.diff(expected, actual, c);
        if (diff == null && !hub.allClosed()) {
            diff = "the query ended with streams between nodes still open";
        }
        if (diff != null) {
            fail(report(header, c, diff));
        }
    }

    /**
     * Runs {@code plan} on every node and returns the coordinator's result, after every part ended: the
     * first failure, the coordinator's first; a part that fails cancels the others.
     */
    private static QueryResult runSpread(Plan plan, QueryOptions options, InMemoryNodeLinks.Hub hub) {
        List<RunningQuery> parts = new ArrayList<>();
        try {
            for (int n = 0; n < NODES; n++) {
                parts.add(NODE_TROUPES.get(n).submitPart(plan, options.withTimeout(PART_TIMEOUT), hub.node(n)));
            }
        } catch (RuntimeException e) {
            parts.forEach(part -> part.cancel("another node's part did not start: " + e));
            throw e;
        }
        for (RunningQuery part : parts) {
            part.result().whenComplete((r, e) -> {
                if (e != null) {
                    parts.forEach(other -> other.cancel("another node's part failed: " + e));
                }
            });
        }
        CompletableFuture<?>[] results = parts.stream().map(RunningQuery::result).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(results).get(PART_TIMEOUT.plus(END_GRACE).toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            parts.forEach(part -> part.cancel("the test's wait for every part ran out"));
            throw new AssertionError("not every part ended within " + PART_TIMEOUT.plus(END_GRACE), e);
        } catch (ExecutionException e) {
            // A part failed: every part has ended; await below says which failure.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            parts.forEach(part -> part.cancel("the test was interrupted"));
            throw new AssertionError("interrupted", e);
        }
        QueryResult result = parts.get(SpreadPlan.COORDINATOR).await();
        for (int n = 1; n < NODES; n++) {
            long rows = parts.get(n).await().rowCount();
            if (rows != 0) {
                throw new AssertionError("node " + n + " returned " + rows + " rows: the coordinator alone makes the"
                        + " result");
            }
        }
        return result;
    }

    /** The plan's EXPLAIN on the coordinator, in one JVM and spread over the nodes. */
    private static String explain(Plan plan) {
        Troupe coordinator = NODE_TROUPES.get(SpreadPlan.COORDINATOR);
        return coordinator.explain(plan) + "-- spread over " + NODES + " nodes:\n"
                + coordinator.explainSpread(plan, QueryOptions.defaults(), NODES);
    }

    /** The world of {@code worldSeed}, loaded into the oracle and into fresh nodes with the world's batch size. */
    private static World world(long worldSeed) throws SQLException {
        if (loadedWorld == null || loadedWorld.seed() != worldSeed) {
            World w = DifferentialCases.load(oracle, worldSeed);
            closeNodes();
            int batchSize = BATCH_SIZES[(int) Math.floorMod(DifferentialTest.mix(worldSeed ^ 0x5b7ead),
                    (long) BATCH_SIZES.length)];
            TroupeSettings settings = TroupeSettings.load().withBatchSize(batchSize);
            // Half the worlds hold every table partitioned across the nodes: by the hash of a column drawn from
            // the world's seed (co-locating joins and groupings on it), or round robin.
            boolean partitioned = (DifferentialTest.mix(worldSeed ^ 0x9a27) & 1) == 0;
            for (int n = 0; n < NODES; n++) {
                Troupe troupe = Troupe.start(settings);
                NODE_TROUPES.add(troupe);
                for (int t = 0; t < w.tables().size(); t++) {
                    Table table = w.tables().get(t).table();
                    int column = (int) Math.floorMod(DifferentialTest.mix(worldSeed ^ (0x7a1e + t)),
                            (long) table.schema().size() + 1) - 1;
                    troupe.register(!partitioned ? table : table.part(new Table.Part(n, NODES,
                            column < 0 ? null : table.schema().field(column).name())));
                }
            }
            loadedWorld = w;
            partitionedWorld = partitioned;
        }
        return loadedWorld;
    }

    private static void closeNodes() {
        for (Troupe troupe : NODE_TROUPES) {
            troupe.close();
        }
        NODE_TROUPES.clear();
    }

    private static String header(long seed, int workers) {
        return "\nSpread differential case failed. Replay: mvn -B -q test -Dtest=SpreadDifferentialTest"
                + " -Dtroupe.spread.seed=" + seed + "   (" + NODES + " nodes" + (partitionedWorld ? ", every table"
                + " partitioned across them" : "") + ", " + workers + " workers a node,"
                + " batch size "
                + NODE_TROUPES.get(SpreadPlan.COORDINATOR).settings().batchSize() + "; the same plan in one JVM:"
                + " -Dtest=DifferentialTest -Dtroupe.seed=" + seed + ")\n"
                + (runSeed == null ? "" : "Replay the whole run: " + replayRun() + "\n");
    }

    private static String report(String header, Case c, String diff) {
        return DifferentialCases.report(header, loadedWorld, SpreadDifferentialTest::explain, c, diff);
    }
}
