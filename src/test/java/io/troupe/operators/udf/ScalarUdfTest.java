package io.troupe.operators.udf;

import io.troupe.actors.api.PreparedSql;
import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.sql.SqlException;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scalar functions of one's own ({@link UserFunctions}), row at a time and vectorised, from SQL and from the plan
 * API with 0, 2 and 4 workers, against DuckDB computing the same with its built-ins over generated rows with NULLs;
 * and their errors: a function that throws or returns another type, wrong arity and types, a built-in's name, and
 * a Troupe that lacks the function.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
public class ScalarUdfTest {

    private static UdfEngines engines;
    private static Troupe troupe;

    @BeforeAll
    static void start() throws Exception {
        engines = UdfEngines.over(TroupeSettings.load(), List.of(UdfTables.sales(20_261_207L, 5_500)),
                ScalarUdfTest::register);
        troupe = engines.troupe();
    }

    /** The functions under test: plus_tax(x) as x * 1.2, half(x) as x / 2 (vectorised), tagged and cents. */
    public static void register(UserFunctions functions) {
        functions.scalar("plus_tax", List.of(DataType.FLOAT64), DataType.FLOAT64, args -> (Double) args[0] * 1.2)
                .vectorised("half", List.of(DataType.FLOAT64), DataType.FLOAT64, (args, batch) -> {
                    DoubleVector x = (DoubleVector) args[0];
                    double[] out = new double[batch.rowCount()];
                    for (int i = 0; i < batch.size(); i++) {
                        int r = batch.row(i);
                        out[r] = x.values()[r] / 2;
                    }
                    DoubleVector result = new DoubleVector(out);
                    result.setValidity(x.validity() == null ? null : x.validity().clone());
                    return result;
                })
                .scalar("tagged", List.of(DataType.VARCHAR, DataType.DATE), DataType.VARCHAR,
                        args -> args[0] + "@" + args[1])
                .scalar("cents", List.of(DataType.decimal(10, 2)), DataType.INT64,
                        args -> ((BigDecimal) args[0]).movePointRight(2).longValueExact())
                .scalar("fails", List.of(DataType.FLOAT64), DataType.FLOAT64, args -> {
                    if ((Double) args[0] < 0) {
                        throw new IllegalArgumentException("a negative price");
                    }
                    return args[0];
                })
                .scalar("wrong_type", List.of(DataType.INT32), DataType.INT64, args -> "text " + args[0])
                .vectorised("short_column", List.of(DataType.FLOAT64), DataType.FLOAT64,
                        (args, batch) -> new DoubleVector(new double[1]));
    }

    @AfterAll
    static void stop() throws Exception {
        engines.close();
    }

