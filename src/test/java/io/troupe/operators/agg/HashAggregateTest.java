package io.troupe.operators.agg;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.troupe.operators.plan.Expr.avg;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static io.troupe.operators.plan.Expr.countDistinct;
import static io.troupe.operators.plan.Expr.max;
import static io.troupe.operators.plan.Expr.min;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Hash aggregation and DISTINCT through the public API, checked against DuckDB over the same rows:
 * every aggregate with and without keys, single keys of each fast and generic shape, several keys,
 * NULL keys and inputs, empty input, and input batches of 1, 3 and 2048 rows.
 */
class HashAggregateTest {

    private static final Schema SCHEMA = Schema.of(
            Field.of("k", DataType.INT32),
            Field.of("s", DataType.VARCHAR),
            Field.of("d", DataType.DATE),
            Field.of("i", DataType.INT32),
            Field.of("l", DataType.INT64),
            Field.of("x", DataType.FLOAT64),
            Field.of("m", DataType.decimal(12, 2)),
            Field.of("b", DataType.BOOLEAN));

    private static final String[] WORDS = {"", "a", "A", "abc", "abd", "zz", "é", "ét", "€", "\uD83D\uDE00", "it's"};

    private static DuckDbOracle duck;
    private static List<Object[]> rows;

    @BeforeAll
    static void loadOracle() throws SQLException {
        rows = generate(new Random(42), 5000);
        duck = new DuckDbOracle();
        duck.load("t", SCHEMA, rows);
        duck.load("e", SCHEMA, List.of());
        duck.load("h1", SCHEMA, rows.subList(0, 2000));
        duck.load("h2", SCHEMA, rows.subList(2000, rows.size()));
    }

    @AfterAll
    static void closeOracle() throws SQLException {
        duck.close();
    }

