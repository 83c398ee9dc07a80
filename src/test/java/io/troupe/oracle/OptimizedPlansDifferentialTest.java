package io.troupe.oracle;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.oracle.RandomPlans.Case;
import io.troupe.oracle.RandomPlans.Check;
import io.troupe.oracle.RandomTables.ColumnSpec;
import io.troupe.oracle.RandomTables.TableSpec;
import io.troupe.oracle.RandomTables.World;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random plans through the optimizer ({@link Troupe#optimize}) before they run: the optimized plan must have the
 * plan's output schema (names, qualifiers, types, order) and return DuckDB's rows. Even cases are
 * {@link DifferentialTest}'s plans (case S generates its plan S), which seldom hold a join region; odd cases are
 * join regions ({@link #region}): 2 to 4 scans of the world's tables joined in a random order on equalities of
 * columns of one type, with comparisons between their columns and IS [NOT] NULL as filters over a scan, over the
 * joins or in a join's condition, and in half of them a projection of a few columns above. Each world's cases run on one Troupe, with 0 or 2 workers.
 * Joins are ordered within {@link #ORDERING_LIMIT}, not the default second: a region whose ordering ran past that on
 * a busy machine would run as written, correct but at times for minutes, and test nothing of the optimizer.
 *
 * <ul>
 *   <li>{@code -Dtroupe.optimized.plans=N}: how many plans (default {@value #DEFAULT_PLANS}).</li>
 *   <li>{@code -Dtroupe.seed=S}: replays the case with seed S (as a failure prints it).</li>
 *   <li>{@code -Dtroupe.optimized.run.seed=R}: replays the whole run with run seed R (as the run prints it first).
 *       Without it each run draws a new run seed.</li>
 * </ul>
 */
class OptimizedPlansDifferentialTest {

    private static final int DEFAULT_PLANS = 100;
    private static final Duration CASE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration ORDERING_LIMIT = Duration.ofMinutes(10);

    private static DuckDbOracle oracle;
    private static FeatureSet features;
    private static World loadedWorld;
    private static Troupe troupe;
    private static final Map<String, Integer> COVERAGE = new ConcurrentHashMap<>();
    private static final AtomicInteger CASES = new AtomicInteger();
    private static final AtomicInteger SKIPPED = new AtomicInteger();
    /** Cases whose plan the optimizer changed (EXPLAIN differs). */
    private static final AtomicInteger CHANGED = new AtomicInteger();

    @BeforeAll
    static void start() throws SQLException {
        features = FeatureSet.fromSpec(System.getProperty("troupe.features"));
        oracle = new DuckDbOracle();
    }

    @AfterAll
    static void stop() throws SQLException {
        System.out.println("Ran " + CASES.get() + " optimized cases, " + CHANGED.get() + " of them changed by the "
                + "optimizer (" + SKIPPED.get() + " regenerated: result above " + DifferentialCases.MAX_RESULT_ROWS
                + " rows)");
        closeTroupe();
        if (oracle != null) {
            oracle.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> optimizedPlansAgreeWithDuckDb() {
        String replay = System.getProperty("troupe.seed");
        if (replay != null && !replay.isBlank()) {
            long seed = Long.decode(replay.trim());
            return Stream.of(DynamicTest.dynamicTest("seed " + seed, () -> runCase(seed)));
        }
        int plans = Integer.getInteger("troupe.optimized.plans", DEFAULT_PLANS);
        String given = System.getProperty("troupe.optimized.run.seed");
        long run = given == null || given.isBlank() ? ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE
                : Long.decode(given.trim());
        System.out.println("OptimizedPlansDifferentialTest: " + plans + " plans, run seed " + run
                + " (replay the run: -Dtroupe.optimized.run.seed=" + run + ")");
        Stream<DynamicTest> cases = IntStream.range(0, plans).mapToObj(i -> {
            long seed = DifferentialTest.caseSeed(run, i);
            return DynamicTest.dynamicTest("case " + i + ", seed " + seed, () -> runCase(seed));
        });
        // Last: a run in which the optimizer changed no plan tested nothing of it.
        return Stream.concat(cases, Stream.of(DynamicTest.dynamicTest("the optimizer changed some plans", () ->
                assertTrue(CHANGED.get() > 0, CHANGED.get() + " of " + CASES.get() + " cases changed"))));
    }

    private static void runCase(long seed) throws SQLException {
        Troupe t = troupe(seed >>> 16);
        String header = "-- optimized case seed " + seed + " (replay: mvn -B -q test -Dtest=OptimizedPlansDifferentialTest"
                + " -Dtroupe.seed=" + seed + ")\n";
        Case c = (seed & 1) == 0 ? DifferentialCases.generate(seed, loadedWorld, features, t.catalog(), COVERAGE,
                oracle, SKIPPED, header, t::explain) : region(seed, t);
        if (c == null) {
            return;
        }
        CASES.incrementAndGet();
        int workers = (DifferentialTest.mix(seed ^ 0x0971) & 1) == 0 ? 0 : 2;
        DuckDbOracle.Result expected = oracle.query(c.sql());
        Plan optimized = null;
        QueryResult actual;
        try {
            optimized = t.optimize(c.plan());
            assertEquals(c.plan().validate(t.catalog()), optimized.validate(t.catalog()), "the output schema");
            if (!optimized.unpinned().explain(t.catalog()).equals(c.plan().explain(t.catalog()))) {
                CHANGED.incrementAndGet();
            }
            Plan run = optimized;
            actual = assertTimeoutPreemptively(CASE_TIMEOUT,
                    () -> t.execute(run, QueryOptions.defaults().withWorkers(workers)));
        } catch (RuntimeException | AssertionError e) {
            String optimizedPlan = optimized == null ? "" : "-- optimized:\n" + t.explain(optimized);
            fail(DifferentialCases.report(header + optimizedPlan, loadedWorld, t::explain, c, "Troupe failed where DuckDB returned "
                    + expected.rows().size() + " rows:\n" + DifferentialCases.stackTrace(e)));
            return;
        }
        String diff = DifferentialCases.diff(expected, actual, c);
        if (diff != null) {
            fail(DifferentialCases.report(header + "-- optimized:\n" + t.explain(optimized), loadedWorld, t::explain,
                    c, diff));
        }
    }

    /**
     * A join region over the world's tables and the same query in SQL (a cross product of the scans filtered by
     * every condition), or null when none of {@value DifferentialCases#ATTEMPTS} drawn has at most
     * {@link DifferentialCases#MAX_RESULT_ROWS} rows.
     */
    private static Case region(long seed, Troupe t) throws SQLException {
        for (int attempt = 0; attempt < DifferentialCases.ATTEMPTS; attempt++) {
            Random rnd = new Random(DifferentialTest.mix(seed + attempt));
            List<TableSpec> tables = loadedWorld.tables();
            int scans = 2 + rnd.nextInt(3);
            List<String> from = new ArrayList<>();
            List<String> conditions = new ArrayList<>();
            List<ColumnSpec> columns = new ArrayList<>();
            List<String> names = new ArrayList<>();
            Plan plan = null;
            for (int i = 0; i < scans; i++) {
                TableSpec table = tables.get(rnd.nextInt(tables.size()));
                String alias = "a" + i;
                from.add(table.name() + " AS " + alias);
                Plan scan = Plan.scan(table.name()).as(alias);
                List<String> own = new ArrayList<>();
                for (ColumnSpec c : table.columns()) {
                    own.add(alias + "." + c.name());
                }
                if (rnd.nextInt(3) == 0) {
                    Expr filter = condition(rnd, table.columns(), own, table.columns(), own, conditions);
                    scan = filter == null ? scan : scan.filter(filter);
                }
                if (plan == null) {
                    plan = scan;
                } else {
                    Expr on = equality(rnd, columns, names, table.columns(), own, conditions);
                    if (on == null) {
                        plan = null;
                        break;
                    }
                    if (rnd.nextBoolean()) {
                        Expr more = condition(rnd, columns, names, table.columns(), own, conditions);
                        on = more == null ? on : on.and(more);
                    }
                    plan = rnd.nextBoolean() ? plan.join(scan, JoinType.INNER, on) : scan.join(plan, JoinType.INNER, on);
                }
                columns.addAll(table.columns());
                names.addAll(own);
            }
            if (plan == null) {
                continue;
            }
            if (rnd.nextBoolean()) {
                Expr filter = condition(rnd, columns, names, columns, names, conditions);
                plan = filter == null ? plan : plan.filter(filter);
            }
            List<String> select = new ArrayList<>();
            for (var f : plan.validate(t.catalog()).fields()) {
                select.add(f.qualifiedName());
            }
            if (rnd.nextBoolean()) {
                // Some of the columns, in a random order: the optimizer may narrow the scans to those named.
                Collections.shuffle(select, rnd);
                select = List.copyOf(select.subList(0, 1 + rnd.nextInt(Math.min(4, select.size()))));
                plan = plan.project(select.stream().map(Expr::col).toArray(Expr[]::new));
            }
            String sql = "SELECT " + String.join(", ", select) + " FROM " + String.join(" CROSS JOIN ", from)
                    + (conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions));
            if (oracle.count(sql) <= DifferentialCases.MAX_RESULT_ROWS) {
                return new Case(plan, sql, Check.MULTISET, Long.MAX_VALUE, 0);
            }
            SKIPPED.incrementAndGet();
        }
        return null;
    }

    /**
     * {@code x = y} for a column x of the left columns and a different y of the right of one type; null when none
     * share one.
     */
    private static Expr equality(Random rnd, List<ColumnSpec> left, List<String> leftNames, List<ColumnSpec> right,
                                 List<String> rightNames, List<String> sql) {
        List<int[]> pairs = new ArrayList<>();
        for (int l = 0; l < left.size(); l++) {
            for (int r = 0; r < right.size(); r++) {
                if (left.get(l).type().equals(right.get(r).type()) && !leftNames.get(l).equals(rightNames.get(r))) {
                    pairs.add(new int[] {l, r});
                }
            }
        }
        if (pairs.isEmpty()) {
            return null;
        }
        int[] pair = pairs.get(rnd.nextInt(pairs.size()));
        sql.add(leftNames.get(pair[0]) + " = " + rightNames.get(pair[1]));
        return Expr.col(leftNames.get(pair[0])).eq(Expr.col(rightNames.get(pair[1])));
    }

    /** A comparison of two columns of one type, or IS [NOT] NULL of one; null when the draw finds no pair. */
    private static Expr condition(Random rnd, List<ColumnSpec> left, List<String> leftNames, List<ColumnSpec> right,
                                  List<String> rightNames, List<String> sql) {
        if (rnd.nextInt(3) == 0) {
            String name = rightNames.get(rnd.nextInt(rightNames.size()));
            boolean isNull = rnd.nextBoolean();
            sql.add(name + (isNull ? " IS NULL" : " IS NOT NULL"));
            return isNull ? Expr.col(name).isNull() : Expr.col(name).isNotNull();
        }
        List<String> comparison = new ArrayList<>();
        Expr equal = equality(rnd, left, leftNames, right, rightNames, comparison);
        if (equal == null) {
            return null;
        }
        String[] sides = comparison.get(0).split(" = ");
        return switch (rnd.nextInt(3)) {
            case 0 -> {
                sql.add(sides[0] + " < " + sides[1]);
                yield Expr.col(sides[0]).lt(Expr.col(sides[1]));
            }
            case 1 -> {
                sql.add(sides[0] + " <> " + sides[1]);
                yield Expr.col(sides[0]).ne(Expr.col(sides[1]));
            }
            default -> {
                sql.add("(" + sides[0] + " >= " + sides[1] + " OR " + sides[1] + " IS NULL)");
                yield Expr.col(sides[0]).ge(Expr.col(sides[1])).or(Expr.col(sides[1]).isNull());
            }
        };
    }

    private static Troupe troupe(long worldSeed) throws SQLException {
        if (loadedWorld == null || loadedWorld.seed() != worldSeed) {
            closeTroupe();
            loadedWorld = DifferentialCases.load(oracle, worldSeed);
            TroupeSettings settings = TroupeSettings.load().withDefaultWorkers(0);
            troupe = Troupe.start(settings.withSql(new TroupeSettings.Sql(ORDERING_LIMIT, true, settings.sql().timeZone(),
                    settings.sql().recursionLimit())));
            for (TableSpec table : loadedWorld.tables()) {
                troupe.register(table.table());
            }
        }
        return troupe;
    }

    private static void closeTroupe() {
        if (troupe != null) {
            troupe.close();
            troupe = null;
        }
    }
}
