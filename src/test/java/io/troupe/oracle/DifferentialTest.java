package io.troupe.oracle;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.config.TroupeSettings.GatherTransport;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.oracle.RandomPlans.Case;
import io.troupe.oracle.RandomPlans.Check;
import io.troupe.oracle.RandomTables.TableSpec;
import io.troupe.oracle.RandomTables.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The randomized differential test: random plans over random tables, each run in Troupe and in
 * DuckDB (the oracle) and compared. One case is a seed; a failure prints the seed, the plan's
 * EXPLAIN, the SQL and the diff.
 *
 * <ul>
 *   <li>{@code -Dtroupe.plans=N}: how many plans (default 500).</li>
 *   <li>{@code -Dtroupe.seed=S}: replays just the case with seed S (as a failure prints it).</li>
 *   <li>{@code -Dtroupe.runSeed=R}: another set of cases (default fixed, so runs are repeatable).</li>
 *   <li>{@code -Dtroupe.features=detect|all|NAME,...}: see {@link FeatureSet}.</li>
 * </ul>
 *
 * <p>A case seed holds its world's seed in its high bits, so the tables of a replayed case are
 * rebuilt exactly; {@value #CASES_PER_WORLD} cases share a world, loaded once into DuckDB. Each
 * case runs with its own batch size (1 row up to the default), so batch boundaries move, and its own
 * executor settings, drawn from the seed: the leader alone or 1, 2 or 4 worker actors (more than
 * this machine's cores), with or without the Gather's leader participation, over the aeron or the
 * locked-queue transport, with check-before-write or always-write match flags. Over the default 500
 * cases each of the twelve parallel combinations (workers x transport x match flags) runs about 30
 * times; the report at the end counts them.
 */
class DifferentialTest {

    private static final long DEFAULT_RUN_SEED = 20_250_601L;
    private static final int CASES_PER_WORLD = 25;
    /** Results above this many rows are skipped (regenerated): big joins say little more and cost much. */
    private static final long MAX_RESULT_ROWS = 30_000;
    private static final int ATTEMPTS = 5;
    private static final int[] BATCH_SIZES = {1, 2, 3, 7, 64, 1000, 2048};
    private static final int[] WORKERS = {0, 1, 2, 4};
    private static final Duration CASE_TIMEOUT = Duration.ofSeconds(60);

    private static DuckDbOracle oracle;
    private static FeatureSet features;
    private static TroupeSettings settings;
    private static World loadedWorld;
    private static final Map<String, Integer> COVERAGE = new ConcurrentHashMap<>();
    /** Cases per executor setting (workers, transport, match flags), for the report. */
    private static final Map<String, Integer> EXECUTORS = new ConcurrentSkipListMap<>();
    private static final AtomicInteger CASES = new AtomicInteger();
    private static final AtomicInteger SKIPPED = new AtomicInteger();

    @BeforeAll
    static void start() throws SQLException {
        features = FeatureSet.fromSpec(System.getProperty("troupe.features"));
        settings = TroupeSettings.load();
        oracle = new DuckDbOracle();
        System.out.println("Differential test against DuckDB; features: " + features);
    }

    @AfterAll
    static void stop() throws SQLException {
        System.out.println("Ran " + CASES.get() + " cases (" + SKIPPED.get() + " regenerated: result above "
                + MAX_RESULT_ROWS + " rows); generated:\n" + RandomPlans.coverageReport(COVERAGE)
                + "executor settings (cases): " + EXECUTORS);
        if (oracle != null) {
            oracle.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> randomPlansAgreeWithDuckDb() {
        String replay = System.getProperty("troupe.seed");
        if (replay != null && !replay.isBlank()) {
            long seed = Long.decode(replay.trim());
            return Stream.of(DynamicTest.dynamicTest("seed " + seed, () -> runCase(seed)));
        }
        int plans = Integer.getInteger("troupe.plans", 500);
        long runSeed = Long.getLong("troupe.runSeed", DEFAULT_RUN_SEED);
        return IntStream.range(0, plans).mapToObj(i -> {
            long seed = caseSeed(runSeed, i);
            return DynamicTest.dynamicTest("case " + i + ", seed " + seed, () -> runCase(seed));
        });
    }

    /** The world's seed (47 bits) in the high bits, the case's index within the world in the low 16. */
    static long caseSeed(long runSeed, int index) {
        long worldSeed = mix(runSeed * 31 + index / CASES_PER_WORLD) & ((1L << 47) - 1);
        return (worldSeed << 16) | (index % CASES_PER_WORLD);
    }

    /** SplitMix64's finaliser: neighbouring inputs give unrelated outputs. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static void runCase(long seed) throws SQLException {
        World world = world(seed >>> 16);
        long knobs = mix(seed ^ 0x5eed);
        int batchSize = BATCH_SIZES[(int) Math.floorMod(knobs, (long) BATCH_SIZES.length)];
        TroupeSettings.MatchFlags[] flags = TroupeSettings.MatchFlags.values();
        // Workers per query: the leader alone, or 1, 2 or 4 worker actors (execute and createTable
        // take troupe.workers.default), with or without the Gather's leader participation, over
        // either transport.
        int workers = WORKERS[(int) ((knobs >>> 44) & 3)];
        boolean leaderParticipation = ((knobs >>> 46) & 1) == 0;
        GatherTransport transport = GatherTransport.values()[(int) ((knobs >>> 47) & 1)];
        TroupeSettings caseSettings = withTransport(settings.withBatchSize(batchSize)
                .withMatchFlags(flags[(int) Math.floorMod(knobs >>> 20, (long) flags.length)])
                .withWorkers(new TroupeSettings.Workers(settings.workers().threads(), workers, leaderParticipation)),
                transport);
        // One case in eight goes through CREATE TABLE AS, then scans the table it made.
        boolean materialise = (knobs >>> 40) % 8 == 0;
        try (Troupe troupe = Troupe.start(caseSettings)) {
            for (TableSpec t : world.tables()) {
                troupe.register(t.table());
            }
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                RandomPlans generator = new RandomPlans(mix(seed + attempt * 0x9e3779b97f4a7c15L), world, features,
                        troupe.catalog(), COVERAGE);
                Case c;
                try {
                    c = generator.generate();
                } catch (RandomPlans.Rejected e) {
                    fail(header(seed, caseSettings, materialise) + "-- the plan (as built):\n" + PlanText.tree(e.plan)
                            + "-- " + e.getMessage() + "\n" + stackTrace(e));
                    return;
                }
                long rows;
                try {
                    rows = oracle.count(c.sql());
                } catch (SQLException e) {
                    fail(report(seed, materialise, troupe, c, "DuckDB rejected the generated SQL (a generator bug): "
                            + e.getMessage()));
                    return;
                }
                if (rows > MAX_RESULT_ROWS) {
                    SKIPPED.incrementAndGet();
                    continue;
                }
                CASES.incrementAndGet();
                EXECUTORS.merge(workers == 0 ? "leader alone" : "workers " + workers + " " + transport + " "
                        + caseSettings.matchFlags(), 1, Integer::sum);
                check(seed, troupe, c, materialise);
                return;
            }
        }
    }

    private static void check(long seed, Troupe troupe, Case c, boolean materialise)
            throws SQLException {
        DuckDbOracle.Result expected = oracle.query(c.sql());
        QueryResult actual;
        try {
            troupe.explain(c.plan());
            actual = assertTimeoutPreemptively(CASE_TIMEOUT, () -> {
                if (materialise && c.check() != Check.ORDERED) {
                    troupe.createTable("materialised", c.plan());
                    return troupe.execute(Plan.scan("materialised"));
                }
                return troupe.execute(c.plan());
            });
        } catch (RuntimeException | AssertionError e) {
            fail(report(seed, materialise, troupe, c, "Troupe failed where DuckDB returned " + expected.rows().size()
                    + " rows:\n" + stackTrace(e)));
            return;
        }
        List<DataType> types = new ArrayList<>();
        for (int i = 0; i < actual.schema().size(); i++) {
            types.add(actual.schema().type(i));
        }
        String diff = ResultComparator.compareTypes(expected.columnTypes(), types);
        if (diff == null) {
            List<List<Object>> rows = DuckDbOracle.normalise(actual.rows());
            diff = c.check() == Check.SUBSET
                    ? ResultComparator.compareSubset(expected.rows(), rows, c.expectedRows(expected.rows().size()))
                    : ResultComparator.compare(expected.rows(), rows, c.check() == Check.ORDERED);
        }
        if (diff != null) {
            fail(report(seed, materialise, troupe, c, diff));
        }
    }

    private static TroupeSettings withTransport(TroupeSettings s, GatherTransport kind) {
        TroupeSettings.Transport t = s.transport();
        return new TroupeSettings(s.batchSize(), s.matchFlags(), new TroupeSettings.Transport(kind, t.wakeups(),
                t.queueCapacity(), t.termLengthBytes(), t.mtuBytes(), t.idleStrategy(), t.driverThreading(),
                t.directoryParent()), s.workers(), s.memory());
    }

    private static World world(long worldSeed) throws SQLException {
        if (loadedWorld == null || loadedWorld.seed() != worldSeed) {
            World w = RandomTables.world(worldSeed);
            List<Table> tables = new ArrayList<>();
            for (TableSpec t : w.tables()) {
                tables.add(t.table());
            }
            oracle.load(tables);
            loadedWorld = w;
        }
        return loadedWorld;
    }

    private static String header(long seed, TroupeSettings caseSettings, boolean materialise) {
        return "\nDifferential case failed. Replay: mvn -B -q test -Dtest=DifferentialTest -Dtroupe.seed=" + seed
                + "   (batch size " + caseSettings.batchSize() + ", match flags " + caseSettings.matchFlags()
                + ", workers " + caseSettings.workers().defaultWorkers()
                + (caseSettings.workers().leaderParticipation() ? "" : " without leader participation")
                + ", transport " + caseSettings.transport().gatherTransport()
                + (materialise ? ", through createTable" : "") + ")\n";
    }

    private static String report(long seed, boolean materialise, Troupe troupe, Case c, String diff) {
        String explain;
        try {
            explain = troupe.explain(c.plan());
        } catch (RuntimeException e) {
            explain = PlanText.tree(c.plan()) + "(EXPLAIN failed: " + e.getMessage() + ")\n";
        }
        StringBuilder tables = new StringBuilder();
        for (TableSpec t : loadedWorld.tables()) {
            tables.append("  ").append(t.table()).append('\n');
        }
        return header(seed, troupe.settings(), materialise) + "-- tables:\n" + tables
                + "-- Troupe plan (EXPLAIN):\n" + explain
                + "-- DuckDB SQL (" + c.check() + (c.check() == Check.SUBSET ? ", LIMIT " + c.limitCount()
                + " OFFSET " + c.limitOffset() + " over it" : "") + "):\n" + c.sql() + "\n-- diff:\n" + diff;
    }

    private static String stackTrace(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        String s = w.toString();
        return s.length() > 4000 ? s.substring(0, 4000) + "\n..." : s;
    }

    /** Prints a plan tree from labels alone, for plans EXPLAIN cannot show (they fail validation). */
    static final class PlanText {
        private PlanText() {
        }

        static String tree(Plan plan) {
            StringBuilder sb = new StringBuilder();
            tree(plan, 0, sb);
            return sb.toString();
        }

        private static void tree(Plan plan, int depth, StringBuilder sb) {
            sb.append("  ".repeat(depth)).append(depth == 0 ? "" : "-> ").append(plan.label()).append('\n');
            for (Plan child : plan.children()) {
                tree(child, depth + 1, sb);
            }
        }
    }
}
