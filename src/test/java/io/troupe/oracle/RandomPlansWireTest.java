package io.troupe.oracle;

import io.troupe.actors.api.Troupe;
import io.troupe.actors.wire.WireCodec;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanShapes;
import io.troupe.operators.table.Table;
import io.troupe.oracle.RandomPlans.Case;
import io.troupe.oracle.RandomPlans.Check;
import io.troupe.oracle.RandomTables.TableSpec;
import io.troupe.oracle.RandomTables.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random plans of the differential generator ({@link RandomPlans}) over the wire: each is encoded,
 * decoded, and must then be the same plan node for node, re-encode to the same bytes, explain the
 * same, and run to DuckDB's rows and to the original plan's. Leader alone: the wire changes the plan,
 * not how it runs ({@link DifferentialTest} runs the workers).
 *
 * <ul>
 *   <li>{@code -Dtroupe.wire.plans=N}: how many plans (default 200).</li>
 *   <li>{@code -Dtroupe.wire.run.seed=R}: replays a run (each run draws its seed and prints it).</li>
 *   <li>{@code -Dtroupe.features}: as in {@link DifferentialTest}.</li>
 * </ul>
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RandomPlansWireTest {

    private static final int ATTEMPTS = 5;
    /** Results above this many rows are regenerated, as in DifferentialTest: they say little more and cost much. */
    private static final long MAX_RESULT_ROWS = 30_000;
    private static final WireCodec CODEC = new WireCodec("random-plans");

    private static DuckDbOracle oracle;
    private static FeatureSet features;
    private static World loadedWorld;
    /** The loaded world's Troupe; closed with the world. */
    private static Troupe troupe;
    private static long runSeed;
    private static final Map<String, Integer> COVERAGE = new ConcurrentHashMap<>();
    private static final AtomicInteger CHECKED = new AtomicInteger();
    private static final AtomicInteger PAYLOAD_BYTES = new AtomicInteger();

    @BeforeAll
    static void start() throws SQLException {
        features = FeatureSet.fromSpec(System.getProperty("troupe.features"));
        oracle = new DuckDbOracle();
    }

    @AfterAll
    static void stop() throws SQLException {
        System.out.println("RandomPlansWireTest: " + CHECKED.get() + " plans over the wire, " + PAYLOAD_BYTES.get()
                + " payload bytes in all; generated:\n" + RandomPlans.coverageReport(COVERAGE));
        closeTroupe();
        if (oracle != null) {
            oracle.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> randomPlansSurviveTheWire() {
        int plans = Integer.getInteger("troupe.wire.plans", 200);
        String given = System.getProperty("troupe.wire.run.seed");
        runSeed = given == null || given.isBlank() ? ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE
                : Long.decode(given.trim());
        System.out.println("RandomPlansWireTest: " + plans + " plans, run seed " + runSeed
                + " (replay: mvn -B -q test -Dtest=RandomPlansWireTest -Dtroupe.wire.run.seed=" + runSeed + ")");
        Stream<DynamicTest> cases = IntStream.range(0, plans).mapToObj(i -> {
            long seed = DifferentialTest.caseSeed(runSeed, i);
            return DynamicTest.dynamicTest("case " + i + ", seed " + seed, () -> runCase(seed));
        });
        // Last (dynamic tests run in order): a run whose cases all regenerated past their attempts checked nothing.
        return Stream.concat(cases, Stream.of(DynamicTest.dynamicTest("most cases crossed the wire", () ->
                assertTrue(CHECKED.get() >= plans / 2, CHECKED.get() + " of " + plans + " cases were checked"))));
    }

    private static void runCase(long seed) throws SQLException {
        World world = world(seed >>> 16);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            RandomPlans generator = new RandomPlans(DifferentialTest.mix(seed + attempt * 0x9e3779b97f4a7c15L), world,
                    features, troupe.catalog(), COVERAGE);
            Case c;
            try {
                c = generator.generate();
            } catch (RandomPlans.Rejected e) {
                continue; // DifferentialTest reports a plan Troupe rejects; here it has no wire to cross
            }
            if (oracle.count(c.sql()) > MAX_RESULT_ROWS) {
                continue;
            }
            check(seed, c);
            return;
        }
    }

    private static void check(long seed, Case c) throws SQLException {
        Supplier<String> where = () -> "seed " + seed + " (run seed " + runSeed + ")\n" + troupe.explain(c.plan())
                + c.sql() + "\n";
        byte[] payload = CODEC.encode(c.plan());
        PAYLOAD_BYTES.addAndGet(payload.length);
        Plan decoded = (Plan) CODEC.decode(payload);
        PlanShapes.assertSamePlan(c.plan(), decoded);
        assertArrayEquals(payload, CODEC.encode(decoded), () -> where.get() + "the decoded plan re-encodes otherwise");
        assertEquals(troupe.explain(c.plan()), troupe.explain(decoded), where);
        List<List<Object>> sent = DuckDbOracle.normalise(troupe.execute(c.plan()).rows());
        List<List<Object>> received = DuckDbOracle.normalise(troupe.execute(decoded).rows());
        DuckDbOracle.Result expected = oracle.query(c.sql());
        if (c.check() == Check.SUBSET) {
            // Any rows of the limit's input may come back, for the sent plan as for the received one.
            assertNull(ResultComparator.compareSubset(expected.rows(), received,
                    c.expectedRows(expected.rows().size())), where);
        } else {
            boolean ordered = c.check() == Check.ORDERED;
            assertNull(ResultComparator.compare(expected.rows(), received, ordered), where);
            assertNull(ResultComparator.compare(sent, received, ordered),
                    () -> where.get() + "the sent plan's rows differ");
        }
        CHECKED.incrementAndGet();
    }

    private static World world(long worldSeed) throws SQLException {
        if (loadedWorld == null || loadedWorld.seed() != worldSeed) {
            World w = RandomTables.world(worldSeed);
            List<Table> tables = w.tables().stream().map(TableSpec::table).toList();
            oracle.load(tables);
            closeTroupe();
            troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0));
            for (Table t : tables) {
                troupe.register(t);
            }
            loadedWorld = w;
        }
        return loadedWorld;
    }

    private static void closeTroupe() {
        if (troupe != null) {
            troupe.close();
            troupe = null;
        }
    }
}
