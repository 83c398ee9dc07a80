package io.troupe.operators.sql;

import io.troupe.actors.api.PreparedSql;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * generate_series and range in SQL's FROM against DuckDB: counting up and down, by steps that land on the stop and
 * that pass it, empty and one-row series, the ends of BIGINT, constant expressions as arguments, column aliases, in
 * joins and subqueries, NULL arguments; TIMESTAMPs from dates and timestamps by months (the day clamped on the way),
 * days and hours; random integer and time series. Each runs with 0, 1 and 2 workers, in batches of the default size
 * and of 7 rows (series cut in many morsels). Then what Troupe checks itself: a zero step, wrong argument types, an
 * argument that is no constant, parameters, a column named by its function or its table's alias, INTEGER where
 * PostgreSQL has it.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SeriesSqlTest {

    private static final List<String> CASES = List.of(
            "SELECT * FROM generate_series(1, 10)",
            "SELECT * FROM generate_series(1, 10, 3)",
            "SELECT * FROM generate_series(10, 1, -3)",
            "SELECT * FROM generate_series(10, 1)",
            "SELECT * FROM generate_series(5, 5)",
            "SELECT * FROM range(0, 10)",
            "SELECT * FROM range(0, 10, 5)",
            "SELECT * FROM range(10, 0, -4)",
            "SELECT * FROM range(5, 5)",
            "SELECT * FROM range(7)",
            "SELECT * FROM generate_series(7)",
            "SELECT * FROM generate_series(1, NULL)",
            "SELECT * FROM range(NULL, 5, 2)",
            "SELECT * FROM generate_series(9223372036854775800, 9223372036854775807, 3)",
            "SELECT * FROM generate_series(-9223372036854775807 - 1, -9223372036854775800, 4)",
            "SELECT * FROM generate_series(9223372036854775807, 9223372036854775800, -9223372036854775807 - 1)",
            "SELECT * FROM generate_series(2 * 3, 100 - 4 * 10 + 1, 1 + 1)",
            "SELECT n * 2 FROM generate_series(1, 50) AS t(n) WHERE n % 3 = 0",
            "SELECT count(*), sum(x), min(x), max(x) FROM generate_series(1, 300000) AS g(x)",
            "SELECT count(*), sum(x) FROM range(-150000, 150000, 7) AS g(x)",
            "SELECT a.x, b.y FROM generate_series(1, 40) a(x) JOIN range(20, 60, 3) b(y) ON a.x = b.y",
            "SELECT x, y FROM generate_series(1, 3) a(x), generate_series(0, 2) b(y)",
            "SELECT id, x FROM t JOIN generate_series(1, 30, 2) g(x) ON t.k = x",
            "SELECT * FROM (SELECT x FROM generate_series(100, 1, -1) s(x) WHERE x % 7 = 0) q WHERE x > 20",
            "SELECT * FROM t WHERE k IN (SELECT x FROM range(0, 40, 4) r(x))",
            "SELECT * FROM generate_series(TIMESTAMP '2024-01-31 10:30:00', TIMESTAMP '2025-07-01', INTERVAL '1' MONTH)",
            "SELECT * FROM generate_series(DATE '2024-03-31', DATE '2023-01-01', INTERVAL '-1' MONTH)",
            "SELECT * FROM generate_series(DATE '2020-02-29', DATE '2030-03-01', INTERVAL '12' MONTH)",
            "SELECT * FROM generate_series(DATE '2024-01-01', DATE '2024-03-01', INTERVAL '1' MONTH)",
            "SELECT * FROM range(DATE '2024-01-01', DATE '2024-03-01', INTERVAL '1' MONTH)",
            "SELECT * FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-02', INTERVAL '7' HOUR)",
            "SELECT * FROM generate_series(DATE '2024-02-25', DATE '2024-03-05', INTERVAL '2' DAY)",
            "SELECT * FROM range(TIMESTAMP '2024-03-10 00:00:00', TIMESTAMP '2024-03-09 12:00:00', INTERVAL '-90' MINUTE)",
            "SELECT count(*) FROM generate_series(TIMESTAMP '2000-01-01', TIMESTAMP '2001-01-01', INTERVAL '1' SECOND)",
            "SELECT * FROM generate_series(TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-03', INTERVAL '6 hours 30 minutes')",
            "SELECT * FROM generate_series(DATE '2024-01-31', DATE '2025-01-01', INTERVAL '2 months')",
            "SELECT * FROM range(DATE '2024-03-01', DATE '2024-02-01', INTERVAL '-1 week')",
            "SELECT * FROM generate_series(DATE '2024-01-01', DATE '2024-01-10', CAST('36 hours' AS INTERVAL))");

    private static SqlEngines engines;
    /** The same tables in batches of 7 rows. */
    private static Troupe small;

    @BeforeAll
    static void load() throws Exception {
        Table t = table();
        engines = SqlEngines.over(List.of(t));
        small = Troupe.start(TroupeSettings.load().withBatchSize(7));
        small.register(t);
    }

    @AfterAll
    static void close() throws Exception {
        if (small != null) {
            small.close();
        }
        if (engines != null) {
            engines.close();
        }
    }

    /** Ids 1..200, k a small number with NULLs. */
    private static Table table() {
        Random random = new Random(3);
        TableBuilder t = new TableBuilder("t", Schema.of(new Field(null, "id", DataType.INT64, false),
                Field.of("k", DataType.INT64)));
        for (long id = 1; id <= 200; id++) {
            t.addRow(id, random.nextInt(10) == 0 ? null : (long) random.nextInt(40));
        }
        return t.build();
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        List<String> all = new ArrayList<>(CASES);
        all.addAll(randomCases(new Random(17), 40));
        List<DynamicTest> tests = new ArrayList<>();
        for (String sql : all) {
            tests.add(DynamicTest.dynamicTest(sql, () -> {
                List<List<Object>> expected = engines.duck().query(sql).rows();
                for (Troupe troupe : List.of(engines.troupe(), small)) {
                    for (int workers : new int[] {0, 1, 2}) {
                        List<List<Object>> actual = DuckDbOracle.normalise(
                                troupe.sql(sql, QueryOptions.defaults().withWorkers(workers)).rows());
                        assertNull(ResultComparator.compare(expected, actual, false), () -> sql + ", " + workers
                                + " workers, batches of " + troupe.settings().batchSize());
                    }
                }
            }));
        }
        return tests.stream();
    }

    /** Integer series with random ends and steps, both ways; time series from a month's last days by months and days. */
    private static List<String> randomCases(Random random, int count) {
        List<String> cases = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String function = random.nextBoolean() ? "generate_series" : "range";
            long start = random.nextInt(2000) - 1000;
            long stop = random.nextInt(2000) - 1000;
            long step = (random.nextInt(60) + 1) * (random.nextBoolean() ? 1 : -1);
            cases.add("SELECT * FROM " + function + "(" + start + ", " + stop + ", " + step + ")");
            LocalDateTime from = LocalDateTime.of(1990 + random.nextInt(40), 1 + random.nextInt(12), 28, 0, 0)
                    .plusDays(random.nextInt(4)).withHour(random.nextInt(24));
            LocalDateTime to = from.plusMonths(random.nextInt(120) - 60).plusDays(random.nextInt(60) - 30);
            String unit = random.nextInt(3) == 0 ? "DAY" : "MONTH";
            int by = (random.nextInt(unit.equals("DAY") ? 40 : 14) + 1) * (to.isBefore(from) ? -1 : 1);
            cases.add("SELECT * FROM " + function + "(TIMESTAMP '" + from.toString().replace('T', ' ') + ":00', "
                    + "TIMESTAMP '" + to.toString().replace('T', ' ') + ":00', INTERVAL '" + by + "' " + unit + ")");
        }
        return cases;
    }

    @Test
    void aZeroStepFailsAsInPostgresql() {
        for (String sql : List.of("SELECT * FROM generate_series(1, 10, 0)", "SELECT * FROM range(1, 10, 1 - 1)",
                "SELECT * FROM generate_series(DATE '2024-01-01', DATE '2024-02-01', INTERVAL '0' DAY)")) {
            QueryDataException e = assertThrows(QueryDataException.class, () -> engines.troupe().sql(sql));
            assertEquals(QueryDataException.Kind.INVALID_ARGUMENT, e.kind());
            assertTrue(e.getMessage().contains("step size cannot equal zero"), e.getMessage());
        }
    }

    @Test
    void wrongArgumentsAreRefusedNamingTheFunctionAndItsForms() {
        SqlException types = assertThrows(SqlException.class,
                () -> engines.troupe().sql("SELECT * FROM generate_series('a', 3)"));
        assertTrue(types.getMessage().contains("no function generate_series(CHAR, INTEGER); generate_series takes "
                + "(BIGINT), (BIGINT, BIGINT), (BIGINT, BIGINT, BIGINT) and (TIMESTAMP, TIMESTAMP, INTERVAL)"),
                types.getMessage());
        SqlException mixed = assertThrows(SqlException.class, () -> engines.troupe().sql(
                "SELECT * FROM range(1, 10, INTERVAL '1' DAY)"));
        assertTrue(mixed.getMessage().contains("no function range(INTEGER, INTEGER, INTERVAL_DAY)"), mixed.getMessage());
        SqlException arity = assertThrows(SqlException.class,
                () -> engines.troupe().sql("SELECT * FROM generate_series(1, 2, 3, 4)"));
        assertTrue(arity.getMessage().contains("no function generate_series(INTEGER, INTEGER, INTEGER, INTEGER); "
                + "generate_series takes (BIGINT), "), arity.getMessage());
        SqlException column = assertThrows(SqlException.class,
                () -> engines.troupe().sql("SELECT * FROM t, generate_series(1, t.k)"));
        // PostgreSQL reads a function in FROM as LATERAL; Troupe's arguments are constants.
        assertTrue(column.getMessage().contains("missing FROM-clause entry for table \"t\""), column.getMessage());
    }

    @Test
    void theColumnIsNamedByTheFunctionOrTheTablesAliasAndTypedAsPostgresqlTypesIt() {
        Troupe troupe = engines.troupe();
        assertEquals("generate_series", troupe.sql("SELECT * FROM generate_series(1, 2)").schema().field(0).name());
        assertEquals("range", troupe.sql("SELECT * FROM range(1, 2)").schema().field(0).name());
        assertEquals("g", troupe.sql("SELECT * FROM generate_series(1, 2) AS g").schema().field(0).name());
        assertEquals("x", troupe.sql("SELECT g.x FROM generate_series(1, 2) AS g(x)").schema().field(0).name());
        assertEquals(DataType.INT32, troupe.sql("SELECT * FROM generate_series(1, 2)").schema().type(0));
        assertEquals(DataType.INT64, troupe.sql("SELECT * FROM generate_series(1, CAST(2 AS BIGINT))").schema().type(0));
        assertEquals(DataType.TIMESTAMP, troupe.sql("SELECT * FROM generate_series(DATE '2024-01-01', "
                + "DATE '2024-01-02', INTERVAL '1' DAY)").schema().type(0));
    }

    @Test
    void parametersGiveTheBoundsAndTheStep() throws Exception {
        PreparedSql prepared = engines.troupe().prepareSql("SELECT sum(x), count(*) FROM generate_series(?, ?, ?) AS s(x)");
        assertEquals(List.of(List.of(55L, 10L)), prepared.execute(1L, 10L, 1L).rows());
        assertEquals(List.of(List.of(-15L, 6L)), prepared.execute(0L, -5L, -1L).rows());
        List<Object> none = new ArrayList<>();
        none.add(null);
        none.add(0L);
        assertEquals(List.of(none), prepared.execute(5L, 1L, 1L).rows());
    }
}
