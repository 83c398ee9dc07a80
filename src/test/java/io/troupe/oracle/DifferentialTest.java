package io.troupe.oracle;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.config.TroupeSettings.GatherTransport;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.oracle.RandomPlans.Case;
import io.troupe.oracle.RandomPlans.Check;
import io.troupe.oracle.RandomTables.TableSpec;
import io.troupe.oracle.RandomTables.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ThreadLocalRandom;
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
 *   <li>{@code -Dtroupe.run.seed=R}: replays the whole run with run seed R (as the run prints it
 *       first, and a failure too). Without it each run draws a new run seed, so that every CI run
 *       tries plans no run tried before.</li>
 *   <li>{@code -Dtroupe.features=detect|all|NAME,...}: see {@link FeatureSet}.</li>
 * </ul>
 *
 * <p>A case seed holds its world's seed in its high bits, so the tables of a replayed case are
 * rebuilt exactly; {@value #CASES_PER_WORLD} cases share a world, loaded once into DuckDB. Each
 * case draws its executor from the seed: the leader alone or 1, 2 or 4 worker actors (more than this
 * machine's cores), over the aeron or the locked-queue transport, with check-before-write or
 * always-write match flags. Over the default 500 cases each of the twelve parallel combinations
 * (workers x transport x match flags) runs about 30 times; the report at the end counts them.
 *
 * <p>A leader-alone case runs in a Troupe of its own with its own batch size (1 row up to the
 * default), so batch boundaries move. Starting an executor (actor system, Aeron driver) for every
 * case would cost more than the case, so a world's parallel cases share one Troupe per transport and
 * match flags, started on first use with the world's batch size and leader participation (on or
 * off) and closed when the next world loads; workers are a per-query option. A replayed seed runs
 * alone in a fresh Troupe of the same settings.
 */
class DifferentialTest {

    private static final int CASES_PER_WORLD = 25;
    private static final int[] BATCH_SIZES = {1, 2, 3, 7, 64, 1000, 2048};
    private static final int[] WORKERS = {0, 1, 2, 4};
    private static final Duration CASE_TIMEOUT = Duration.ofSeconds(60);

    private static DuckDbOracle oracle;
    private static FeatureSet features;
    private static TroupeSettings settings;
    private static World loadedWorld;
    private static final String MATERIALISED = "materialised";
    /** The current world's Troupes for its parallel cases, by transport and match flags; closed with the world. */
    private static final Map<String, Troupe> WORLD_TROUPES = new HashMap<>();
    private static final Map<String, Integer> COVERAGE = new ConcurrentHashMap<>();
    /** Cases per executor setting (workers, transport, match flags), for the report. */
    private static final Map<String, Integer> EXECUTORS = new ConcurrentSkipListMap<>();
    private static final AtomicInteger CASES = new AtomicInteger();
    private static final AtomicInteger SKIPPED = new AtomicInteger();
    /** The run seed of this run's cases, for the replay line of a failure; null when one case is replayed. */
    private static Long runSeed;

    @BeforeAll
    static void start() throws SQLException {
        features = FeatureSet.fromSpec(System.getProperty("troupe.features"));
        // Every case says its workers; a leader-alone case's Troupe starts no actor system or driver.
        settings = TroupeSettings.load().withDefaultWorkers(0);
        oracle = new DuckDbOracle();
        System.out.println("Differential test against DuckDB; features: " + features);
    }

    @AfterAll
    static void stop() throws SQLException {
        System.out.println("Ran " + CASES.get() + " cases (" + SKIPPED.get() + " regenerated: result above "
                + DifferentialCases.MAX_RESULT_ROWS + " rows); generated:\n" + RandomPlans.coverageReport(COVERAGE)
                + "executor settings (cases): " + EXECUTORS);
        closeWorldTroupes();
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
        String given = System.getProperty("troupe.run.seed");
        long run = given == null || given.isBlank() ? ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE
                : Long.decode(given.trim());
        runSeed = run;
        System.out.println("DifferentialTest: " + plans + " plans, run seed " + run + " (replay the run: " + replayRun() + ")");
        return IntStream.range(0, plans).mapToObj(i -> {
            long seed = caseSeed(run, i);
            return DynamicTest.dynamicTest("case " + i + ", seed " + seed, () -> runCase(seed));
        });
    }

    private static String replayRun() {
        return "mvn -B -q test -Dtest=DifferentialTest -Dtroupe.run.seed=" + runSeed
                + (Integer.getInteger("troupe.plans") == null ? "" : " -Dtroupe.plans=" + Integer.getInteger("troupe.plans"));
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
        long worldSeed = seed >>> 16;
        World world = world(worldSeed);
        long knobs = mix(seed ^ 0x5eed);
        TroupeSettings.MatchFlags[] flags = TroupeSettings.MatchFlags.values();
        TroupeSettings.MatchFlags matchFlags = flags[(int) Math.floorMod(knobs >>> 20, (long) flags.length)];
        // Workers per query: the leader alone, or 1, 2 or 4 worker actors, over either transport.
        int workers = WORKERS[(int) ((knobs >>> 44) & 3)];
        GatherTransport transport = GatherTransport.values()[(int) ((knobs >>> 47) & 1)];
        // One case in eight goes through CREATE TABLE AS, then scans the table it made.
        boolean materialise = (knobs >>> 40) % 8 == 0;
        if (workers == 0) {
            int batchSize = BATCH_SIZES[(int) Math.floorMod(knobs, (long) BATCH_SIZES.length)];
            try (Troupe troupe = Troupe.start(withTransport(settings.withBatchSize(batchSize).withMatchFlags(matchFlags),
                    transport))) {
                for (TableSpec t : world.tables()) {
                    troupe.register(t.table());
                }
                runAttempts(seed, world, troupe, 0, materialise);
            }
            return;
        }
        // The world's batch size and leader participation (with or without the Gather running morsels).
        long worldKnobs = mix(worldSeed ^ 0x3a11e75L);
        int batchSize = BATCH_SIZES[(int) Math.floorMod(worldKnobs, (long) BATCH_SIZES.length)];
        boolean leaderParticipation = ((worldKnobs >>> 46) & 1) == 0;
        Troupe troupe = worldTroupe(world, withTransport(settings.withBatchSize(batchSize).withMatchFlags(matchFlags)
                .withWorkers(new TroupeSettings.Workers(settings.workers().threads(), 0, leaderParticipation)), transport));
        try {
            runAttempts(seed, world, troupe, workers, materialise);
        } finally {
            if (troupe.catalog().contains(MATERIALISED)) {
                troupe.catalog().drop(MATERIALISED);
            }
        }
    }

    private static void runAttempts(long seed, World world, Troupe troupe, int workers, boolean materialise)
            throws SQLException {
        Case c = DifferentialCases.generate(seed, world, features, troupe.catalog(), COVERAGE, oracle, SKIPPED,
                header(seed, troupe, workers, materialise), troupe::explain);
        if (c == null) {
            return;
        }
        CASES.incrementAndGet();
        TroupeSettings s = troupe.settings();
        EXECUTORS.merge(workers == 0 ? "leader alone" : "workers " + workers + " " + s.transport().gatherTransport()
                + " " + s.matchFlags(), 1, Integer::sum);
        check(seed, troupe, workers, c, materialise);
    }

    /**
     * The Troupe of the current world's parallel cases with {@code caseSettings}' transport and match
     * flags (the other settings are the world's), started on first use.
     */
    private static Troupe worldTroupe(World world, TroupeSettings caseSettings) {
        String key = caseSettings.transport().gatherTransport() + "/" + caseSettings.matchFlags();
        Troupe troupe = WORLD_TROUPES.get(key);
        if (troupe == null) {
            troupe = Troupe.start(caseSettings);
            for (TableSpec t : world.tables()) {
                troupe.register(t.table());
            }
            WORLD_TROUPES.put(key, troupe);
        }
        return troupe;
    }

    private static void closeWorldTroupes() {
        for (Troupe troupe : WORLD_TROUPES.values()) {
            troupe.close();
        }
        WORLD_TROUPES.clear();
    }

    private static void check(long seed, Troupe troupe, int workers, Case c, boolean materialise)
            throws SQLException {
        DuckDbOracle.Result expected = oracle.query(c.sql());
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        QueryResult actual;
        try {
            troupe.explain(c.plan());
            actual = assertTimeoutPreemptively(CASE_TIMEOUT, () -> {
                if (materialise && c.check() != Check.ORDERED) {
                    // CREATE TABLE AS with the case's workers (createTable takes the Troupe's default).
                    troupe.register(troupe.execute(c.plan(), options).toTable(MATERIALISED));
                    return troupe.execute(Plan.scan(MATERIALISED), options);
                }
                return troupe.execute(c.plan(), options);
            });
        } catch (RuntimeException | AssertionError e) {
            fail(report(seed, materialise, troupe, workers, c, "Troupe failed where DuckDB returned " + expected.rows().size()
                    + " rows:\n" + DifferentialCases.stackTrace(e)));
            return;
        }
        String diff = DifferentialCases.diff(expected, actual, c);
        if (diff != null) {
            fail(report(seed, materialise, troupe, workers, c, diff));
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
            World w = DifferentialCases.load(oracle, worldSeed);
            closeWorldTroupes();
            loadedWorld = w;
        }
        return loadedWorld;
    }

    private static String header(long seed, Troupe troupe, int workers, boolean materialise) {
        TroupeSettings s = troupe.settings();
        return "\nDifferential case failed. Replay: mvn -B -q test -Dtest=DifferentialTest -Dtroupe.seed=" + seed
                + "   (batch size " + s.batchSize() + ", match flags " + s.matchFlags()
                + (workers == 0 ? ", the leader alone" : ", workers " + workers
                        + (s.workers().leaderParticipation() ? "" : " without leader participation")
                        + ", transport " + s.transport().gatherTransport()
                        + " (on the Troupe the world's parallel cases of this transport and match flags share)")
                + (materialise ? ", through createTable" : "") + ")\n"
                + (runSeed == null ? "" : "Replay the whole run: " + replayRun() + "\n");
    }

    private static String report(long seed, boolean materialise, Troupe troupe, int workers, Case c, String diff) {
        return DifferentialCases.report(header(seed, troupe, workers, materialise), loadedWorld, troupe::explain, c,
                diff);
    }
}
