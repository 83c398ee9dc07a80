package io.troupe.operators.udf;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Aggregates of one's own ({@link UserAggregate}) from SQL and the plan API with 0, 2 and 4 workers, grouped and
 * global, against DuckDB computing the same with its built-ins over generated rows with NULLs; and their errors.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
public class AggregateUdfTest {

    private static UdfEngines engines;
    private static Troupe troupe;

    @BeforeAll
    static void start() throws Exception {
        engines = UdfEngines.over(TroupeSettings.load(), List.of(UdfTables.sales(20_261_208L, 7_300)),
                AggregateUdfTest::register);
        troupe = engines.troupe();
    }

    @AfterAll
    static void stop() throws Exception {
        engines.close();
    }

    /** sum_sq(x) as sum(x * x), span(x) as max(x) - min(x), dot_g(x, g) as sum(x * g), words(s) as count(s). */
    public static void register(UserFunctions functions) {
        functions.aggregate("sum_sq", List.of(DataType.FLOAT64), DataType.FLOAT64, List.of(DataType.FLOAT64),
                        new SumOf(args -> (Double) args[0] * (Double) args[0]))
                .aggregate("dot_g", List.of(DataType.FLOAT64, DataType.INT64), DataType.FLOAT64,
                        List.of(DataType.FLOAT64), new SumOf(args -> (Double) args[0] * (Long) args[1]))
                .aggregate("span", List.of(DataType.FLOAT64), DataType.FLOAT64,
                        List.of(DataType.FLOAT64, DataType.FLOAT64), new Span())
                .aggregate("words", List.of(DataType.VARCHAR), DataType.INT64, List.of(DataType.INT64), new Count())
                .aggregate("rows_seen", List.of(), DataType.INT64, List.of(DataType.INT64), new Count())
                .scalar("next_id", List.of(), DataType.INT64, args -> 7_301L)
                .aggregate("fails_on", List.of(DataType.INT32), DataType.INT64, List.of(DataType.INT64),
                        new Count() {
                            @Override
                            public void accumulate(Object[] state, Object[] arguments) {
                                if ((Integer) arguments[0] == 3) {
                                    throw new IllegalStateException("three is too many");
                                }
                                super.accumulate(state, arguments);
                            }
                        });
    }

    /** The rows, 0 over none. */
    private static class Count implements UserAggregate {

        @Override
        public Object[] init() {
            return new Object[] {0L};
        }

        @Override
        public void accumulate(Object[] state, Object[] arguments) {
            state[0] = (Long) state[0] + 1;
        }

        @Override
        public void merge(Object[] state, Object[] other) {
            state[0] = (Long) state[0] + (Long) other[0];
        }

        @Override
        public Object finish(Object[] state) {
            return state[0];
        }
    }

    /** The sum of a value of each row, NULL over no rows. */
    private record SumOf(RowFunction term) implements UserAggregate {

        @Override
        public Object[] init() {
            return new Object[] {null};
        }

        @Override
        public void accumulate(Object[] state, Object[] arguments) throws Exception {
            add(state, (Double) term.apply(arguments));
        }

        @Override
        public void merge(Object[] state, Object[] other) {
            if (other[0] != null) {
                add(state, (Double) other[0]);
            }
        }

        private static void add(Object[] state, double value) {
            state[0] = state[0] == null ? value : (Double) state[0] + value;
        }

        @Override
        public Object finish(Object[] state) {
            return state[0];
        }
    }

    /** max - min: the state is (min, max), NULLs before the first row. */
    private static final class Span implements UserAggregate {

        @Override
        public Object[] init() {
            return new Object[] {null, null};
        }

        @Override
        public void accumulate(Object[] state, Object[] arguments) {
            merge(state, new Object[] {arguments[0], arguments[0]});
        }

        @Override
        public void merge(Object[] state, Object[] other) {
            if (other[0] != null) {
                state[0] = state[0] == null ? other[0] : Math.min((Double) state[0], (Double) other[0]);
                state[1] = state[1] == null ? other[1] : Math.max((Double) state[1], (Double) other[1]);
            }
        }

        @Override
        public Object finish(Object[] state) {
            return state[0] == null ? null : (Double) state[1] - (Double) state[0];
        }
    }

