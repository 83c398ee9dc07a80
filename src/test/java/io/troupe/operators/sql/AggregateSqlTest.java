package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The aggregates beyond count, sum, min, max, avg and the variances, through {@code troupe.sql} against DuckDB over
 * the same random table, each statement with 1, 2 and 4 workers: median, percentile_cont and percentile_disc (both
 * directions, numbers, decimals, strings, dates, timestamps, booleans), mode, string_agg and listagg with ORDER BY,
 * bool_and, bool_or, every and some, corr and the covariances and regressions, approx_count_distinct and
 * approx_quantile; per
 * group (groups of many rows, of one row, of NULLs only, a NULL key) and over everything, over no rows, with FILTER,
 * with DISTINCT, beside count(DISTINCT) (which runs them as partial states merged in a later step).
 *
 * <p>Where PostgreSQL and DuckDB differ, Troupe answers as PostgreSQL and the DuckDB side of the case says how to
 * get that answer from DuckDB: percentile_cont of a DECIMAL is a DOUBLE (DuckDB keeps the DECIMAL), string_agg with
 * a NULL separator joins with nothing (DuckDB: NULL), corr and regr_slope are NULL where x or y does not vary (DuckDB:
 * NaN), every and some are bool_and and bool_or (DuckDB lacks them). approx_count_distinct and approx_quantile are
 * exact below their sketches' thresholds, as count(DISTINCT) and percentile_disc; their sketches' errors are checked
 * on inputs large enough to use them.
 *
 * <p>Doubles compare within {@value #RELATIVE} of the larger magnitude (or of 1, for values near zero): Troupe's
 * Welford updates and DuckDB's sums agree to about 1e-13 on these inputs.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class AggregateSqlTest {

    static final double RELATIVE = 1e-9;
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(120);

    /** A case: Troupe's statement, and DuckDB's where it must be written otherwise for PostgreSQL's answer. */
    private record Case(String troupe, String duck) {
        Case(String sql) {
            this(sql, sql);
        }
    }

    private static final String PERCENTILES = "median(x), median(d), median(f), median(s), "
            + "percentile_cont(0.3) WITHIN GROUP (ORDER BY x), percentile_cont(0.9) WITHIN GROUP (ORDER BY f DESC), "
            + "percentile_cont(0) WITHIN GROUP (ORDER BY x DESC), percentile_cont(1) WITHIN GROUP (ORDER BY f), "
            + "percentile_disc(0.3) WITHIN GROUP (ORDER BY x), percentile_disc(0.7) WITHIN GROUP (ORDER BY s DESC), "
            + "percentile_disc(0.5) WITHIN GROUP (ORDER BY dt), percentile_disc(0.25) WITHIN GROUP (ORDER BY d), "
            + "percentile_disc(0.6) WITHIN GROUP (ORDER BY f DESC), percentile_disc(0.1) WITHIN GROUP (ORDER BY b), "
            + "percentile_disc(1) WITHIN GROUP (ORDER BY x), percentile_disc(0) WITHIN GROUP (ORDER BY s)";
    private static final String MODES = "mode() WITHIN GROUP (ORDER BY k), mode() WITHIN GROUP (ORDER BY s DESC), "
            + "mode() WITHIN GROUP (ORDER BY dt), mode() WITHIN GROUP (ORDER BY b DESC), mode() WITHIN GROUP (ORDER BY d)";
    private static final String PAIRS = "corr(y, x), covar_pop(y, x), covar_samp(y, x), regr_slope(y, x), "
            + "regr_intercept(y, x), regr_r2(y, x), regr_count(y, x), regr_avgx(y, x), regr_avgy(y, x), "
            + "regr_sxx(y, x), regr_syy(y, x), regr_sxy(y, x), corr(d, f), covar_samp(x, d), regr_r2(f, k)";
    /** DuckDB's NaN where x or y does not vary, PostgreSQL's NULL. */
    private static final String PAIRS_DUCK = PAIRS.replace("corr(y, x)", "nullif(corr(y, x), 'NaN'::DOUBLE)")
            .replace("regr_slope(y, x)", "nullif(regr_slope(y, x), 'NaN'::DOUBLE)")
            .replace("corr(d, f)", "nullif(corr(d, f), 'NaN'::DOUBLE)");
    private static final String STRINGS = "string_agg(s, ',' ORDER BY k, id), "
            + "string_agg(s, '; ' ORDER BY k DESC NULLS LAST, s NULLS FIRST, id), "
            + "string_agg(s ORDER BY dt NULLS FIRST, id DESC), bool_and(b), bool_or(b)";
    private static final String APPROX = "approx_count_distinct(x), approx_count_distinct(s), approx_count_distinct(f), "
            + "approx_quantile(x, 0.5), approx_quantile(d, 0.9), approx_quantile(dt, 0.1)";
    private static final String APPROX_DUCK = "count(DISTINCT x), count(DISTINCT s), count(DISTINCT f), "
            + "percentile_disc(0.5) WITHIN GROUP (ORDER BY x), percentile_disc(0.9) WITHIN GROUP (ORDER BY d), "
            + "percentile_disc(0.1) WITHIN GROUP (ORDER BY dt)";

    private static final List<Case> CASES = List.of(
            new Case("SELECT g, " + PERCENTILES + " FROM t GROUP BY g"),
            new Case("SELECT " + PERCENTILES + " FROM t"),
            new Case("SELECT " + PERCENTILES + " FROM e"),
            new Case("SELECT g, " + MODES + " FROM t GROUP BY g"),
            new Case("SELECT " + MODES + ", mode(x) FROM t", "SELECT " + MODES + ", mode() WITHIN GROUP (ORDER BY x) FROM t"),
            new Case("SELECT g, " + PAIRS + " FROM t GROUP BY g", "SELECT g, " + PAIRS_DUCK + " FROM t GROUP BY g"),
            new Case("SELECT " + PAIRS + " FROM t", "SELECT " + PAIRS_DUCK + " FROM t"),
            new Case("SELECT " + PAIRS + " FROM e", "SELECT " + PAIRS_DUCK + " FROM e"),
            new Case("SELECT g, " + STRINGS + " FROM t GROUP BY g"),
            new Case("SELECT " + STRINGS + ", every(b), some(b) FROM t",
                    "SELECT " + STRINGS + ", bool_and(b), bool_or(b) FROM t"),
            new Case("SELECT " + STRINGS + " FROM e"),
            new Case("SELECT g, listagg(s, '-') WITHIN GROUP (ORDER BY id), string_agg(s, NULL ORDER BY id) FROM t "
                    + "GROUP BY g", "SELECT g, string_agg(s, '-' ORDER BY id), string_agg(s, '' ORDER BY id) FROM t "
                    + "GROUP BY g"),
            new Case("SELECT g, " + APPROX + " FROM t GROUP BY g", "SELECT g, " + APPROX_DUCK + " FROM t GROUP BY g"),
            new Case("SELECT " + APPROX + " FROM e", "SELECT " + APPROX_DUCK + " FROM e"),
            // percentile_cont of a DECIMAL is a DOUBLE, as PostgreSQL's (DuckDB keeps the decimal).
            new Case("SELECT g, percentile_cont(0.4) WITHIN GROUP (ORDER BY d), percentile_cont(0.5) WITHIN GROUP "
                    + "(ORDER BY d DESC) FROM t GROUP BY g", "SELECT g, percentile_cont(0.4) WITHIN GROUP (ORDER BY "
                    + "d::DOUBLE), percentile_cont(0.5) WITHIN GROUP (ORDER BY d::DOUBLE DESC) FROM t GROUP BY g"),
            // FILTER on each kind
            new Case("SELECT g, median(x) FILTER (WHERE b), percentile_disc(0.5) WITHIN GROUP (ORDER BY s) FILTER "
                    + "(WHERE x > 0), mode() WITHIN GROUP (ORDER BY k) FILTER (WHERE NOT b), string_agg(s, ',' ORDER BY "
                    + "id) FILTER (WHERE x < 0), regr_sxy(y, x) FILTER (WHERE k > 3), bool_or(b) FILTER (WHERE k = 1), "
                    + "approx_count_distinct(s) FILTER (WHERE b) FROM t GROUP BY g",
                    "SELECT g, median(x) FILTER (WHERE b), percentile_disc(0.5) WITHIN GROUP (ORDER BY s) FILTER "
                    + "(WHERE x > 0), mode() WITHIN GROUP (ORDER BY k) FILTER (WHERE NOT b), string_agg(s, ',' ORDER BY "
                    + "id) FILTER (WHERE x < 0), regr_sxy(y, x) FILTER (WHERE k > 3), bool_or(b) FILTER (WHERE k = 1), "
                    + "count(DISTINCT s) FILTER (WHERE b) FROM t GROUP BY g"),
            // DISTINCT, and beside count(DISTINCT): partial states combined in a later step
            new Case("SELECT g, count(DISTINCT x), string_agg(DISTINCT s, ',' ORDER BY s), median(x), "
                    + "string_agg(DISTINCT s, '' ORDER BY s DESC), count(*) FILTER (WHERE b) FROM t GROUP BY g"),
            new Case("SELECT string_agg(DISTINCT s, ';'), count(DISTINCT k) FROM t",
                    "SELECT string_agg(DISTINCT s, ';' ORDER BY s), count(DISTINCT k) FROM t"),
            // the others' DISTINCT expanded by Calcite, beside aggregates with an order of their own
            new Case("SELECT g, sum(DISTINCT x), avg(DISTINCT k), string_agg(s, ',' ORDER BY id DESC), "
                    + "percentile_disc(0.5) WITHIN GROUP (ORDER BY f), mode() WITHIN GROUP (ORDER BY s), median(y) "
                    + "FROM t GROUP BY g"),
            new Case("SELECT g, count(DISTINCT s), median(x), percentile_disc(0.5) WITHIN GROUP (ORDER BY s DESC), "
                    + "corr(y, x), approx_count_distinct(x), string_agg(s, ',' ORDER BY id), bool_and(b) FROM t GROUP BY g",
                    "SELECT g, count(DISTINCT s), median(x), percentile_disc(0.5) WITHIN GROUP (ORDER BY s DESC), "
                    + "nullif(corr(y, x), 'NaN'::DOUBLE), count(DISTINCT x), string_agg(s, ',' ORDER BY id), "
                    + "bool_and(b) FROM t GROUP BY g"),
            new Case("SELECT count(DISTINCT s), median(f), mode() WITHIN GROUP (ORDER BY s), covar_pop(y, x) FROM t"),
            // timestamps: ordered, counted and sketched as the other types
            new Case("SELECT g, percentile_disc(0.5) WITHIN GROUP (ORDER BY ts), mode() WITHIN GROUP (ORDER BY ts "
                    + "DESC), approx_quantile(ts, 0.25), approx_count_distinct(ts), string_agg(s, ',' ORDER BY ts "
                    + "NULLS FIRST, id) FROM t GROUP BY g",
                    "SELECT g, percentile_disc(0.5) WITHIN GROUP (ORDER BY ts), mode() WITHIN GROUP (ORDER BY ts "
                    + "DESC), percentile_disc(0.25) WITHIN GROUP (ORDER BY ts), count(DISTINCT ts), string_agg(s, ',' "
                    + "ORDER BY ts NULLS FIRST, id) FROM t GROUP BY g"),
            // in expressions, HAVING, a join, and several grouping keys
            new Case("SELECT g, median(x) * 2 + 1, percentile_cont(0.5) WITHIN GROUP (ORDER BY x) - median(x) FROM t "
                    + "GROUP BY g HAVING percentile_disc(0.5) WITHIN GROUP (ORDER BY x) > 0"),
            new Case("SELECT a.g, b.k, median(a.x), string_agg(b.s, '|' ORDER BY a.id, b.id) FROM t a JOIN t b "
                    + "ON a.id = b.id + 1 GROUP BY a.g, b.k"));

    private static SqlEngines engines;
    private static Troupe troupe;
    private static DuckDbOracle duck;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.over(List.of(table("t", 3000, 11), table("e", 0, 0)));
        troupe = engines.troupe();
        duck = engines.duck();
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    /**
     * {@code rows} random rows: g a key of 30 values and NULL (one in 15), the last 40 ids a group each (of one row),
     * and three rows of g = 999 whose values are all NULL; k a small key with ties (1 to 6); y about 2.5 times x; the
     * values NULL one time in 8; s from 25 words.
     */
    static Table table(String name, int rows, long seed) {
        Random random = new Random(seed);
        TableBuilder t = new TableBuilder(name, Schema.of(
                new Field(null, "id", DataType.INT64, false),
                Field.of("g", DataType.INT32),
                Field.of("k", DataType.INT32),
                Field.of("x", DataType.INT32),
                Field.of("y", DataType.FLOAT64),
                Field.of("d", DataType.decimal(9, 2)),
                Field.of("f", DataType.FLOAT64),
                Field.of("s", DataType.VARCHAR),
                Field.of("dt", DataType.DATE),
                Field.of("b", DataType.BOOLEAN),
                Field.of("ts", DataType.TIMESTAMP)), 256);
        for (long id = 1; id <= rows; id++) {
            if (id > rows - 3) {
                t.addRow(id, 999, null, null, null, null, null, null, null, null, null);
                continue;
            }
            int x = random.nextInt(2001) - 1000;
            t.addRow(id,
                    id > rows - 43 ? (int) (1000 + id) : maybe(random, 15, random.nextInt(30)),
                    1 + random.nextInt(6),
                    maybe(random, 8, x),
                    maybe(random, 8, 2.5 * x + random.nextInt(200) / 4.0),
                    maybe(random, 8, BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2)),
                    maybe(random, 8, Math.round(random.nextGaussian() * 1e6) / 1e3),
                    maybe(random, 8, "w" + random.nextInt(25)),
                    maybe(random, 8, LocalDate.of(2024, 1, 1).plusDays(random.nextInt(40))),
                    maybe(random, 8, random.nextInt(3) > 0),
                    maybe(random, 8, LocalDateTime.of(2024, 3, 1, 0, 0).plusSeconds(random.nextInt(86_400 * 5))
                            .plusNanos(random.nextInt(1000) * 1000L)));
        }
        return t.build();
    }

    private static Object maybe(Random random, int oneIn, Object value) {
        return random.nextInt(oneIn) == 0 ? null : value;
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int workers : new int[] {1, 2, 4}) {
            for (Case c : CASES) {
                tests.add(DynamicTest.dynamicTest(workers + " workers: " + c.troupe(), () -> check(c, workers)));
            }
        }
        return tests.stream();
    }

    private static void check(Case c, int workers) throws Exception {
        List<List<Object>> expected = duck.query(c.duck()).rows();
        QueryResult result = troupe.sql(c.troupe(), QueryOptions.defaults().withWorkers(workers)
                .withTimeout(QUERY_TIMEOUT));
        List<List<Object>> actual = DuckDbOracle.normalise(result.rows());
        String diff = compare(expected, actual);
        if (diff != null) {
            fail(c.troupe() + "\n" + diff);
        }
    }

    /**
     * Rows as multisets: both sides sorted by their text with doubles cut to 6 significant digits (so that rows whose
     * doubles differ in the last digits sort alike), then compared pairwise, doubles within {@link #RELATIVE}.
     */
    static String compare(List<List<Object>> expected, List<List<Object>> actual) {
        if (expected.size() != actual.size()) {
            return "rows: DuckDB " + expected.size() + ", Troupe " + actual.size();
        }
        Comparator<List<Object>> byText = Comparator.comparing(AggregateSqlTest::sortKey);
        List<List<Object>> e = expected.stream().sorted(byText).toList();
        List<List<Object>> a = actual.stream().sorted(byText).toList();
        for (int r = 0; r < e.size(); r++) {
            if (e.get(r).size() != a.get(r).size()) {
                return "columns differ: DuckDB " + e.get(r) + ", Troupe " + a.get(r);
            }
            for (int c = 0; c < e.get(r).size(); c++) {
                if (!same(e.get(r).get(c), a.get(r).get(c))) {
                    return "row " + r + " column " + (c + 1) + ": DuckDB " + e.get(r) + "\n  Troupe " + a.get(r);
                }
            }
        }
        return null;
    }

    private static String sortKey(List<Object> row) {
        StringBuilder sb = new StringBuilder();
        for (Object v : row) {
            sb.append(v instanceof Double d ? String.format("%.6g", d) : v instanceof Number n
                    ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString() : String.valueOf(v)).append('|');
        }
        return sb.toString();
    }

    static boolean same(Object duck, Object troupe) {
        if (duck == null || troupe == null) {
            return duck == troupe;
        }
        if (duck instanceof Double || troupe instanceof Double) {
            double a = ((Number) duck).doubleValue();
            double b = ((Number) troupe).doubleValue();
            return a == b || Math.abs(a - b) <= RELATIVE * Math.max(1, Math.max(Math.abs(a), Math.abs(b)));
        }
        if (duck instanceof Number a && troupe instanceof Number b) {
            return new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString())) == 0;
        }
        return duck.equals(troupe);
    }

    @Test
    void resultTypesAreDuckDbsOrPostgreSqlsWhereTheyDiffer() {
        QueryResult r = troupe.sql("SELECT median(x), median(d), median(s), percentile_cont(0.5) WITHIN GROUP (ORDER BY "
                + "d), percentile_disc(0.5) WITHIN GROUP (ORDER BY d), percentile_disc(0.5) WITHIN GROUP (ORDER BY dt), "
                + "mode() WITHIN GROUP (ORDER BY b), string_agg(s, ','), bool_and(b), corr(y, x), regr_count(y, x), "
                + "approx_count_distinct(s), approx_quantile(x, 0.5), approx_quantile(d, 0.5) FROM t");
        assertEquals("[FLOAT64, DECIMAL(9,2), VARCHAR, FLOAT64, DECIMAL(9,2), DATE, BOOLEAN, VARCHAR, BOOLEAN, FLOAT64, "
                + "INT64, INT64, INT32, DECIMAL(9,2)]", r.schema().fields().stream().map(f -> f.type().toString())
                .toList().toString());
    }

    @Test
    void shouldRefuseWhatItDoesNotRunNamingIt() {
        assertRefused("SELECT percentile_cont(ARRAY[0.25, 0.75]) WITHIN GROUP (ORDER BY x) FROM t",
                "unsupported in SQL: percentile_cont of an ARRAY of fractions (Troupe has no ARRAY type");
        assertRefused("SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x, k) FROM t",
                "unsupported in SQL: percentile_disc of 2 ORDER BY keys");
        assertRefused("SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY x) FROM t",
                "Argument to function 'PERCENTILE_CONT' must be a numeric literal between 0 and 1");
        assertRefused("SELECT percentile_disc(0.5) FROM t",
                "Aggregate expression 'PERCENTILE_DISC' must contain a WITHIN GROUP clause");
        assertRefused("SELECT approx_quantile(x, k) FROM t",
                "unsupported in SQL: approx_quantile with an argument that is not a constant");
        assertRefused("SELECT mode(x) WITHIN GROUP (ORDER BY k) FROM t",
                "unsupported in SQL: mode(x) WITHIN GROUP (ORDER BY y) of another y than x");
        // string_agg runs its DISTINCT itself: beside it Calcite's expansion of another's would lose its order.
        assertRefused("SELECT sum(DISTINCT x), string_agg(DISTINCT s, ',') FROM t",
                "unsupported in SQL: aggregate function SUM (DISTINCT)");
        // A name Calcite's parser reserves is quoted before it parses; errors point at the statement as written.
        SqlException e = assertThrows(SqlException.class, () -> troupe.sql("SELECT corr(y, nosuch) FROM t"));
        assertTrue(e.getMessage().contains("at line 1, column 16\n  SELECT corr(y, nosuch) FROM t\n"
                + "                 ^"), e.getMessage());
    }

    @Test
    void shouldNameTheFunctionAndTypeOfAnArgumentThatDoesNotFit() {
        Exception e = assertThrows(Exception.class, () -> troupe.sql("SELECT median(dt) FROM t"));
        assertTrue(e.getMessage().startsWith("median does not apply to DATE; it needs a numeric or VARCHAR argument"),
                e.getMessage());
        e = assertThrows(Exception.class, () -> troupe.sql("SELECT string_agg(DISTINCT s, ',' ORDER BY k) FROM t"));
        assertTrue(e.getMessage().startsWith("string_agg(DISTINCT x ORDER BY ...) orders by x alone, as in PostgreSQL"),
                e.getMessage());
    }

    private static void assertRefused(String sql, String message) {
        SqlException e = assertThrows(SqlException.class, () -> troupe.sql(sql));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }
}
