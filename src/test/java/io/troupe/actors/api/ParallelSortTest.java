package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryCancelledException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ORDER BY under the actor executor (sort per worker, Gather Merge at the top) against DuckDB on the
 * same rows, with 1, 2 and 4 workers: exact order where the keys decide every tie, key order plus
 * the multiset of rows where they do not; top-N with offsets; NULLS FIRST and LAST; several keys,
 * VARCHAR keys, a computed key projected away, a LIMIT above a projection of the sort (applied after
 * the merge); empty input, a worker with an empty run, more workers than rows. A failure in an
 * operator above the merge and cancels at random points of a merge leave no worker and no channel.
 */
class ParallelSortTest {

    private static final int ROWS = 6000;
    private static Connection duck;
    private static Troupe troupe;

    @BeforeAll
    static void load() throws SQLException {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        troupe = Troupe.start(TroupeSettings.load().withBatchSize(64));
        Schema schema = Schema.of(Field.of("id", DataType.INT64), Field.of("k", DataType.INT32),
                Field.of("d", DataType.FLOAT64), Field.of("s", DataType.VARCHAR));
        // Chunks of 100 rows: a chunk is a morsel, so every worker sorts a run of its own.
        TableBuilder t = new TableBuilder("t", schema, 100);
        for (long i = 0; i < ROWS; i++) {
            t.addRow(i, i % 11 == 0 ? null : (int) ((i * 7919) % 97), ((i * 31) % 1000) / 8.0,
                    i % 13 == 0 ? null : "v" + ((i * 17) % 41));
        }
        // Three rows, one per chunk: with four workers one gets no run at all.
        TableBuilder tiny = new TableBuilder("tiny", schema, 1);
        // One chunk: one worker sorts every row, the others stream nothing.
        TableBuilder lump = new TableBuilder("lump", schema, 1000);
        for (long i = 0; i < 3; i++) {
            tiny.addRow(i, (int) (2 - i), i / 2.0, "x" + i);
        }
        for (long i = 0; i < 500; i++) {
            lump.addRow(i, (int) (i % 7), i / 4.0, "y" + (i % 9));
        }
        troupe.register(t.build()).register(tiny.build()).register(lump.build());
        try (Statement st = duck.createStatement()) {
            st.execute("CREATE TABLE t AS SELECT i::BIGINT AS id, CASE WHEN i % 11 = 0 THEN NULL ELSE ((i * 7919) % 97)::INTEGER END AS k, "
                    + "((i * 31) % 1000)::DOUBLE / 8 AS d, CASE WHEN i % 13 = 0 THEN NULL ELSE 'v' || ((i * 17) % 41) END AS s "
                    + "FROM range(" + ROWS + ") r(i)");
            st.execute("CREATE TABLE tiny AS SELECT i::BIGINT AS id, (2 - i)::INTEGER AS k, i::DOUBLE / 2 AS d, 'x' || i AS s FROM range(3) r(i)");
            st.execute("CREATE TABLE lump AS SELECT i::BIGINT AS id, (i % 7)::INTEGER AS k, i::DOUBLE / 4 AS d, 'y' || (i % 9) AS s "
                    + "FROM range(500) r(i)");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        troupe.close();
        duck.close();
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(120)
    void shouldSortInExactlyDuckDbsOrderWhenTheKeysDecideEveryTie(int workers) throws SQLException {
        List<String> sql = List.of("k ASC NULLS LAST, s DESC NULLS FIRST, id ASC",
                "s ASC NULLS FIRST, d DESC NULLS LAST, id DESC", "d ASC NULLS LAST, k DESC NULLS FIRST, id ASC");
        List<SortKey[]> orders = List.of(
                new SortKey[] {col("k").asc().withNullsLast(), col("s").desc().withNullsFirst(), col("id").asc()},
                new SortKey[] {col("s").asc().withNullsFirst(), col("d").desc().withNullsLast(), col("id").desc()},
                new SortKey[] {col("d").asc().withNullsLast(), col("k").desc().withNullsFirst(), col("id").asc()});
        for (int i = 0; i < orders.size(); i++) {
            String order = sql.get(i);
            assertRows(duck("SELECT * FROM t ORDER BY " + order), run(Plan.scan("t").sort(orders.get(i)), workers),
                    order + ", workers " + workers);
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(120)
    void shouldKeepKeyOrderAndEveryRowWhenKeysTie(int workers) throws SQLException {
        List<List<Object>> ours = run(Plan.scan("t").sort(col("s").desc().withNullsLast()), workers);
        List<List<Object>> theirs = duck("SELECT * FROM t ORDER BY s DESC NULLS LAST");
        assertEquals(column(theirs, 3), column(ours, 3), "key order, workers " + workers);
        assertEquals(sorted(theirs), sorted(ours), "the same rows, workers " + workers);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(120)
    void shouldApplyTopNOffsetAndLimitOnceInTheMergedOrder(int workers) throws SQLException {
        long[][] limits = {{10, 0}, {50, 1234}, {7, ROWS - 3}, {5, ROWS}, {0, 0}, {0, 20}, {1, 0},
            {ROWS, 0}, {Long.MAX_VALUE, 100}};
        for (long[] limit : limits) {
            String sql = "SELECT * FROM t ORDER BY d DESC NULLS FIRST, s ASC NULLS LAST, id ASC LIMIT "
                    + Math.min(limit[0], Integer.MAX_VALUE) + " OFFSET " + limit[1];
            Plan plan = Plan.scan("t").sort(col("d").desc().withNullsFirst(), col("s").asc().withNullsLast(),
                    col("id").asc()).limit(limit[0], limit[1]);
            assertRows(duck(sql), run(plan, workers), sql + ", workers " + workers);
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(120)
    void shouldRunTheOperatorsAboveTheSortAfterTheMerge(int workers) throws SQLException {
        // A computed key, projected away before the result: the merge compares it all the same.
        assertRows(duck("SELECT id FROM t ORDER BY (k * -1) ASC NULLS LAST, id DESC"),
                run(Plan.scan("t").sort(col("k").times(lit(-1)).asc().withNullsLast(), col("id").desc())
                        .project(col("id")), workers), "computed key, workers " + workers);
        // LIMIT above a projection of the sort: not fused into a top-N, it counts merged rows.
        assertRows(duck("SELECT id, s FROM t ORDER BY s NULLS FIRST, id LIMIT 25 OFFSET 400"),
                run(Plan.scan("t").sort(col("s").asc().withNullsFirst(), col("id").asc())
                        .project(col("id"), col("s")).limit(25, 400), workers), "limit above project, workers " + workers);
        assertRows(duck("SELECT id, d FROM t WHERE k IS NOT NULL ORDER BY d, id LIMIT 30"),
                run(Plan.scan("t").sort(col("d").asc(), col("id").asc()).filter(col("k").isNotNull())
                        .project(col("id"), col("d")).limit(30), workers), "filter above sort, workers " + workers);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(120)
    void shouldSortEmptyInputAndWorkersWithoutRows(int workers) throws SQLException {
        assertEquals(List.of(), run(Plan.scan("t").filter(col("id").lt(lit(0L))).sort(col("k").asc()), workers));
        assertEquals(List.of(), run(Plan.scan("t").filter(col("id").lt(lit(0L))).sort(col("k").asc()).limit(3, 1), workers));
        assertRows(duck("SELECT * FROM tiny ORDER BY k"), run(Plan.scan("tiny").sort(col("k").asc()), workers),
                "more workers than rows");
        assertRows(duck("SELECT * FROM tiny ORDER BY k DESC LIMIT 1 OFFSET 1"),
                run(Plan.scan("tiny").sort(col("k").desc()).limit(1, 1), workers), "more workers than rows, top-N");
        assertRows(duck("SELECT * FROM lump ORDER BY s DESC, k, id"),
                run(Plan.scan("lump").sort(col("s").desc(), col("k").asc(), col("id").asc()), workers), "one run");
    }

    @Test
    @Timeout(120)
    void shouldFailInAnOperatorAboveTheMergeAndLeaveNothingBehind() {
        // The division fails at x = 150000, deep into the merged stream, in the Gather Merge's chain.
        Plan plan = Plan.series("x", 1, 200_000).sort(col("x").asc())
                .project(lit(1L).div(col("x").minus(lit(150_000L))).as("q"));
        for (int workers : new int[] {1, 2, 4}) {
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(plan, QueryOptions.defaults().withWorkers(workers)));
            assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
            assertNothingLeft();
        }
        assertEquals(3, troupe.execute(Plan.scan("tiny").sort(col("k").asc()), QueryOptions.defaults().withWorkers(4))
                .rows().size());
    }

    @Test
    @Timeout(300)
    void shouldStopEveryActorWhenCancelledAtAnyPointOfASortedQuery() {
        Random random = new Random(23);
        Plan plan = Plan.series("x", 1, 300_000).sort(col("x").desc()).project(col("x").times(lit(2L)).as("y"));
        int cancelled = 0;
        for (int i = 0; i < 30; i++) {
            int workers = 1 + random.nextInt(4);
            RunningQuery running = troupe.submit(plan, QueryOptions.defaults().withWorkers(workers));
            sleepMillis(random.nextInt(60));
            running.cancel("test " + i);
            try {
                QueryResult result = running.await();
                assertEquals(300_000, result.rowCount());
                assertEquals(List.of(600_000L), result.rows().get(0));
            } catch (QueryCancelledException e) {
                assertTrue(e.getMessage().contains("cancelled: test " + i), e.getMessage());
                cancelled++;
            }
            assertNothingLeft();
        }
        QueryCancelledException timedOut = assertThrows(QueryCancelledException.class, () -> troupe.execute(
                Plan.series("x", 1, 3_000_000).sort(col("x").desc()),
                QueryOptions.defaults().withWorkers(2).withTimeout(Duration.ofMillis(50))));
        assertTrue(timedOut.getMessage().contains("timed out"), timedOut.getMessage());
        assertNothingLeft();
        assertTrue(cancelled > 0, "no query was cancelled before it ended");
        assertRows(List.of(List.of(2L), List.of(1L), List.of(0L)),
                run(Plan.scan("tiny").sort(col("id").desc()).project(col("id")), 4), "the next query");
    }

    // ------------------------------------------------------------------ helpers

    private static List<List<Object>> run(Plan plan, int workers) {
        QueryResult result = troupe.execute(plan, QueryOptions.defaults().withWorkers(workers));
        for (int b = 0; b < result.batches().size(); b++) {
            int size = result.batches().get(b).size();
            assertTrue(size <= 64, "a batch of " + size + " rows at batch size 64");
        }
        return result.rows();
    }

    private static void assertNothingLeft() {
        assertEquals(0, troupe.openChannels(), "open channels");
        assertEquals(0, troupe.liveWorkers(), "live workers");
    }

    /** Equal lists of rows; on a difference, names the first position that differs. */
    private static void assertRows(List<List<Object>> expected, List<List<Object>> actual, String what) {
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                throw new AssertionError(what + ": row " + i + " differs: expected " + expected.get(i)
                        + " but was " + actual.get(i));
            }
        }
        assertEquals(expected.size(), actual.size(), what + ": row count");
    }

    private static List<List<Object>> column(List<List<Object>> rows, int c) {
        return rows.stream().map(r -> Arrays.asList(r.get(c))).toList();
    }

    private static List<String> sorted(List<List<Object>> rows) {
        return rows.stream().map(Object::toString).sorted(Comparator.naturalOrder()).toList();
    }

    private static List<List<Object>> duck(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= meta.getColumnCount(); c++) {
                    row.add(rs.getObject(c));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