    private static final String DUCK_GROUPS = "SELECT g, sum(x * x), max(x) - min(x), sum(x * g), count(s) "
            + "FROM sales GROUP BY g ORDER BY g";
    private static final String DUCK_GLOBAL = "SELECT sum(x * x), max(x) - min(x), sum(x * g), count(s) FROM sales";
    private static final String DUCK_EMPTY = DUCK_GLOBAL + " WHERE id < 0";

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 4})
    void sqlAgreesWithDuckDb(int workers) throws Exception {
        assertAgrees(DUCK_GROUPS, troupe.sql("SELECT g, sum_sq(x), SPAN(x), dot_g(x, g), words(s) FROM sales "
                + "GROUP BY g ORDER BY g", options(workers)).rows());
        assertAgrees(DUCK_GLOBAL, troupe.sql("SELECT sum_sq(x), span(x), dot_g(x, g), words(s) FROM sales",
                options(workers)).rows());
        assertAgrees(DUCK_EMPTY, troupe.sql("SELECT sum_sq(x), span(x), dot_g(x, g), words(s) FROM sales "
                + "WHERE id < 0", options(workers)).rows());
        assertAgrees("SELECT g, sum(x * x), count(DISTINCT s) FROM sales GROUP BY g ORDER BY g",
                troupe.sql("SELECT g, sum_sq(x), count(DISTINCT s) FROM sales GROUP BY g ORDER BY g",
                        options(workers)).rows());
        assertAgrees("SELECT sum(x * x), count(*) FROM (SELECT DISTINCT x FROM sales)",
                troupe.sql("SELECT sum_sq(DISTINCT x), count(DISTINCT x) + 1 FROM sales", options(workers)).rows());
        assertAgrees("SELECT g, sum(x * x) FROM sales GROUP BY g HAVING count(s) > 700 ORDER BY g",
                troupe.sql("SELECT g, sum_sq(x) FROM sales GROUP BY g HAVING words(s) > 700 ORDER BY g",
                        options(workers)).rows());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 4})
    void planApiAgreesWithDuckDb(int workers) throws Exception {
        Expr[] aggregates = {Expr.call("sum_sq", col("x")).as("ss"), Expr.call("span", col("x")).as("sp"),
                Expr.call("dot_g", col("x"), col("g")).as("d"), Expr.call("words", col("s")).as("w")};
        assertAgrees(DUCK_GROUPS, troupe.execute(Plan.scan("sales").aggregate(List.of(col("g")), aggregates)
                .sort(new SortKey(col("g"), true, false)), options(workers)).rows());
        assertAgrees(DUCK_GLOBAL, troupe.execute(Plan.scan("sales").aggregate(List.of(), aggregates),
                options(workers)).rows());
        assertAgrees(DUCK_EMPTY, troupe.execute(Plan.scan("sales").filter(col("id").lt(lit(0L)))
                .aggregate(List.of(), aggregates), options(workers)).rows());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 4})
    void anAggregateThatThrowsFailsItsQueryNamingItAndTheValue(int workers) {
        QueryFailedException e = assertThrows(QueryFailedException.class,
                () -> troupe.sql("SELECT s, fails_on(g) FROM sales GROUP BY s", options(workers)));
        assertTrue(e.getMessage().contains("the aggregate fails_on failed on (3) in fails_on(g)"), e.getMessage());
        assertTrue(e.getMessage().contains("three is too many"), e.getMessage());
        engines.assertReleased();
    }

    @Test
    void wrongArityTypesAndPlacesNameTheAggregate() {
        SqlException arity = assertThrows(SqlException.class, () -> troupe.sql("SELECT sum_sq(x, x) FROM sales"));
        assertTrue(arity.getMessage().contains("no function sum_sq(DOUBLE, DOUBLE); sum_sq takes (DOUBLE)"),
                arity.getMessage());
        SqlException type = assertThrows(SqlException.class, () -> troupe.sql("SELECT words(x) FROM sales"));
        assertTrue(type.getMessage().contains("no function words(DOUBLE); words takes (VARCHAR)"), type.getMessage());
        PlanException plan = assertThrows(PlanException.class, () -> troupe.execute(Plan.scan("sales")
                .aggregate(List.of(), Expr.call("span", col("s")))));
        assertTrue(plan.getMessage().contains("no function span(VARCHAR); span takes (DOUBLE)"), plan.getMessage());
        PlanException place = assertThrows(PlanException.class, () -> troupe.execute(Plan.scan("sales")
                .project(Expr.call("span", col("x")))));
        assertTrue(place.getMessage().contains("aggregate function span(x) is not allowed here"), place.getMessage());
        SqlException filter = assertThrows(SqlException.class,
                () -> troupe.sql("SELECT sum_sq(x) FILTER (WHERE g > 0) FROM sales"));
        assertTrue(filter.getMessage().contains("DISTINCT, FILTER or ORDER BY in a call of sum_sq(DOUBLE) -> DOUBLE"),
                filter.getMessage());
        IllegalArgumentException taken = assertThrows(IllegalArgumentException.class, () -> troupe.functions()
                .aggregate("sum", List.of(DataType.FLOAT64), DataType.FLOAT64, List.of(), new Span()));
        assertTrue(taken.getMessage().contains("'sum' is a built-in function's name"), taken.getMessage());
        IllegalArgumentException again = assertThrows(IllegalArgumentException.class, () -> troupe.functions()
                .scalar("span", List.of(DataType.FLOAT64), DataType.FLOAT64, args -> args[0]));
        assertTrue(again.getMessage().contains("registered already: span(DOUBLE) -> DOUBLE"), again.getMessage());
    }

    private static QueryOptions options(int workers) {
        return UdfEngines.options(workers);
    }

    private static void assertAgrees(String duckSql, List<List<Object>> actual) throws Exception {
        engines.assertAgrees(duckSql, actual);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void anAggregateOfNoArgumentsCountsRowsAsCountStarDoes(int workers) throws Exception {
        assertAgrees("SELECT g, count(*), CAST(7301 AS BIGINT) FROM sales GROUP BY g ORDER BY g",
                troupe.sql("SELECT g, rows_seen(), next_id() FROM sales GROUP BY g ORDER BY g", options(workers))
                        .rows());
    }

    @Test
    void theResultIsNullableAndTyped() {
        assertEquals(DataType.INT64, troupe.execute(Plan.scan("sales").aggregate(List.of(),
                Expr.call("words", col("s")).as("w"))).schema().field(0).type());
    }
}