    private static final String DUCK_ROWS = "SELECT id, x * 1.2, x / 2, s || '@' || CAST(sold AS VARCHAR), "
            + "CAST(d * 100 AS BIGINT), CAST(g AS DOUBLE) * 1.2 FROM sales ORDER BY id";
    private static final String DUCK_GROUPS = "SELECT g, count(*), sum(x * 1.2) FROM sales WHERE x / 2 > 10 "
            + "GROUP BY g ORDER BY g";

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 4})
    void sqlAgreesWithDuckDb(int workers) throws Exception {
        assertAgrees(DUCK_ROWS, troupe.sql("SELECT id, plus_tax(x), half(x), tagged(s, sold), cents(d), plus_tax(g) "
                + "FROM sales ORDER BY id", options(workers)).rows());
        assertAgrees(DUCK_GROUPS, troupe.sql("SELECT g, count(*), sum(PLUS_TAX(x)) FROM sales WHERE half(x) > 10 "
                + "GROUP BY g ORDER BY g", options(workers)).rows());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 4})
    void planApiAgreesWithDuckDb(int workers) throws Exception {
        Plan rows = Plan.scan("sales").project(col("id"), Expr.call("plus_tax", col("x")).as("y"),
                        Expr.call("half", col("x")).as("h"), Expr.call("tagged", col("s"), col("sold")).as("t"),
                        Expr.call("cents", col("d")).as("c"), Expr.call("plus_tax", col("g")).as("pg"))
                .sort(new SortKey(col("id"), true, false));
        assertAgrees(DUCK_ROWS, troupe.execute(rows, options(workers)).rows());
        Plan groups = Plan.scan("sales").filter(Expr.call("half", col("x")).gt(lit(10.0)))
                .aggregate(List.of(col("g")), count().as("n"), sum(Expr.call("plus_tax", col("x"))).as("total"))
                .sort(new SortKey(col("g"), true, false));
        assertAgrees(DUCK_GROUPS, troupe.execute(groups, options(workers)).rows());
    }

    @Test
    void aCallOfConstantsIsTheFunctionsValue() throws Exception {
        assertEquals(List.of(List.of(12.0, "a@2024-02-29")),
                troupe.sql("SELECT plus_tax(10), tagged('a', DATE '2024-02-29')").rows());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 4})
    void aFunctionThatThrowsFailsItsQueryNamingItAndTheValue(int workers) {
        QueryFailedException e = assertThrows(QueryFailedException.class,
                () -> troupe.sql("SELECT fails(x) FROM sales", options(workers)));
        assertTrue(e.getMessage().contains("the function fails failed on (-"), e.getMessage());
        assertTrue(e.getMessage().contains("a negative price"), e.getMessage());
        assertTrue(e.getCause() instanceof IllegalArgumentException, e.getMessage());
        engines.assertReleased();
        QueryFailedException typed = assertThrows(QueryFailedException.class,
                () -> troupe.execute(Plan.scan("sales").project(Expr.call("wrong_type", col("g"))), options(workers)));
        assertTrue(typed.getMessage().contains("the function wrong_type returned a value that is not a BIGINT on ("), typed.getMessage());
        assertTrue(typed.getMessage().contains("String 'text "), typed.getMessage());
        engines.assertReleased();
    }

    @Test
    void aVectorisedFunctionsColumnIsChecked() {
        QueryFailedException e = assertThrows(QueryFailedException.class,
                () -> troupe.sql("SELECT short_column(x) FROM sales", options(2)));
        assertTrue(e.getMessage().contains("the function short_column returned a DOUBLE column of 1 rows, not a "
                + "DOUBLE column of "), e.getMessage());
        engines.assertReleased();
    }

    @Test
    void aPreparedStatementCallsThemWithEachExecutionsValues() throws Exception {
        PreparedSql prepared = troupe.prepareSql("SELECT id, plus_tax(x) + ? FROM sales WHERE g = ? ORDER BY id");
        for (int g : new int[] {-2, 4}) {
            assertAgrees("SELECT id, x * 1.2 + 1.5 FROM sales WHERE g = " + g + " ORDER BY id",
                    prepared.execute(options(2), 1.5, g).rows());
        }
    }

    /** Threads registering at once each get their functions, every one of them callable afterwards. */
    @Test
    void registrationFromManyThreadsKeepsEveryFunction() throws Exception {
        try (Troupe own = Troupe.start(TroupeSettings.load())) {
            int threads = 8;
            int each = 25;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        long k = thread * 1000L + i;
                        own.functions().scalar("f_" + thread + "_" + i, List.of(DataType.INT64), DataType.INT64,
                                args -> (Long) args[0] + k);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertEquals(threads * each, own.functions().current().scalars().size());
            assertEquals(List.of(List.of(7L + 7_024)), own.sql("SELECT f_7_24(CAST(7 AS BIGINT))").rows());
        }
    }

    @Test
    void wrongArityAndTypesNameTheFunctionAndItsSignature() {
        SqlException arity = assertThrows(SqlException.class, () -> troupe.sql("SELECT plus_tax(x, x) FROM sales"));
        assertTrue(arity.getMessage().contains("no function plus_tax(DOUBLE, DOUBLE); plus_tax takes (DOUBLE)"),
                arity.getMessage());
        SqlException type = assertThrows(SqlException.class, () -> troupe.sql("SELECT tagged(sold, s) FROM sales"));
        assertTrue(type.getMessage().contains("no function tagged(DATE, VARCHAR); tagged takes (VARCHAR, DATE)"),
                type.getMessage());
        PlanException plan = assertThrows(PlanException.class,
                () -> troupe.execute(Plan.scan("sales").project(Expr.call("plus_tax", col("s")))));
        assertTrue(plan.getMessage().contains("no function plus_tax(VARCHAR); plus_tax takes (DOUBLE)"),
                plan.getMessage());
    }

    @Test
    void aBuiltInsNameOrOneTakenIsRefused() {
        UserFunctions functions = troupe.functions();
        for (String name : List.of("sqrt", "SUM", "coalesce", "row_number", "plus_tax")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> functions.scalar(name, List.of(DataType.FLOAT64), DataType.FLOAT64, args -> args[0]));
            assertTrue(e.getMessage().contains("'" + name.toLowerCase() + "'"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class,
                () -> functions.scalar("not a name", List.of(), DataType.FLOAT64, args -> 1.0));
    }

    @Test
    void anotherTroupeSeesNoneOfThem() throws Exception {
        try (Troupe other = Troupe.start(TroupeSettings.load())) {
            other.register(UdfTables.sales(1, 10));
            SqlException e = assertThrows(SqlException.class, () -> other.sql("SELECT plus_tax(x) FROM sales"));
            assertTrue(e.getMessage().toLowerCase().contains("plus_tax"), e.getMessage());
            PlanException p = assertThrows(PlanException.class,
                    () -> other.execute(Plan.scan("sales").project(Expr.call("plus_tax", col("x")))));
            assertTrue(p.getMessage().contains("unknown function 'plus_tax'"), p.getMessage());
            register(other.functions());
            assertEquals(10, other.sql("SELECT plus_tax(x) FROM sales").rows().size());
        }
    }

    private static QueryOptions options(int workers) {
        return UdfEngines.options(workers);
    }

    private static void assertAgrees(String duckSql, List<List<Object>> actual) throws Exception {
        engines.assertAgrees(duckSql, actual);
    }
}
