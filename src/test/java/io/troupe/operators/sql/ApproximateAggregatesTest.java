package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * approx_count_distinct and approx_quantile past the sizes they answer exactly, where their sketches answer: over
 * 240,000 rows in four groups of 60,000 and over all of them, with 1, 2 and 4 workers (whose sketches merge), checked
 * against DuckDB's exact answers. approx_count_distinct must be within {@value #DISTINCT_ERROR} of count(DISTINCT)
 * (HyperLogLog's standard error is 0.8%: this is four of them); approx_quantile's value must rank within
 * {@value #RANK_ERROR} of the values from where percentile_disc's would (its sketch's error is about 1.65% with 99%
 * confidence), DuckDB counting the values below and up to it.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ApproximateAggregatesTest {

    static final double DISTINCT_ERROR = 0.032;
    static final double RANK_ERROR = 0.025;
    private static final int ROWS = 240_000;
    private static final double[] FRACTIONS = {0.0, 0.01, 0.25, 0.5, 0.9, 0.999, 1.0};

    private static SqlEngines engines;
    private static Troupe troupe;
    private static DuckDbOracle duck;

    @BeforeAll
    static void load() throws Exception {
        Random random = new Random(5);
        TableBuilder t = new TableBuilder("big", Schema.of(Field.of("g", DataType.INT32), Field.of("v", DataType.INT64),
                Field.of("w", DataType.FLOAT64), Field.of("s", DataType.VARCHAR), Field.of("m", DataType.decimal(12, 2))),
                1024);
        for (int r = 0; r < ROWS; r++) {
            boolean gap = random.nextInt(50) == 0;
            t.addRow(r % 4, gap ? null : random.nextLong() % 10_000_000L, gap ? null : random.nextGaussian() * 1000,
                    gap ? null : "s" + random.nextInt(150_000), BigDecimal.valueOf(random.nextInt(1_000_000), 2));
        }
        Table big = t.build();
        engines = SqlEngines.over(List.of(big));
        troupe = engines.troupe();
        duck = engines.duck();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    void approxCountDistinctIsWithinFourStandardErrors(int workers) throws Exception {
        List<List<Object>> got = DuckDbOracle.normalise(troupe.sql("SELECT g, approx_count_distinct(v), "
                + "approx_count_distinct(s), approx_count_distinct(w) FROM big GROUP BY g ORDER BY g",
                QueryOptions.defaults().withWorkers(workers)).rows());
        List<List<Object>> exact = duck.query("SELECT g, count(DISTINCT v), count(DISTINCT s), count(DISTINCT w) "
                + "FROM big GROUP BY g ORDER BY g").rows();
        assertEquals(4, got.size());
        for (int r = 0; r < 4; r++) {
            for (int c = 1; c < 4; c++) {
                assertClose(exact.get(r).get(c), got.get(r).get(c), "group " + r + " column " + c);
            }
        }
        List<Object> all = DuckDbOracle.normalise(troupe.sql("SELECT approx_count_distinct(v), approx_count_distinct(s) "
                + "FROM big", QueryOptions.defaults().withWorkers(workers)).rows()).get(0);
        List<Object> allExact = duck.query("SELECT count(DISTINCT v), count(DISTINCT s) FROM big").rows().get(0);
        assertClose(allExact.get(0), all.get(0), "v");
        assertClose(allExact.get(1), all.get(1), "s");
    }

    private static void assertClose(Object exact, Object estimate, String what) {
        double e = ((Number) exact).doubleValue();
        double a = ((Number) estimate).doubleValue();
        assertTrue(Math.abs(a - e) <= DISTINCT_ERROR * e, what + ": exact " + e + ", estimate " + a);
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2, 4})
    void approxQuantileRanksWithinItsSketchsError(int workers) throws Exception {
        for (double q : FRACTIONS) {
            List<List<Object>> got = DuckDbOracle.normalise(troupe.sql("SELECT g, approx_quantile(w, " + q + "), "
                    + "approx_quantile(v, " + q + "), approx_quantile(m, " + q + ") FROM big GROUP BY g ORDER BY g",
                    QueryOptions.defaults().withWorkers(workers)).rows());
            for (List<Object> row : got) {
                String group = " FROM big WHERE g = " + row.get(0);
                assertRank(q, "w", row.get(1), group);
                assertRank(q, "v", row.get(2), group);
                assertRank(q, "m", row.get(3), group);
            }
            Object overAll = DuckDbOracle.normalise(troupe.sql("SELECT approx_quantile(w, " + q + ") FROM big",
                    QueryOptions.defaults().withWorkers(workers)).rows()).get(0).get(0);
            assertRank(q, "w", overAll, " FROM big");
        }
    }

    /** That {@code value}'s ranks among the column's values (from 1) come within the error of ceil(q * n). */
    private static void assertRank(double q, String column, Object value, String from) throws Exception {
        List<Object> counts = duck.query("SELECT count(*) FILTER (WHERE " + column + " < " + value + "), count(*) "
                + "FILTER (WHERE " + column + " <= " + value + "), count(" + column + ")" + from).rows().get(0);
        long below = ((Number) counts.get(0)).longValue();
        long upTo = ((Number) counts.get(1)).longValue();
        long n = ((Number) counts.get(2)).longValue();
        long target = Math.max(1, (long) Math.ceil(q * n));
        double slack = RANK_ERROR * n;
        assertTrue(upTo > 0 && below + 1 <= target + slack && upTo >= target - slack,
                column + " at " + q + from + ": " + value + " ranks " + (below + 1) + ".." + upTo + " of " + n
                        + ", target " + target);
    }
}
