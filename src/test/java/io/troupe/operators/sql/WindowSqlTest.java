package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.operators.window.FrameBound;
import io.troupe.operators.window.WindowFrame;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Window functions through {@code troupe.sql} against DuckDB over the same random tables: partitions of many rows
 * and of one, NULL partition keys, ties and NULLs in the ORDER BY keys, NULL values, an empty table; every
 * function, the default frames with and without ORDER BY, ROWS frames with offsets on both sides, RANGE frames
 * over peers; several windows in one SELECT, a window over an aggregate, in a subquery, under an ORDER BY. Over a
 * second table (r: keys of every RANGE type, NaN and infinities among the FLOAT64 ones, dates and times over
 * months and the clock): RANGE
 * frames with offsets, ascending and descending, NULLs first and last, EXCLUDE, nth_value, IGNORE NULLS, empty
 * frames, and GROUPS frames through Java plans (Calcite 1.42 parses no GROUPS). Each statement runs with 1, 2 and
 * 4 workers. Functions whose answer depends on the order of tied rows (row numbers, lag, first values, ROWS
 * frames) order totally (by id last), or read the tied key itself; the others order with ties on purpose. Every
 * OVER writes NULLS FIRST or LAST: DuckDB's default puts NULLs last either way, SQL's does not. DuckDB answers as
 * PostgreSQL here (NULL keys as their own peers, infinitely far from the others; dates less an interval by the
 * calendar); it spells IGNORE NULLS inside the call's parentheses, so each statement is rewritten for it
 * ({@link #forDuckDb}).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class WindowSqlTest {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> CASES = List.of(
            // ranks, with ties in k and NULL partition keys
            "SELECT id, g, k, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w, cume_dist() OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k NULLS FIRST)",
            "SELECT id, row_number() OVER w, ntile(3) OVER w, ntile(50) OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k DESC NULLS LAST, id)",
            // aggregates over the default frame: up to the row's last peer
            "SELECT id, count(*) OVER w, count(x) OVER w, sum(x) OVER w, avg(x) OVER w, sum(d) OVER w, "
                    + "avg(d) OVER w, sum(f) OVER w, min(s) OVER w, max(dt) OVER w, min(f) OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k NULLS LAST)",
            // without ORDER BY: the whole partition
            "SELECT id, count(*) OVER w, sum(x) OVER w, avg(f) OVER w, min(x) OVER w, max(s) OVER w, max(d) OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g)",
            // ROWS frames
            "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
                    + "avg(d) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                    + "min(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN CURRENT ROW AND 3 FOLLOWING), "
                    + "max(f) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), "
                    + "count(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING), "
                    + "sum(f) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), "
                    + "max(s) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING), "
                    + "count(*) OVER (PARTITION BY g ORDER BY k NULLS FIRST, id "
                    + "ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) "
                    + "FROM t",
            // RANGE frames over peers
            "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY k NULLS LAST "
                    + "RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), "
                    + "count(*) OVER (PARTITION BY g ORDER BY k NULLS LAST "
                    + "RANGE BETWEEN CURRENT ROW AND CURRENT ROW), "
                    + "min(d) OVER (PARTITION BY g ORDER BY k NULLS LAST "
                    + "RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t",
            // lag, lead, first and last values
            "SELECT id, lag(x) OVER w, lag(x, 2) OVER w, lead(s, 1, 'none') OVER w, lead(d, 3, 0.00) OVER w, "
                    + "lag(dt, 1) OVER w, lead(x, 0) OVER w, lag(x, 1, 1.5) OVER w, lead(d, 1, x) OVER w "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k NULLS FIRST, id)",
            "SELECT id, first_value(s) OVER w, last_value(s) OVER w, first_value(x) OVER (PARTITION BY g ORDER BY k "
                    + "NULLS FIRST, id ROWS BETWEEN 2 FOLLOWING AND 4 FOLLOWING), last_value(d) OVER (PARTITION BY g "
                    + "ORDER BY k NULLS FIRST, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) "
                    + "FROM t WINDOW w AS (PARTITION BY g ORDER BY k NULLS FIRST, id)",
            // no PARTITION BY: one partition, one worker
            "SELECT id, rank() OVER (ORDER BY k NULLS LAST), sum(x) OVER (ORDER BY k NULLS LAST), "
                    + "count(*) OVER (), max(s) OVER () FROM t",
            // one-row partitions
            "SELECT id, row_number() OVER w, rank() OVER w, percent_rank() OVER w, cume_dist() OVER w, lag(x) OVER w, "
                    + "sum(x) OVER w FROM t WINDOW w AS (PARTITION BY id ORDER BY k NULLS FIRST)",
            // several windows with different partitions and orders in one SELECT
            "SELECT id, rank() OVER (PARTITION BY g ORDER BY k NULLS FIRST), sum(x) OVER (PARTITION BY k), "
                    + "count(*) OVER (), dense_rank() OVER (PARTITION BY s ORDER BY dt DESC NULLS LAST) FROM t",
            // keys that are expressions, of several types
            "SELECT id, row_number() OVER (PARTITION BY g % 3, s ORDER BY x * 2 NULLS FIRST, id), "
                    + "sum(d) OVER (PARTITION BY dt ORDER BY f NULLS LAST, id) FROM t",
            // a window in a subquery, filtered on its result: the top two of each group
            "SELECT * FROM (SELECT id, g, row_number() OVER (PARTITION BY g ORDER BY k NULLS LAST, id) AS rn FROM t) s "
                    + "WHERE rn <= 2",
            // a window over a join, and a windowed subquery joined
            "SELECT a.id, rank() OVER (PARTITION BY b.g ORDER BY a.k NULLS LAST) FROM t a JOIN t b ON a.id = b.id + 1",
            "SELECT a.id, a.rn, b.x FROM (SELECT id, row_number() OVER (PARTITION BY g ORDER BY id) AS rn FROM t) a "
                    + "JOIN t b ON a.id = b.id WHERE a.rn <= 3",
            // a window over an aggregate
            "SELECT g, sum(x), rank() OVER (ORDER BY sum(x) DESC NULLS LAST) FROM t GROUP BY g",
            // ratio to report (TPC-DS q12, q98)
            "SELECT g, k, sum(d) AS s, sum(d) * 100 / sum(sum(d)) OVER (PARTITION BY g) FROM t GROUP BY g, k",
            // empty input
            "SELECT id, row_number() OVER (PARTITION BY g ORDER BY id), sum(x) OVER (), lag(s) OVER (ORDER BY id) "
                    + "FROM e",
            "SELECT id, count(*) OVER (PARTITION BY g) FROM t WHERE id < 0");

    private static final List<String> FRAME_CASES = List.of(
            // RANGE offsets over an INT32 key with ties and NULLs, both NULL orders and directions
            "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING), "
                    + "count(*) OVER (PARTITION BY g ORDER BY k NULLS FIRST RANGE BETWEEN 1 FOLLOWING AND 3 FOLLOWING), "
                    + "min(x) OVER (PARTITION BY g ORDER BY k NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND 2 "
                    + "PRECEDING), max(s) OVER (PARTITION BY g ORDER BY k NULLS LAST RANGE BETWEEN 3 PRECEDING AND "
                    + "UNBOUNDED FOLLOWING), avg(d) OVER (PARTITION BY g ORDER BY k NULLS FIRST RANGE BETWEEN CURRENT "
                    + "ROW AND 2 FOLLOWING), count(x) OVER (PARTITION BY g ORDER BY k NULLS LAST RANGE BETWEEN 0 "
                    + "PRECEDING AND 0 FOLLOWING) FROM r",
            "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY k DESC NULLS LAST RANGE BETWEEN 2 PRECEDING AND 1 "
                    + "FOLLOWING), count(*) OVER (PARTITION BY g ORDER BY k DESC NULLS FIRST RANGE BETWEEN 3 PRECEDING "
                    + "AND 1 PRECEDING), sum(f) OVER (PARTITION BY g ORDER BY k DESC NULLS FIRST RANGE BETWEEN 1 "
                    + "FOLLOWING AND UNBOUNDED FOLLOWING) FROM r",
            // INT64 key, large offsets; DECIMAL key with offsets finer and coarser than its scale
            "SELECT id, count(*) OVER (PARTITION BY g ORDER BY b NULLS FIRST RANGE BETWEEN 1000000000000 PRECEDING AND "
                    + "CURRENT ROW), sum(x) OVER (ORDER BY b DESC NULLS LAST RANGE BETWEEN 5000000000000 PRECEDING AND "
                    + "5000000000000 FOLLOWING) FROM r",
            "SELECT id, count(*) OVER (PARTITION BY g ORDER BY d NULLS LAST RANGE BETWEEN 1.005 PRECEDING AND 2 "
                    + "FOLLOWING), sum(x) OVER (PARTITION BY g ORDER BY d DESC NULLS FIRST RANGE BETWEEN 0.5 PRECEDING "
                    + "AND 0.255 FOLLOWING), max(x) OVER (ORDER BY d RANGE BETWEEN 3 PRECEDING AND 1.5 PRECEDING) "
                    + "FROM r",
            // FLOAT64 key with ties, NULLs, NaN and infinities
            "SELECT id, count(*) OVER (PARTITION BY g ORDER BY f NULLS LAST RANGE BETWEEN 0.5 PRECEDING AND CURRENT "
                    + "ROW), sum(x) OVER (PARTITION BY g ORDER BY f DESC NULLS FIRST RANGE BETWEEN 2 PRECEDING AND 1.25 "
                    + "FOLLOWING), min(s) OVER (ORDER BY f NULLS FIRST RANGE BETWEEN 1E1 FOLLOWING AND 1E2 FOLLOWING) "
                    + "FROM r",
            // DATE key with intervals: days, hours (dates as midnights), months by the calendar, years
            "SELECT id, count(*) OVER (PARTITION BY g ORDER BY dt NULLS FIRST RANGE BETWEEN INTERVAL '7' DAY "
                    + "PRECEDING AND CURRENT ROW), sum(x) OVER (PARTITION BY g ORDER BY dt NULLS LAST RANGE BETWEEN "
                    + "INTERVAL '36' HOUR PRECEDING AND INTERVAL '1' MONTH FOLLOWING), count(x) OVER (ORDER BY dt DESC "
                    + "NULLS LAST RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND INTERVAL '2' DAY FOLLOWING), "
                    + "min(s) OVER (ORDER BY dt RANGE BETWEEN INTERVAL '1' YEAR PRECEDING AND INTERVAL '10' DAY "
                    + "PRECEDING) FROM r",
            // TIMESTAMP keys with intervals of days and hours (months: PartitionFramesTest, where DuckDB answers
            // otherwise); TIMESTAMP WITH TIME ZONE with fixed ones; TIME without wrapping past midnight
            "SELECT id, count(*) OVER (PARTITION BY g ORDER BY ts NULLS FIRST RANGE BETWEEN INTERVAL '1' DAY "
                    + "PRECEDING AND INTERVAL '90' MINUTE FOLLOWING), sum(x) OVER (ORDER BY ts DESC NULLS LAST RANGE "
                    + "BETWEEN INTERVAL '20' DAY PRECEDING AND INTERVAL '2' DAY PRECEDING), count(x) OVER (PARTITION BY "
                    + "g ORDER BY tz NULLS LAST RANGE BETWEEN INTERVAL '6' HOUR PRECEDING AND CURRENT ROW EXCLUDE TIES), "
                    + "sum(x) OVER (PARTITION BY g ORDER BY tm DESC NULLS FIRST RANGE BETWEEN INTERVAL '1' HOUR "
                    + "PRECEDING AND INTERVAL '45' MINUTE FOLLOWING) FROM r",
            // PostgreSQL's interval literals and casts as offsets (a cast of text to Calcite, which the input projects)
            "SELECT id, count(*) OVER (PARTITION BY g ORDER BY dt NULLS FIRST RANGE BETWEEN INTERVAL '1 week 2 days' "
                    + "PRECEDING AND CURRENT ROW), sum(x) OVER (PARTITION BY g ORDER BY ts NULLS LAST RANGE BETWEEN "
                    + "'30 hours'::interval PRECEDING AND INTERVAL '90 minutes' FOLLOWING) FROM r",
            // value functions over RANGE offsets by a unique key, and of the key itself over tied keys
            "SELECT id, first_value(x) OVER (PARTITION BY g ORDER BY id RANGE BETWEEN 30 PRECEDING AND 10 FOLLOWING), "
                    + "last_value(s) OVER (PARTITION BY g ORDER BY id RANGE BETWEEN 5 FOLLOWING AND 50 FOLLOWING), "
                    + "nth_value(x, 2) OVER (PARTITION BY g ORDER BY id DESC RANGE BETWEEN 40 PRECEDING AND CURRENT ROW), "
                    + "first_value(k) OVER (PARTITION BY g ORDER BY k NULLS FIRST RANGE BETWEEN 1 PRECEDING AND 2 "
                    + "FOLLOWING), last_value(dt) OVER (PARTITION BY g ORDER BY dt NULLS LAST RANGE BETWEEN INTERVAL "
                    + "'3' DAY PRECEDING AND INTERVAL '3' DAY FOLLOWING) FROM r",
            // empty frames: ends before starts
            "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST RANGE BETWEEN 3 FOLLOWING AND 1 FOLLOWING), "
                    + "count(*) OVER (PARTITION BY g ORDER BY k NULLS LAST RANGE BETWEEN 1 PRECEDING AND 2 PRECEDING), "
                    + "min(x) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 1 FOLLOWING), "
                    + "first_value(s) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 PRECEDING AND 3 PRECEDING), "
                    + "avg(f) OVER (PARTITION BY g ORDER BY dt RANGE BETWEEN INTERVAL '2' DAY FOLLOWING AND INTERVAL "
                    + "'1' DAY FOLLOWING) FROM r",
            // EXCLUDE over ROWS and RANGE frames: counts, sums, extremes
            "SELECT id, count(*) OVER (PARTITION BY g ORDER BY k NULLS FIRST RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING "
                    + "EXCLUDE CURRENT ROW), sum(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST RANGE BETWEEN 1 "
                    + "PRECEDING AND 1 FOLLOWING EXCLUDE GROUP), sum(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST "
                    + "RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES), sum(x) OVER (PARTITION BY g ORDER BY k "
                    + "NULLS FIRST RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE NO OTHERS), min(x) OVER "
                    + "(PARTITION BY g ORDER BY k NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE "
                    + "TIES), max(d) OVER (PARTITION BY g ORDER BY k NULLS LAST RANGE BETWEEN CURRENT ROW AND UNBOUNDED "
                    + "FOLLOWING EXCLUDE GROUP) FROM r",
            "SELECT id, sum(f) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE "
                    + "CURRENT ROW), avg(d) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING "
                    + "EXCLUDE CURRENT ROW), max(s) OVER (PARTITION BY g ORDER BY k NULLS FIRST ROWS BETWEEN UNBOUNDED "
                    + "PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP), count(x) OVER (PARTITION BY g ORDER BY k NULLS "
                    + "LAST ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES), sum(d) OVER "
                    + "(PARTITION BY g ORDER BY dt NULLS FIRST RANGE BETWEEN INTERVAL '2' DAY PRECEDING AND CURRENT ROW "
                    + "EXCLUDE TIES) FROM r",
            // nth_value, first and last values under EXCLUDE, of the tied key itself
            "SELECT id, nth_value(k, 2) OVER (PARTITION BY g ORDER BY k NULLS FIRST RANGE BETWEEN 2 PRECEDING AND 2 "
                    + "FOLLOWING EXCLUDE TIES), nth_value(k, 3) OVER (PARTITION BY g ORDER BY k NULLS LAST RANGE "
                    + "BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP), first_value(k) OVER "
                    + "(PARTITION BY g ORDER BY k NULLS FIRST RANGE BETWEEN CURRENT ROW AND 3 FOLLOWING EXCLUDE GROUP), "
                    + "last_value(k) OVER (PARTITION BY g ORDER BY k DESC NULLS LAST RANGE BETWEEN 2 PRECEDING AND "
                    + "CURRENT ROW EXCLUDE TIES) FROM r",
            "SELECT id, nth_value(x, 1) OVER w, nth_value(s, 2) OVER w, nth_value(d, 5) OVER w, nth_value(dt, 3) OVER "
                    + "(PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW), "
                    + "nth_value(x, 2) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED "
                    + "FOLLOWING), nth_value(f, 1000) OVER (PARTITION BY g), first_value(x) OVER (PARTITION BY g ORDER "
                    + "BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW), last_value(x) OVER "
                    + "(PARTITION BY g ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) "
                    + "FROM r WINDOW w AS (PARTITION BY g ORDER BY id)",
            // IGNORE NULLS
            "SELECT id, lag(x) IGNORE NULLS OVER w, lag(x, 3, -1) IGNORE NULLS OVER w, lead(s, 2) IGNORE NULLS OVER w, "
                    + "lead(d, 1, 0.00) IGNORE NULLS OVER w, lag(x, 0) IGNORE NULLS OVER w, lag(x) RESPECT NULLS OVER "
                    + "w, lead(dt, 4) IGNORE NULLS OVER w FROM r WINDOW w AS (PARTITION BY g ORDER BY id)",
            "SELECT id, first_value(x) IGNORE NULLS OVER w, last_value(s) IGNORE NULLS OVER w, nth_value(x, 3) IGNORE "
                    + "NULLS OVER w, first_value(x) IGNORE NULLS OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 2 "
                    + "FOLLOWING AND 5 FOLLOWING), last_value(d) IGNORE NULLS OVER (PARTITION BY g ORDER BY id ROWS "
                    + "BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), nth_value(x, 2) IGNORE NULLS OVER (PARTITION BY g "
                    + "ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING EXCLUDE CURRENT ROW), first_value(x) "
                    + "IGNORE NULLS OVER (PARTITION BY g ORDER BY id RANGE BETWEEN 20 PRECEDING AND 20 FOLLOWING) "
                    + "FROM r WINDOW w AS (PARTITION BY g ORDER BY id)",
            // no PARTITION BY: one partition
            "SELECT id, sum(x) OVER (ORDER BY k NULLS FIRST RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES), "
                    + "nth_value(x, 7) IGNORE NULLS OVER (ORDER BY id), count(*) OVER (ORDER BY f RANGE BETWEEN 100 "
                    + "PRECEDING AND 100 FOLLOWING) FROM r",
            // empty input
            "SELECT id, sum(x) OVER (ORDER BY k RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES), "
                    + "nth_value(x, 2) IGNORE NULLS OVER (PARTITION BY g ORDER BY id), lag(x) IGNORE NULLS OVER "
                    + "(ORDER BY id) FROM e");

    /** Ordered: the statement's ORDER BY fixes every row's place. */
    private static final List<String> ORDERED = List.of(
            "SELECT id, row_number() OVER (PARTITION BY g ORDER BY id) AS rn FROM t ORDER BY rn DESC, id LIMIT 40");

    private static SqlEngines engines;
    private static Troupe troupe;
    private static DuckDbOracle duck;

    @BeforeAll
    static void load() throws Exception {
        List<Table> tables = List.of(table("t", 2000, 5), table("e", 0, 0), ranges("r", 1500, 11));
        engines = SqlEngines.over(tables);
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
     * {@code rows} random rows: g a partition key of 40 values and NULL (one in 15), and a one-row partition for
     * each of the last 60 ids; k an ORDER BY key of 12 values (ties) and NULL; values x, d, f, s, dt, NULL one
     * time in 8.
     */
    private static Table table(String name, int rows, long seed) {
        Random random = new Random(seed);
        TableBuilder t = new TableBuilder(name, Schema.of(
                new Field(null, "id", DataType.INT64, false),
                Field.of("g", DataType.INT32),
                Field.of("k", DataType.INT32),
                Field.of("x", DataType.INT32),
                Field.of("d", DataType.decimal(9, 2)),
                Field.of("f", DataType.FLOAT64),
                Field.of("s", DataType.VARCHAR),
                Field.of("dt", DataType.DATE)), 256);
        for (long id = 1; id <= rows; id++) {
            t.addRow(id,
                    id > rows - 60 ? (int) (1000 + id) : maybe(random, 15, random.nextInt(40)),
                    maybe(random, 12, random.nextInt(12)),
                    maybe(random, 8, random.nextInt(2001) - 1000),
                    maybe(random, 8, BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2)),
                    maybe(random, 8, Math.round(random.nextDouble() * 1e6) / 1e3),
                    maybe(random, 8, "s" + random.nextInt(30)),
                    maybe(random, 8, LocalDate.of(2024, 1, 1).plusDays(random.nextInt(20))));
        }
        return t.build();
    }

    /**
     * {@code rows} random rows: id unique; g a partition key of 25 values and NULL, and a one-row partition for each
     * of the last 40 ids; ORDER BY keys with ties and NULLs: k INT32 (12 values), b INT64 (multiples of 1e12), d
     * DECIMAL(9,2), f FLOAT64 (halves, NaN and infinities among them), dt DATE (over three months); values x INT32
     * and s VARCHAR; NULL one time in 8 or so.
     */
    private static Table ranges(String name, int rows, long seed) {
        Random random = new Random(seed);
        TableBuilder t = new TableBuilder(name, Schema.of(
                new Field(null, "id", DataType.INT64, false),
                Field.of("g", DataType.INT32),
                Field.of("k", DataType.INT32),
                Field.of("b", DataType.INT64),
                Field.of("d", DataType.decimal(9, 2)),
                Field.of("f", DataType.FLOAT64),
                Field.of("dt", DataType.DATE),
                Field.of("x", DataType.INT32),
                Field.of("s", DataType.VARCHAR),
                Field.of("ts", DataType.TIMESTAMP),
                Field.of("tz", DataType.TIMESTAMP_TZ),
                Field.of("tm", DataType.TIME)), 256);
        double[] specials = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (long id = 1; id <= rows; id++) {
            double f = random.nextInt(40) == 0 ? specials[random.nextInt(3)] : random.nextInt(400) / 2.0;
            t.addRow(id,
                    id > rows - 40 ? (int) (1000 + id) : maybe(random, 15, random.nextInt(25)),
                    maybe(random, 10, random.nextInt(12)),
                    maybe(random, 10, (random.nextInt(200) - 100) * 1_000_000_000_000L),
                    maybe(random, 10, BigDecimal.valueOf(random.nextInt(4000) - 2000, 2)),
                    maybe(random, 10, f),
                    maybe(random, 10, LocalDate.of(2024, 1, 15).plusDays(random.nextInt(90))),
                    maybe(random, 8, random.nextInt(2001) - 1000),
                    maybe(random, 8, "s" + random.nextInt(30)),
                    maybe(random, 10, LocalDateTime.of(2024, 1, 20, 0, 0).plusMinutes(30L * random.nextInt(4000))),
                    maybe(random, 10, Instant.parse("2024-03-01T00:00:00Z").plusSeconds(900L * random.nextInt(2000))),
                    maybe(random, 10, LocalTime.of(0, 0).plusMinutes(15L * random.nextInt(96))));
        }
        return t.build();
    }

    private static Object maybe(Random random, int oneIn, Object value) {
        return random.nextInt(oneIn) == 0 ? null : value;
    }

    /** DuckDB spells {@code f(x, n) IGNORE NULLS OVER} as {@code f(x, n IGNORE NULLS) OVER}. */
    static String forDuckDb(String sql) {
        return sql.replaceAll("(\\w+\\([^()]*)\\) (IGNORE|RESPECT) NULLS OVER", "$1 $2 NULLS) OVER");
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int workers : new int[] {1, 2, 4}) {
            for (String sql : CASES) {
                tests.add(DynamicTest.dynamicTest(workers + " workers: " + sql, () -> check(sql, workers, false)));
            }
            for (String sql : FRAME_CASES) {
                tests.add(DynamicTest.dynamicTest(workers + " workers: " + sql, () -> check(sql, workers, false)));
            }
            for (String sql : ORDERED) {
                tests.add(DynamicTest.dynamicTest(workers + " workers: " + sql, () -> check(sql, workers, true)));
            }
        }
        return tests.stream();
    }

    private static void check(String sql, int workers, boolean ordered) throws Exception {
        List<List<Object>> expected = duck.query(forDuckDb(sql)).rows();
        QueryResult result = troupe.sql(sql, QueryOptions.defaults().withWorkers(workers).withTimeout(QUERY_TIMEOUT));
        List<List<Object>> actual = DuckDbOracle.normalise(result.rows());
        assertNull(ResultComparator.compare(expected, actual, ordered), () -> sql + "\n" + troupe.explainSql(sql));
    }

    @Test
    void shouldExplainTheWindowNode() {
        String explain = troupe.explainSql("SELECT id, rank() OVER (PARTITION BY g ORDER BY k NULLS FIRST) AS r, "
                + "sum(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) "
                + "FROM t");
        // One window node: the calls share their partitions and order, each with its own frame.
        // The columns of the projection under it show by their names: its alias is SQL lowering's own.
        assertTrue(explain.matches("(?s).*->  Window rank\\(\\) AS window\\$\\d+, count\\(x\\) "
                + "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW AS window\\$\\d+, sum\\(x\\) "
                + "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW AS window\\$\\d+ "
                + "Partition By: g Order By: k ASC NULLS FIRST\n.*"), explain);
        assertFalse(explain.contains("Alias $"), explain);
        assertEquals(1, explain.split("->  Window ", -1).length - 1, explain);
    }

    @Test
    void shouldRefuseWhatWindowsDoNotRunNamingIt() {
        assertRefused("SELECT count(DISTINCT x) OVER (PARTITION BY g) FROM t",
                "unsupported in SQL: DISTINCT in window function COUNT");
    }

    /** GROUPS frames, which SQL here cannot write, as Java plans against DuckDB's GROUPS. */
    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDbInGroupsFrames() {
        Expr keyed = Expr.col("k");
        List<Object[]> cases = List.of(
                new Object[] {"sum(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST GROUPS BETWEEN 1 PRECEDING AND "
                        + "CURRENT ROW)", Expr.sum(Expr.col("x")), groups(FrameBound.preceding(1),
                        FrameBound.CURRENT_ROW), WindowFrame.Exclusion.NO_OTHERS, true},
                new Object[] {"count(*) OVER (PARTITION BY g ORDER BY k NULLS FIRST GROUPS BETWEEN 2 FOLLOWING AND 3 "
                        + "FOLLOWING)", Expr.count(), groups(FrameBound.following(2), FrameBound.following(3)),
                        WindowFrame.Exclusion.NO_OTHERS, true},
                new Object[] {"min(x) OVER (PARTITION BY g ORDER BY k DESC NULLS LAST GROUPS BETWEEN 1 PRECEDING AND "
                        + "1 FOLLOWING EXCLUDE GROUP)", Expr.min(Expr.col("x")), groups(FrameBound.preceding(1),
                        FrameBound.following(1)), WindowFrame.Exclusion.GROUP, false},
                new Object[] {"nth_value(k, 2) OVER (PARTITION BY g ORDER BY k NULLS FIRST GROUPS BETWEEN "
                        + "UNBOUNDED PRECEDING AND 1 PRECEDING)", Expr.nthValue(keyed, 2),
                        groups(FrameBound.UNBOUNDED_PRECEDING, FrameBound.preceding(1)),
                        WindowFrame.Exclusion.NO_OTHERS, true},
                new Object[] {"sum(d) OVER (PARTITION BY g ORDER BY k NULLS FIRST GROUPS BETWEEN 2 PRECEDING AND "
                        + "2 PRECEDING EXCLUDE TIES)", Expr.sum(Expr.col("d")), groups(FrameBound.preceding(2),
                        FrameBound.preceding(2)), WindowFrame.Exclusion.TIES, true},
                new Object[] {"count(x) OVER (PARTITION BY g ORDER BY k NULLS FIRST GROUPS BETWEEN CURRENT ROW AND "
                        + "UNBOUNDED FOLLOWING EXCLUDE TIES)", Expr.count(Expr.col("x")),
                        groups(FrameBound.CURRENT_ROW, FrameBound.UNBOUNDED_FOLLOWING), WindowFrame.Exclusion.TIES,
                        true});
        List<DynamicTest> tests = new ArrayList<>();
        for (Object[] c : cases) {
            WindowFrame frame = ((WindowFrame) c[2]).excluding((WindowFrame.Exclusion) c[3]);
            boolean ascending = (Boolean) c[4];
            SortKey k = ascending ? Expr.col("k").asc().withNullsFirst() : Expr.col("k").desc().withNullsLast();
            Plan plan = Plan.scan("r").window(List.of(Expr.col("g")), List.of(k), ((Expr) c[1]).over(frame).as("w"))
                    .project(Expr.col("id"), Expr.col("w"));
            String sql = "SELECT id, " + c[0] + " FROM r";
            for (int workers : new int[] {1, 2, 4}) {
                tests.add(DynamicTest.dynamicTest(workers + " workers: " + sql, () -> {
                    List<List<Object>> expected = duck.query(sql).rows();
                    List<List<Object>> actual = DuckDbOracle.normalise(troupe.execute(plan,
                            QueryOptions.defaults().withWorkers(workers).withTimeout(QUERY_TIMEOUT)).rows());
                    assertFalse(expected.isEmpty(), sql);
                    assertNull(ResultComparator.compare(expected, actual, false), () -> sql + "\n"
                            + troupe.explain(plan));
                }));
            }
        }
        return tests.stream();
    }

    private static WindowFrame groups(FrameBound start, FrameBound end) {
        return WindowFrame.groups(start, end);
    }

    @Test
    void shouldRefuseFramesPostgresRefusesNamingThem() {
        assertRefused("SELECT sum(x) OVER (ORDER BY k RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) FROM r",
                "unsupported in SQL: RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW: an ORDER BY key of type INTEGER "
                        + "takes an integer offset, not 1.5");
        assertRefused("SELECT sum(x) OVER (ORDER BY s RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM r",
                "Data type of ORDER BY prohibits use of RANGE clause");
        assertRefused("SELECT sum(x) OVER (ORDER BY id RANGE BETWEEN -1 PRECEDING AND CURRENT ROW) FROM r",
                "unsupported in SQL: a frame offset must not be negative or NaN: -1 PRECEDING");
        assertRefused("SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN CAST(NULL AS INTEGER) PRECEDING AND CURRENT ROW) "
                + "FROM r", "unsupported in SQL: a frame's offset");
        assertRefused("SELECT count(*) OVER (ORDER BY tz RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND CURRENT ROW) "
                + "FROM r", "unsupported in SQL: RANGE BETWEEN INTERVAL '1 day' PRECEDING AND CURRENT ROW: an ORDER BY "
                + "key of type TIMESTAMP WITH TIME ZONE takes an interval of hours, minutes or seconds");
        assertRefused("SELECT nth_value(x, 0) OVER (ORDER BY id) FROM r",
                "unsupported in SQL: nth_value's row must be at least 1, got 0");
        // Calcite 1.42's parser knows no GROUPS frames.
        assertRefused("SELECT sum(x) OVER (ORDER BY k GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM r",
                "syntax error at or near \"GROUPS\"");
    }

    @Test
    void shouldRefuseBadFramesInJavaPlansNamingThem() {
        Plan noOrder = Plan.scan("r").window(List.of(), List.of(), Expr.count().over(
                WindowFrame.groups(FrameBound.preceding(1), FrameBound.CURRENT_ROW)).as("n"));
        String e = assertThrows(RuntimeException.class, () -> troupe.execute(noOrder)).getMessage();
        assertTrue(e.contains("GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW needs an ORDER BY"), e);
        Plan twoKeys = Plan.scan("r").window(List.of(), List.of(Expr.col("k").asc(), Expr.col("id").asc()),
                Expr.count().over(WindowFrame.range(FrameBound.preceding(1), FrameBound.CURRENT_ROW)).as("n"));
        e = assertThrows(RuntimeException.class, () -> troupe.execute(twoKeys)).getMessage();
        assertTrue(e.contains("needs exactly one ORDER BY key, got 2"), e);
        Plan text = Plan.scan("r").window(List.of(), List.of(Expr.col("s").asc()),
                Expr.count().over(WindowFrame.range(FrameBound.preceding(1), FrameBound.CURRENT_ROW)).as("n"));
        e = assertThrows(RuntimeException.class, () -> troupe.execute(text)).getMessage();
        assertTrue(e.contains("RANGE BETWEEN 1 PRECEDING AND CURRENT ROW: an ORDER BY key of type VARCHAR takes no "
                + "offset (RANGE offsets measure numbers and dates), not 1"), e);
        Plan rank = Plan.scan("r").window(List.of(), List.of(Expr.col("k").asc()), Expr.rank().ignoreNulls().as("r"));
        e = assertThrows(RuntimeException.class, () -> troupe.execute(rank)).getMessage();
        assertTrue(e.contains("rank does not take IGNORE NULLS"), e);
        IllegalArgumentException backwards = assertThrows(IllegalArgumentException.class,
                () -> WindowFrame.rows(FrameBound.following(1), FrameBound.CURRENT_ROW));
        assertTrue(backwards.getMessage().startsWith("a frame cannot end before it starts"), backwards.getMessage());
    }

    private static void assertRefused(String sql, String message) {
        SqlException e = assertThrows(SqlException.class, () -> troupe.sql(sql));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void shouldFailASumThatOverflowsNamingIt() {
        // Each value fits a BIGINT; the sum of ten of them, about 1e19, does not.
        QueryFailedException e = assertThrows(QueryFailedException.class, () -> troupe.sql(
                "SELECT sum(CAST(999999999999999999 AS BIGINT)) OVER (PARTITION BY id % 2 ORDER BY id "
                        + "ROWS BETWEEN 9 PRECEDING AND CURRENT ROW) FROM t"));
        assertTrue(e.getMessage().contains("overflow in sum("), e.getMessage());
    }
}
