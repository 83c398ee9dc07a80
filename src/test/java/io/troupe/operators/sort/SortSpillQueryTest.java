package io.troupe.operators.sort;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.RunningQuery;
import io.troupe.actors.api.Troupe;
import io.troupe.actors.api.TroupeStatus;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.profile.NodeProfile;
import io.troupe.operators.profile.QueryProfile;
import io.troupe.operators.table.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.sort.SortOracle.KEY_COLUMNS;
import static io.troupe.operators.sort.SortOracle.assertRows;
import static io.troupe.operators.sort.SortOracle.key;
import static io.troupe.operators.sort.SortOracle.normalise;
import static io.troupe.operators.sort.SortOracle.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ORDER BY over the memory budget through the public API, compared in exact order with DuckDB on the
 * same rows (every key list ends with the unique id, so the order is total): at 1/4 and 1/20 of the
 * sort's in-memory peak with 0, 1, 2 and 4 workers, every type leading each way, computed keys, top-N
 * and LIMIT/OFFSET windows. Results are streamed, since the budget would not hold them collected. The
 * sort spills (the spill space's written bytes, EXPLAIN ANALYZE's spilled bytes on the sort's node),
 * at 1/20 merges in passes, and leaves no file, no memory and no worker however the query ends;
 * with spilling off it fails with the budget's error.
 */
class SortSpillQueryTest {

    private static final int ROWS = 300_000;
    private static final String TAIL = "-the-quick-brown-fox-jumps-over-the-lazy-dog-0123456789abcdefghij";
    /** Keys of every type between them, with NULLs and duplicates; the id makes each order total. */
    private static final SortKey[] ORDER_A = {col("b").desc().withNullsFirst(), col("s").asc().withNullsLast(),
        col("d").desc().withNullsFirst(), col("id").asc()};
    private static final SortKey[] ORDER_B = {col("dt").asc().withNullsFirst(), col("m").desc().withNullsLast(),
        col("i").asc().withNullsLast(), col("l").desc().withNullsFirst(), col("id").desc()};

    @TempDir
    static Path spillDirectory;

    private static SortOracle oracle;
    private static Troupe unlimited;
    private static Troupe quarter;
    private static Troupe twentieth;
    private static Troupe spillOff;
    private static long peak;

    @BeforeAll
    static void load() throws SQLException, IOException {
        oracle = new SortOracle();
        // Longer strings than the sort tests' (with long shared prefixes): more bytes a row, so that
        // 1/20 of the peak still holds a few read buffers for each of four workers.
        List<Object[]> rows = SortOracle.rows(ROWS, new Random(97));
        for (Object[] row : rows) {
            if (row[7] != null) {
                row[7] = row[7] + TAIL.substring(0, 20 + (Integer) row[0] % 40);
            }
        }
        Table big = oracle.load("big", rows, 1000);
        Table mid = oracle.load("mid", rows.subList(0, 40_000), 500);
        unlimited = Troupe.start(TroupeSettings.load()).register(big).register(mid);
        NodeProfile sort = sortNode(unlimited.explainAnalyze(Plan.scan("big").sort(ORDER_A),
                QueryOptions.defaults().withWorkers(0)));
        peak = sort.memory().peakBytes();
        assertEquals(0, sort.memory().spilledBytes(), "nothing spills under the default budget");
        quarter = start(peak / 4, true).register(big).register(mid);
        twentieth = start(peak / 20, true).register(big).register(mid);
        spillOff = start(peak / 4, false).register(big).register(mid);
    }

    private static Troupe start(long budget, boolean spill) {
        return Troupe.start(TroupeSettings.load()
                .withMemory(new TroupeSettings.Memory(32 * 1024, 0, budget))
                .withSpill(new TroupeSettings.Spill(spill, spillDirectory.toString(), Long.MAX_VALUE)));
    }

    @AfterAll
    static void close() throws SQLException {
        for (Troupe troupe : new Troupe[] {unlimited, quarter, twentieth, spillOff}) {
            if (troupe != null) {
                troupe.close();
            }
        }
        oracle.close();
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 1, 2, 4})
    @Timeout(300)
    void spillsAtAQuarterAndATwentiethOfTheInMemoryPeakInDuckDbsOrder(int workers) throws Exception {
        for (Troupe troupe : new Troupe[] {quarter, twentieth}) {
            SortKey[] order = troupe == quarter ? ORDER_A : ORDER_B;
            String what = orderSql(order) + " at " + troupe.settings().memory().budgetBytes() + " bytes of a "
                    + peak + "-byte peak, workers " + workers;
            long spilled = troupe.spillSpace().writtenBytes();
            List<List<Object>> ours = stream(troupe, Plan.scan("big").sort(order), workers);
            assertTrue(troupe.spillSpace().writtenBytes() > spilled, "it spilled: " + what);
            assertRows(oracle.query("SELECT * FROM big ORDER BY " + orderSql(order)), ours, what);
            assertNothingLeft(troupe);
        }
    }

    @Test
    @Timeout(300)
    void sortsEveryTypeEachWayAndComputedKeysWhileSpilling() throws Exception {
        for (int c = 0; c < KEY_COLUMNS.length; c++) {
            SortKey key = key(KEY_COLUMNS[c], c % 2 == 0, c % 3 != 1);
            String what = sql(key) + ", id DESC";
            long spilled = twentieth.spillSpace().writtenBytes();
            assertRows(oracle.query("SELECT * FROM mid ORDER BY " + what),
                    stream(twentieth, Plan.scan("mid").sort(key, col("id").desc()), 2), what);
            assertTrue(twentieth.spillSpace().writtenBytes() > spilled, "it spilled: " + what);
        }
        // A computed key, projected away after the merge: spilled runs hold the output columns only,
        // so the merge computes it again from them.
        assertRows(oracle.query("SELECT id, s FROM mid ORDER BY id % 7 DESC, s ASC NULLS FIRST, id"),
                stream(twentieth, Plan.scan("mid").sort(col("id").mod(lit(7)).desc(), col("s").asc().withNullsFirst(),
                        col("id").asc()).project(col("id"), col("s")), 4), "computed key");
        assertNothingLeft(twentieth);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2, 4})
    @Timeout(300)
    void appliesTopNAndLimitOffsetWindowsToSpilledRuns(int workers) throws Exception {
        long[][] limits = {{150_000, 1000}, {10, 0}, {5, ROWS - 3}, {Long.MAX_VALUE, 250_000}};
        for (long[] limit : limits) {
            String what = "ORDER BY " + orderSql(ORDER_B) + " LIMIT " + Math.min(limit[0], Integer.MAX_VALUE)
                    + " OFFSET " + limit[1];
            long spilled = twentieth.spillSpace().writtenBytes();
            assertRows(oracle.query("SELECT * FROM big " + what),
                    stream(twentieth, Plan.scan("big").sort(ORDER_B).limit(limit[0], limit[1]), workers),
                    what + ", workers " + workers);
            assertTrue(limit[0] < 1000 || twentieth.spillSpace().writtenBytes() > spilled, "it spilled: " + what);
        }
        // A LIMIT above a projection is not a top-N: the whole input sorts, the window counts merged rows.
        assertRows(oracle.query("SELECT id, d FROM big ORDER BY " + orderSql(ORDER_A) + " LIMIT 20 OFFSET 123456"),
                stream(twentieth, Plan.scan("big").sort(ORDER_A).project(col("id"), col("d")).limit(20, 123_456),
                        workers), "limit above a projection, workers " + workers);
        assertNothingLeft(twentieth);
    }

    @Test
    @Timeout(300)
    void explainAnalyzeShowsWhatTheSortSpilledAndPassesRewriteRunsAtATwentieth() {
        Plan plan = Plan.scan("big").sort(ORDER_A).project(col("id")).limit(10, 1000);
        QueryProfile atQuarter = quarter.explainAnalyze(plan, QueryOptions.defaults().withWorkers(2));
        QueryProfile atTwentieth = twentieth.explainAnalyze(plan, QueryOptions.defaults().withWorkers(2));
        long quarterSpilled = sortNode(atQuarter).memory().spilledBytes();
        long twentiethSpilled = sortNode(atTwentieth).memory().spilledBytes();
        assertTrue(quarterSpilled > 0, atQuarter.render());
        assertTrue(atQuarter.render().contains("spilled=" + (quarterSpilled + 1023) / 1024 + "kB"), atQuarter.render());
        // At 1/4 every run is written once; at 1/20 the runs are many and small, and more than fit a
        // merge's read buffers: passes merge them into fewer, writing their rows again.
        assertTrue(twentiethSpilled > quarterSpilled, quarterSpilled + " bytes spilled at 1/4, "
                + twentiethSpilled + " at 1/20:\n" + atTwentieth.render());
        assertTrue(sortNode(atTwentieth).memory().peakBytes() <= peak / 20, atTwentieth.render());
        assertEquals(10, atTwentieth.result().rowCount());
        assertNothingLeft(twentieth);
    }

    @Test
    @Timeout(300)
    void failuresAndCancelsWhileSpillingOrMergingLeaveNoFileNoMemoryAndNoWorker() throws Exception {
        // Fails below the sort, in the last chunk, after the workers spilled runs.
        Plan failsBelow = Plan.scan("big")
                .project(col("id"), col("s"), lit(1).div(col("id").minus(lit(ROWS - 100))).as("q"))
                .sort(col("s").asc(), col("id").asc());
        // Fails above the merge, when the row with id 4242 comes out of it.
        Plan failsAbove = Plan.scan("big").sort(ORDER_A).project(lit(1).div(col("id").minus(lit(4242))).as("q"));
        for (int workers : new int[] {0, 2, 4}) {
            for (Plan plan : List.of(failsBelow, failsAbove)) {
                long spilled = twentieth.spillSpace().writtenBytes();
                QueryFailedException e = assertThrows(QueryFailedException.class,
                        () -> stream(twentieth, plan, workers));
                assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
                assertTrue(twentieth.spillSpace().writtenBytes() > spilled, "it spilled before it failed");
                assertNothingLeft(twentieth);
            }
        }
        // Cancels at random points: while the workers spill, while passes merge, while the merge streams.
        Random random = new Random(5);
        Plan plan = Plan.scan("big").sort(ORDER_B).project(col("id")).limit(5, 1000);
        int cancelled = 0;
        for (int i = 0; i < 8; i++) {
            int workers = 1 + random.nextInt(4);
            RunningQuery running = twentieth.submit(plan, QueryOptions.defaults().withWorkers(workers));
            Thread.sleep(random.nextInt(1500));
            running.cancel("test " + i);
            try {
                assertEquals(5, running.await().rowCount());
            } catch (QueryCancelledException e) {
                assertTrue(e.getMessage().contains("cancelled: test " + i), e.getMessage());
                cancelled++;
            }
            assertNothingLeft(twentieth);
        }
        assertTrue(cancelled > 0, "no query was cancelled before it ended");
        // The leader alone, its stream closed while it merges spilled runs.
        Plan sorted = Plan.scan("big").sort(ORDER_B);
        try (QueryStream stream = twentieth.stream(sorted, QueryOptions.defaults().withWorkers(0))) {
            assertTrue(stream.next().size() > 0);
            assertTrue(twentieth.spillSpace().fileCount() > 0, "the merge reads spilled runs");
        }
        assertNothingLeft(twentieth);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    @Timeout(120)
    void withSpillingOffTheSortFailsWithTheBudgetsError(int workers) {
        Plan plan = Plan.scan("big").sort(ORDER_A).project(col("id")).limit(5);
        QueryFailedException e = assertThrows(QueryFailedException.class,
                () -> spillOff.execute(plan, QueryOptions.defaults().withWorkers(workers)));
        assertTrue(e.getMessage().contains(": Sort b DESC NULLS FIRST, s ASC NULLS LAST"), e.getMessage());
        assertTrue(e.getMessage().contains(" bytes, over troupe.memory.budget = "
                + spillOff.settings().memory().budgetBytes() + " bytes"), e.getMessage());
        assertEquals(0, spillOff.spillSpace().writtenBytes());
        assertNothingLeft(spillOff);
    }

    // ------------------------------------------------------------------ helpers

    /** Every row of {@code plan}, read batch by batch from a stream (the budget would not hold them collected). */
    private static List<List<Object>> stream(Troupe troupe, Plan plan, int workers) throws InterruptedException {
        List<List<Object>> rows = new ArrayList<>();
        try (QueryStream stream = troupe.stream(plan, QueryOptions.defaults().withWorkers(workers))) {
            for (Batch b = stream.next(); b != null; b = stream.next()) {
                for (int i = 0; i < b.size(); i++) {
                    rows.add(Arrays.asList(b.rowObjects(i)));
                }
            }
        }
        return normalise(rows);
    }

    private static void assertNothingLeft(Troupe troupe) {
        TroupeStatus status = troupe.status();
        assertEquals(0, troupe.spillSpace().fileCount(), "spill files left");
        assertEquals(0, troupe.spillSpace().heldBytes(), "spill bytes held");
        assertEquals(0, troupe.memoryArena().inUseBytes(), "memory held");
        assertEquals(0, status.liveWorkers(), "live workers");
        assertEquals(0, status.openChannels(), "open channels");
    }

    private static NodeProfile sortNode(QueryProfile profile) {
        return profile.nodes().stream().filter(n -> n.label().startsWith("Sort ")).findFirst().orElseThrow();
    }

    private static String orderSql(SortKey[] order) {
        return Arrays.stream(order).map(SortOracle::sql).collect(Collectors.joining(", "));
    }
}