    /** Rows with a NULL in every column now and then, few distinct keys, some repeated values. */
    private static List<Object[]> generate(Random r, int n) {
        List<Object[]> out = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            out.add(new Object[] {
                    nullOr(r, r.nextInt(12) - 3),
                    nullOr(r, WORDS[r.nextInt(WORDS.length)]),
                    nullOr(r, LocalDate.of(1999, 12, 25).plusDays(r.nextInt(12))),
                    nullOr(r, r.nextInt(2_000_001) - 1_000_000),
                    nullOr(r, r.nextLong() >> 8),
                    nullOr(r, r.nextDouble() * 1000),
                    nullOr(r, BigDecimal.valueOf(r.nextLong() % 10_000_000_000L, 2)),
                    nullOr(r, r.nextInt(7) == 0),
            });
        }
        return out;
    }

    private static Object nullOr(Random r, Object value) {
        return r.nextInt(10) == 0 ? null : value;
    }

    private static Troupe troupe(int batchSize) {
        Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(batchSize));
        troupe.register(table("t", rows, batchSize));
        troupe.register(table("e", List.of(), batchSize));
        troupe.register(table("h1", rows.subList(0, 2000), batchSize));
        troupe.register(table("h2", rows.subList(2000, rows.size()), batchSize));
        return troupe;
    }

    /** A table whose chunks (the scan's batches) have the query's batch size. */
    private static io.troupe.operators.table.Table table(String name, List<Object[]> data, int chunkRows) {
        TableBuilder b = new TableBuilder(name, SCHEMA, chunkRows);
        for (Object[] row : data) {
            b.addRow(row);
        }
        return b.build();
    }

    /** Every aggregate over every column it applies to, with its SQL. */
    private static final Expr[] AGGREGATES = {
            count(), count(col("i")), count(col("s")),
            sum(col("i")), sum(col("l")), sum(col("x")), sum(col("m")),
            avg(col("i")), avg(col("l")), avg(col("x")), avg(col("m")),
            min(col("k")), max(col("k")), min(col("s")), max(col("s")), min(col("d")), max(col("d")),
            min(col("l")), max(col("l")), min(col("x")), max(col("x")), min(col("m")), max(col("m")),
            min(col("b")), max(col("b")),
            countDistinct(col("i")), countDistinct(col("s")), countDistinct(col("d")),
            countDistinct(col("x")), countDistinct(col("m")), countDistinct(col("b")),
    };

    private static final String AGGREGATES_SQL = "count(*), count(i), count(s), sum(i), sum(l), sum(x), sum(m), "
            + "avg(i), avg(l), avg(x), avg(m), min(k), max(k), min(s), max(s), min(d), max(d), "
            + "min(l), max(l), min(x), max(x), min(m), max(m), min(b), max(b), "
            + "count(DISTINCT i), count(DISTINCT s), count(DISTINCT d), count(DISTINCT x), "
            + "count(DISTINCT m), count(DISTINCT b)";

    private static void check(Troupe troupe, Plan plan, String sql) throws SQLException {
        duck.assertSameRows(sql, troupe.execute(plan).rows());
    }

    @ParameterizedTest(name = "batch size {0}")
    @ValueSource(ints = {1, 3, 2048})
    void shouldComputeEveryAggregateWithoutKeys(int batchSize) throws SQLException {
        try (Troupe troupe = troupe(batchSize)) {
            check(troupe, Plan.scan("t").aggregate(List.of(), AGGREGATES), "select " + AGGREGATES_SQL + " from t");
        }
    }

    @ParameterizedTest(name = "batch size {0}")
    @ValueSource(ints = {1, 3, 2048})
    void shouldComputeEveryAggregatePerSingleKey(int batchSize) throws SQLException {
        try (Troupe troupe = troupe(batchSize)) {
            for (String key : List.of("k", "s", "d", "b", "m", "x")) {
                check(troupe, Plan.scan("t").aggregate(List.of(col(key)), AGGREGATES),
                        "select " + key + ", " + AGGREGATES_SQL + " from t group by " + key);
            }
        }
    }

    @ParameterizedTest(name = "batch size {0}")
    @ValueSource(ints = {1, 3, 2048})
    void shouldGroupBySeveralKeysWithNulls(int batchSize) throws SQLException {
        try (Troupe troupe = troupe(batchSize)) {
            check(troupe, Plan.scan("t").aggregate(List.of(col("k"), col("s"), col("d")), AGGREGATES),
                    "select k, s, d, " + AGGREGATES_SQL + " from t group by k, s, d");
            check(troupe, Plan.scan("t").aggregate(List.of(col("b"), col("k")), count().as("n"), sum(col("m"))),
                    "select b, k, count(*), sum(m) from t group by b, k");
        }
    }

    @ParameterizedTest(name = "batch size {0}")
    @ValueSource(ints = {1, 3, 2048})
    void shouldGroupByManyDistinctKeys(int batchSize) throws SQLException {
        try (Troupe troupe = troupe(batchSize)) {
            // i and l are almost unique: the tables grow many times over.
            check(troupe, Plan.scan("t").aggregate(List.of(col("i")), count(), sum(col("x"))),
                    "select i, count(*), sum(x) from t group by i");
            check(troupe, Plan.scan("t").aggregate(List.of(col("l"), col("s")), count(), max(col("s"))),
                    "select l, s, count(*), max(s) from t group by l, s");
        }
    }

    @ParameterizedTest(name = "batch size {0}")
    @ValueSource(ints = {1, 3, 2048})
    void shouldRemoveDuplicateRows(int batchSize) throws SQLException {
        try (Troupe troupe = troupe(batchSize)) {
            check(troupe, Plan.scan("t").project(col("k"), col("s"), col("d")).distinct(),
                    "select distinct k, s, d from t");
            check(troupe, Plan.scan("t").project(col("b")).distinct(), "select distinct b from t");
            check(troupe, Plan.scan("t").distinct(), "select distinct * from t");
            check(troupe, Plan.scan("e").distinct(), "select distinct * from e");
        }
    }

    @ParameterizedTest(name = "batch size {0}")
    @ValueSource(ints = {1, 3, 2048})
    void shouldMergePartialAggregatesOfSeveralBranches(int batchSize) throws SQLException {
        try (Troupe troupe = troupe(batchSize)) {
            // Each branch of a UNION ALL feeds its own local aggregation; they merge at finish.
            Plan both = Plan.scan("h1").unionAll(Plan.scan("h2"));
            check(troupe, both.aggregate(List.of(col("k"), col("s")), AGGREGATES),
                    "select k, s, " + AGGREGATES_SQL + " from t group by k, s");
            check(troupe, both.aggregate(List.of(col("i")), count(), min(col("s"))),
                    "select i, count(*), min(s) from t group by i");
            check(troupe, both.aggregate(List.of(), AGGREGATES), "select " + AGGREGATES_SQL + " from t");
            check(troupe, both.distinct(), "select distinct * from t");
        }
    }

    @Test
    void shouldReturnOneRowForGlobalAggregateOfEmptyInput() throws SQLException {
        try (Troupe troupe = troupe(2048)) {
            QueryResult r = troupe.execute(Plan.scan("e").aggregate(List.of(), count(), sum(col("i")), min(col("s"))));
            assertEquals(List.of(Arrays.asList(0L, null, null)), r.rows());
            check(troupe, Plan.scan("e").aggregate(List.of(), AGGREGATES), "select " + AGGREGATES_SQL + " from e");
            check(troupe, Plan.scan("e").aggregate(List.of(col("k")), AGGREGATES),
                    "select k, " + AGGREGATES_SQL + " from e group by k");
            assertEquals(0, troupe.execute(Plan.scan("e").aggregate(List.of(col("s"), col("k")), count())).rowCount());
        }
    }

    @Test
    void shouldFilterAggregateOutputWithHaving() throws SQLException {
        try (Troupe troupe = troupe(3)) {
            Plan plan = Plan.scan("t").aggregate(List.of(col("k")), max(col("b")).as("any_b"), count().as("n"))
                    .having(col("any_b"));
            check(troupe, plan, "select k, max(b), count(*) from t group by k having max(b)");
            assertEquals(List.of("k", "any_b", "n"),
                    troupe.execute(plan).schema().fields().stream().map(Field::name).toList());
        }
    }

    @Test
    void shouldTypeResultsAsDuckDbDoes() {
        try (Troupe troupe = troupe(2048)) {
            Schema s = troupe.execute(Plan.scan("t").aggregate(List.of(col("d")),
                    count().as("n"), sum(col("i")).as("si"), sum(col("m")).as("sm"), avg(col("m")).as("am"),
                    min(col("s")).as("ms"), max(col("b")).as("mb"))).schema();
            assertEquals(List.of(DataType.DATE, DataType.INT64, DataType.INT64, DataType.decimal(38, 2),
                    DataType.FLOAT64, DataType.VARCHAR, DataType.BOOLEAN),
                    s.fields().stream().map(Field::type).toList());
            assertEquals("t.d", s.field(0).qualifiedName());
        }
    }

    @Test
    void shouldEmitTheOutputInBatchesOfTheBatchSize() {
        try (Troupe troupe = troupe(3)) {
            QueryResult r = troupe.execute(Plan.scan("t").aggregate(List.of(col("k")), count()));
            assertEquals(13, r.rowCount());
            assertEquals(List.of(3, 3, 3, 3, 1), r.batches().stream().map(Batch::size).toList());
        }
    }

    @Test
    void shouldRejectAggregatesThatDoNotApply() {
        try (Troupe troupe = troupe(2048)) {
            PlanException e = assertThrows(PlanException.class,
                    () -> troupe.execute(Plan.scan("t").aggregate(List.of(col("k")), sum(col("s")))));
            assertEquals("sum does not apply to VARCHAR; it needs a numeric argument: sum(s) "
                    + "(in Hash Aggregate sum(s) Group Key: k)", e.getMessage());
            e = assertThrows(PlanException.class,
                    () -> troupe.execute(Plan.scan("t").aggregate(List.of(), col("k"))));
            assertEquals("k is not an aggregate function; put plain expressions in the group keys or in a "
                    + "project() above (in Hash Aggregate k)", e.getMessage());
            e = assertThrows(PlanException.class, () -> troupe.execute(Plan.scan("t").aggregate(List.of())));
            assertEquals("an aggregate needs group keys or aggregate functions (in Hash Aggregate )", e.getMessage());
        }
    }

    @Test
    void shouldTreatZerosAsEqualAndNaNAsOneValue() throws SQLException {
        Schema schema = Schema.of(Field.of("x", DataType.FLOAT64), Field.of("g", DataType.INT32));
        List<Object[]> data = new ArrayList<>();
        double[] values = {0.0, -0.0, Double.NaN, 1.5, Double.NaN, -0.0, 2.5, 0.0};
        for (int j = 0; j < values.length; j++) {
            data.add(new Object[] {values[j], j % 2});
        }
        data.add(new Object[] {null, 0});
        duck.load("z", schema, data);
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(3))) {
            TableBuilder b = new TableBuilder("z", schema, 3);
            data.forEach(b::addRow);
            troupe.register(b.build());
            check(troupe, Plan.scan("z").aggregate(List.of(col("x")), count(), sum(col("g"))),
                    "select x, count(*), sum(g) from z group by x");
            check(troupe, Plan.scan("z").aggregate(List.of(col("g")), countDistinct(col("x")), min(col("x")),
                    max(col("x")), count(col("x"))), "select g, count(DISTINCT x), min(x), max(x), count(x) from z group by g");
            check(troupe, Plan.scan("z").project(col("x")).distinct(), "select distinct x from z");
        }
    }

    @Test
    void shouldSumDecimalsExactly() throws SQLException {
        Schema schema = Schema.of(Field.of("g", DataType.INT32), Field.of("m", DataType.decimal(18, 2)));
        List<Object[]> data = new ArrayList<>();
        for (int j = 0; j < 2_000; j++) {
            // 15 significant digits each, 18 in the sum: a double sum would lose the cents.
            data.add(new Object[] {j % 3, new BigDecimal("3141592653589.79").add(BigDecimal.valueOf(j, 2))});
        }
        data.add(new Object[] {0, new BigDecimal("-0.01")});
        duck.load("dec", schema, data);
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(1000))) {
            TableBuilder b = new TableBuilder("dec", schema, 1000);
            data.forEach(b::addRow);
            troupe.register(b.build());
            check(troupe, Plan.scan("dec").aggregate(List.of(col("g")), sum(col("m")), avg(col("m")), min(col("m"))),
                    "select g, sum(m), avg(m), min(m) from dec group by g");
            check(troupe, Plan.scan("dec").aggregate(List.of(), sum(col("m"))), "select sum(m) from dec");
        }
    }

    @Test
    void shouldFailNamingTheAggregateWhenSumsOverflow() throws SQLException {
        Schema schema = Schema.of(Field.of("l", DataType.INT64), Field.of("m", DataType.decimal(18, 0)));
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(2))) {
            List<Object[]> data = new java.util.ArrayList<>();
            for (int j = 0; j < 3; j++) {
                data.add(new Object[] {Long.MAX_VALUE / 2, new BigDecimal("500000000000000000")});
            }
            TableBuilder b = new TableBuilder("big", schema, 2);
            data.forEach(b::addRow);
            troupe.register(b.build());
            duck.load("big", schema, data);
            QueryFailedException e = assertThrows(QueryFailedException.class,
                    () -> troupe.execute(Plan.scan("big").aggregate(List.of(), sum(col("l")))));
            assertEquals("overflow in sum(l): the sum does not fit INT64", e.getMessage());
            // A DECIMAL(18,0) sums into a DECIMAL(38,0), as in DuckDB: past 18 digits is no overflow.
            check(troupe, Plan.scan("big").aggregate(List.of(), sum(col("m"))), "select sum(m) from big");
            // avg divides the exact 128-bit sum, as DuckDB does: no overflow.
            check(troupe, Plan.scan("big").aggregate(List.of(col("m")), avg(col("l"))),
                    "select m, avg(l) from big group by m");
        }
    }

    @Test
    void shouldSumExactlyWhenARunningSumPassesTheRangeOfALong() throws SQLException {
        Schema schema = Schema.of(Field.of("g", DataType.INT32), Field.of("l", DataType.INT64));
        long big = 9_000_000_000_000_000_000L;
        List<Object[]> data = List.of(new Object[] {1, big}, new Object[] {1, big}, new Object[] {1, -big},
                new Object[] {1, -big}, new Object[] {1, 5L}, new Object[] {2, -big}, new Object[] {2, -big},
                new Object[] {2, big}, new Object[] {2, big}, new Object[] {2, -7L});
        duck.load("swing", schema, data);
        for (int workers : new int[] {0, 2}) {
            try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(2))) {
                TableBuilder b = new TableBuilder("swing", schema, 2);
                data.forEach(b::addRow);
                troupe.register(b.build());
                Plan plan = Plan.scan("swing").aggregate(List.of(col("g")), sum(col("l")).as("s"), avg(col("l")).as("a"))
                        .sort(col("g").asc());
                assertEquals(List.of(List.of(1, 5L, 1.0), List.of(2, -7L, -1.4)),
                        troupe.execute(plan, io.troupe.actors.api.QueryOptions.defaults().withWorkers(workers)).rows(),
                        "workers=" + workers);
                check(troupe, plan, "select g, sum(l) s, avg(l) a from swing group by g order by g");
            }
        }
    }
}
