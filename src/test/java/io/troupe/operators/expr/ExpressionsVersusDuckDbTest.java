package io.troupe.operators.expr;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static io.troupe.operators.plan.Expr.caseWhen;
import static io.troupe.operators.plan.Expr.coalesce;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.day;
import static io.troupe.operators.plan.Expr.length;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.lower;
import static io.troupe.operators.plan.Expr.month;
import static io.troupe.operators.plan.Expr.round;
import static io.troupe.operators.plan.Expr.substring;
import static io.troupe.operators.plan.Expr.upper;
import static io.troupe.operators.plan.Expr.year;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Evaluates a broad set of expressions over one random table with NULLs, in Troupe (scan,
 * filter, project, in small batches so that filters leave selection vectors) and in DuckDB over
 * the same rows, and compares every value: exactly, FLOAT64 within 1e-9 relative.
 *
 * <p>Where Troupe differs from DuckDB on purpose, the SQL side says the same thing another way:
 * integer division is DuckDB's {@code //}. Divisors are never zero (k, n), so no query fails.
 */
class ExpressionsVersusDuckDbTest {

    private static final int ROWS = 3000;
    private static final Schema SCHEMA = Schema.of(
            Field.of("id", DataType.INT32), Field.of("i", DataType.INT32), Field.of("j", DataType.INT32),
            Field.of("k", DataType.INT32), Field.of("l", DataType.INT64), Field.of("d", DataType.FLOAT64),
            Field.of("e", DataType.FLOAT64), Field.of("m", DataType.decimal(9, 2)), Field.of("n", DataType.decimal(12, 4)),
            Field.of("s", DataType.VARCHAR), Field.of("t", DataType.VARCHAR), Field.of("num", DataType.VARCHAR),
            Field.of("dt", DataType.DATE), Field.of("b", DataType.BOOLEAN), Field.of("c", DataType.BOOLEAN));
    private static final String DUCKDB_COLUMNS = "id INTEGER, i INTEGER, j INTEGER, k INTEGER, l BIGINT, d DOUBLE, e DOUBLE, "
            + "m DECIMAL(9,2), n DECIMAL(12,4), s VARCHAR, t VARCHAR, num VARCHAR, dt DATE, b BOOLEAN, c BOOLEAN";

    private static Troupe troupe;
    private static Connection duckdb;

    /** One expression, in Troupe's API and in DuckDB's SQL. */
    private record Case(Expr expr, String sql) {
    }

    private static Case of(Expr expr, String sql) {
        return new Case(expr, sql);
    }

    @BeforeAll
    static void load() throws SQLException {
        troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(100));
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = duckdb.createStatement()) {
            st.execute("CREATE TABLE r (" + DUCKDB_COLUMNS + ")");
        }
        TableBuilder table = new TableBuilder("r", SCHEMA, 700);
        Random random = new Random(20240105);
        String marks = "?,".repeat(SCHEMA.size());
        try (PreparedStatement insert = duckdb.prepareStatement(
                "INSERT INTO r VALUES (" + marks.substring(0, marks.length() - 1) + ")")) {
            for (int id = 0; id < ROWS; id++) {
                Object[] row = randomRow(random, id);
                table.addRow(row);
                for (int c = 0; c < row.length; c++) {
                    insert.setObject(c + 1, row[c] instanceof LocalDate date ? java.sql.Date.valueOf(date) : row[c]);
                }
                insert.addBatch();
            }
            insert.executeBatch();
        }
        troupe.register(table.build());
    }

    @AfterAll
    static void close() throws SQLException {
        troupe.close();
        duckdb.close();
    }

    private static Object[] randomRow(Random random, int id) {
        return new Object[] {
                id,
                nullOr(random, random.nextInt(2001) - 1000),
                nullOr(random, random.nextInt(21) - 10),
                nullOr(random, (random.nextInt(50) + 1) * (random.nextBoolean() ? 1 : -1)),
                nullOr(random, random.nextLong() >> 20),
                nullOr(random, randomDouble(random, 4)),
                nullOr(random, randomDouble(random, 3)),
                nullOr(random, BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2)),
                nullOr(random, BigDecimal.valueOf((random.nextInt(999_999) + 1) * (random.nextBoolean() ? 1L : -1L), 4)),
                nullOr(random, randomString(random)),
                nullOr(random, randomString(random)),
                nullOr(random, randomNumberText(random)),
                nullOr(random, LocalDate.ofEpochDay(random.nextInt(40_000) - 10_000)),
                nullOr(random, random.nextBoolean()),
                nullOr(random, random.nextBoolean())};
    }

    private static Object nullOr(Random random, Object value) {
        return random.nextInt(8) == 0 ? null : value;
    }

    /** A double of one of {@code kinds} shapes; the first three stay within a few thousand. */
    private static double randomDouble(Random random, int kinds) {
        return switch (random.nextInt(kinds)) {
            case 0 -> (random.nextInt(4001) - 2000) / 4.0; // halves and quarters: rounding ties
            case 1 -> random.nextGaussian() * 1000;
            case 2 -> random.nextInt(100) / 100.0;
            default -> random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
        };
    }

    private static String randomString(Random random) {
        String alphabet = "abcabcABé😀 _%xyz";
        int length = random.nextInt(9);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, random.nextInt(alphabet.codePointCount(0, alphabet.length())))));
        }
        return sb.toString();
    }

    private static String randomNumberText(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> Integer.toString(random.nextInt(20001) - 10000);
            case 1 -> " " + (random.nextInt(2001) - 1000) / 8.0 + " ";
            case 2 -> (random.nextInt(200) - 100) + "e" + random.nextInt(3);
            default -> "-" + random.nextInt(1000) + "." + random.nextInt(10);
        };
    }

    // ------------------------------------------------------------------ the expressions

    private static List<Case> projections() {
        return List.of(
                of(col("i").plus(col("j")), "i + j"),
                of(col("i").minus(col("l")), "i - l"),
                of(col("i").times(col("j")).times(col("k")), "i * j * k"),
                of(col("i").div(col("k")), "i // k"),
                of(col("i").mod(col("k")), "i % k"),
                of(col("l").div(col("k")), "l // k"),
                of(col("l").mod(lit(7)), "l % 7"),
                of(lit(1000).div(col("k")), "1000 // k"),
                of(col("i").negate(), "- i"),
                of(col("d").plus(col("e")), "d + e"),
                of(col("d").times(col("i")), "d * i"),
                of(col("d").div(col("k")), "d / k"),
                of(col("d").mod(col("k")), "d % k"),
                of(col("d").negate(), "- d"),
                of(col("m").plus(col("n")), "m + n"),
                of(col("m").minus(col("i")), "m - i"),
                of(col("m").times(col("n")), "m * n"),
                of(col("m").times(col("l").mod(lit(1000))), "m * (l % 1000)"),
                of(col("m").mod(col("n")), "m % n"),
                of(col("m").div(col("n")), "m / n"),
                of(col("m").plus(col("d")), "m + d"),
                of(col("m").negate(), "- m"),
                of(lit(new BigDecimal("2.5")).minus(col("m")), "2.5 - m"),
                of(col("i").lt(col("j")), "i < j"),
                of(col("i").le(col("d")), "i <= d"),
                of(col("m").eq(col("n")), "m = n"),
                of(col("m").gt(col("i")), "m > i"),
                of(col("m").ge(lit(0.5)), "m >= 0.5"),
                of(col("l").ne(col("i")), "l <> i"),
                of(col("n").lt(col("l")), "n < l"),
                of(col("s").lt(col("t")), "s < t"),
                of(col("s").ge(lit("b")), "s >= 'b'"),
                of(col("s").eq(col("t")), "s = t"),
                of(col("dt").gt(lit(LocalDate.of(2000, 1, 1))), "dt > DATE '2000-01-01'"),
                of(col("b").lt(col("c")), "b < c"),
                of(col("b").and(col("c")), "b AND c"),
                of(col("b").or(col("c").not()), "b OR NOT c"),
                of(col("i").gt(lit(0)).and(col("s").isNull()), "i > 0 AND s IS NULL"),
                of(col("i").isNotNull().or(col("b")), "i IS NOT NULL OR b"),
                of(col("i").in(lit(1), lit(2), lit(3), lit(-5), lit(100)), "i IN (1, 2, 3, -5, 100)"),
                of(col("j").in(lit(1), Expr.nullOf(DataType.INT32)), "j IN (1, NULL)"),
                of(col("j").in(col("k"), lit(0)), "j IN (k, 0)"),
                of(col("m").in(lit(new BigDecimal("1.5")), lit(2)), "m IN (1.5, 2)"),
                of(col("s").in(lit("a"), lit("b"), lit(""), lit("ab")), "s IN ('a', 'b', '', 'ab')"),
                of(col("i").between(lit(-100), lit(100)), "i BETWEEN -100 AND 100"),
                of(col("m").between(lit(-10.5), lit(new BigDecimal("99.99"))), "m BETWEEN -10.5 AND 99.99"),
                of(col("i").between(col("j"), col("k")), "i BETWEEN j AND k"),
                of(col("dt").between(lit(LocalDate.of(1980, 1, 1)), lit(LocalDate.of(1999, 12, 31))),
                        "dt BETWEEN DATE '1980-01-01' AND DATE '1999-12-31'"),
                of(col("s").like("a%"), "s LIKE 'a%'"),
                of(col("s").like("%b"), "s LIKE '%b'"),
                of(col("s").like("%ab%"), "s LIKE '%ab%'"),
                of(col("s").like("a_c%"), "s LIKE 'a_c%'"),
                of(col("s").like("%é%a%"), "s LIKE '%é%a%'"),
                of(col("s").like("_%_"), "s LIKE '_%_'"),
                of(col("s").like("abc"), "s LIKE 'abc'"),
                of(caseWhen(col("i").gt(lit(500)), lit("high")).when(col("i").gt(lit(0)), lit("mid")).otherwise(col("s")),
                        "CASE WHEN i > 500 THEN 'high' WHEN i > 0 THEN 'mid' ELSE s END"),
                of(caseWhen(col("b"), col("i")).when(col("c"), col("m")).end(), "CASE WHEN b THEN i WHEN c THEN m END"),
                of(caseWhen(col("k").gt(lit(0)), col("i").div(col("k"))).otherwise(col("d")),
                        "CASE WHEN k > 0 THEN i // k ELSE d END"),
                of(coalesce(col("i"), col("j"), col("k")), "coalesce(i, j, k)"),
                of(coalesce(col("s"), col("t"), lit("-")), "coalesce(s, t, '-')"),
                of(coalesce(col("m"), col("d")), "coalesce(m, d)"),
                of(col("e").cast(DataType.INT32), "CAST(e AS INTEGER)"),
                of(col("e").cast(DataType.decimal(12, 3)).cast(DataType.VARCHAR), "CAST(CAST(e AS DECIMAL(12,3)) AS VARCHAR)"),
                of(col("m").cast(DataType.INT32), "CAST(m AS INTEGER)"),
                of(col("m").cast(DataType.decimal(8, 1)), "CAST(m AS DECIMAL(8,1))"),
                of(col("n").cast(DataType.decimal(18, 6)), "CAST(n AS DECIMAL(18,6))"),
                of(col("m").cast(DataType.FLOAT64), "CAST(m AS DOUBLE)"),
                of(col("i").cast(DataType.VARCHAR), "CAST(i AS VARCHAR)"),
                of(col("m").cast(DataType.VARCHAR), "CAST(m AS VARCHAR)"),
                of(col("d").cast(DataType.VARCHAR), "CAST(d AS VARCHAR)"),
                of(col("dt").cast(DataType.VARCHAR), "CAST(dt AS VARCHAR)"),
                of(col("b").cast(DataType.VARCHAR), "CAST(b AS VARCHAR)"),
                of(col("b").cast(DataType.INT32), "CAST(b AS INTEGER)"),
                of(col("i").cast(DataType.BOOLEAN), "CAST(i AS BOOLEAN)"),
                of(col("num").cast(DataType.FLOAT64), "CAST(num AS DOUBLE)"),
                of(col("num").cast(DataType.INT64), "CAST(num AS BIGINT)"),
                of(col("num").cast(DataType.decimal(10, 2)), "CAST(num AS DECIMAL(10,2))"),
                of(col("dt").cast(DataType.VARCHAR).cast(DataType.DATE), "CAST(CAST(dt AS VARCHAR) AS DATE)"),
                of(substring(col("s"), 2, 3), "substring(s, 2, 3)"),
                of(substring(col("s"), -2, 5), "substring(s, -2, 5)"),
                of(substring(col("s"), 0, 2), "substring(s, 0, 2)"),
                of(upper(col("s")), "upper(s)"),
                of(lower(col("t")), "lower(t)"),
                of(length(col("s")), "length(s)"),
                of(year(col("dt")), "year(dt)"),
                of(month(col("dt")), "month(dt)"),
                of(day(col("dt")), "day(dt)"),
                of(round(col("d"), 1), "round(d, 1)"),
                of(round(col("d"), 0), "round(d, 0)"),
                of(round(col("d"), -2), "round(d, -2)"),
                of(round(col("m"), 1), "round(m, 1)"),
                of(round(col("m"), -1), "round(m, -1)"),
                of(round(col("n"), 2), "round(n, 2)"),
                of(round(col("i"), -2), "round(i, -2)"));
    }

    private static List<Case> predicates() {
        return List.of(
                of(col("i").gt(lit(0)), "i > 0"),
                of(col("s").like("a%").or(col("t").like("%b")), "s LIKE 'a%' OR t LIKE '%b'"),
                of(col("m").between(lit(1), lit(5000)), "m BETWEEN 1 AND 5000"),
                of(col("j").in(lit(1), lit(2), lit(3)), "j IN (1, 2, 3)"),
                of(col("b").and(col("c").not()), "b AND NOT c"),
                of(coalesce(col("i"), lit(0)).gt(col("j")), "coalesce(i, 0) > j"),
                of(col("d").lt(col("m")), "d < m"),
                of(col("dt").ge(lit(LocalDate.of(1990, 1, 1))).and(col("dt").lt(lit(LocalDate.of(2010, 1, 1)))),
                        "dt >= DATE '1990-01-01' AND dt < DATE '2010-01-01'"),
                of(col("s").isNull().or(col("t").isNull()), "s IS NULL OR t IS NULL"),
                of(caseWhen(col("b"), col("i").gt(lit(0))).otherwise(col("j").lt(lit(0))), "CASE WHEN b THEN i > 0 ELSE j < 0 END"),
                of(col("i").div(col("k")).gt(lit(3)).or(col("l").lt(lit(0))), "i // k > 3 OR l < 0"));
    }

    // ------------------------------------------------------------------ the tests

    @Test
    void shouldProjectLikeDuckDb() throws SQLException {
        List<Case> cases = projections();
        compareProjection(Plan.scan("r"), "", cases);
    }

    @Test
    void shouldProjectLikeDuckDbOverSelectionVectors() throws SQLException {
        // Two filters in a row: the projection sees a selection of a selection.
        Plan filtered = Plan.scan("r").filter(col("id").mod(lit(3)).ne(lit(0))).filter(col("b").isNull().or(col("id").lt(lit(2000))));
        compareProjection(filtered, " WHERE id % 3 <> 0 AND (b IS NULL OR id < 2000)", projections());
    }

    @Test
    void shouldFilterLikeDuckDb() throws SQLException {
        for (Case predicate : predicates()) {
            List<List<Object>> ours = sortById(troupe.execute(Plan.scan("r").filter(predicate.expr()).project(col("id"))).rows());
            List<List<Object>> theirs = duckdb("SELECT id FROM r WHERE " + predicate.sql() + " ORDER BY id");
            assertEquals(theirs.size(), ours.size(), "rows where " + predicate.sql());
            compareRows(ours, theirs, List.of("id"), predicate.sql());
        }
    }

    /**
     * Text to DATE as DuckDB reads it, bad text failing where DuckDB's TRY_CAST gives NULL: its era suffix
     * ({@code (BC)}, one space before it, any case), which it prints for years up to 0, checked against the calendar
     * of the year it names; and back to text.
     */
    @Test
    void shouldCastTextToDatesAsDuckDb() throws SQLException {
        List<String> texts = List.of("0001-04-01 (BC)", "0001-04-01 (bc)", "1-1-1 (Bc)", " 0005-03-01 (BC) ",
                "0001-04-01\t(BC)", "0001-02-29 (BC)", "0005-02-29 (BC)", "2000-02-29 (BC)", "0000-01-01",
                "-0001-01-01", "2024-01-05", "0001-04-01(BC)", "0001-04-01  (BC)", "0000-01-01 (BC)",
                "-0001-01-01 (BC)", "0001-04-01 BC", "0001-04-01 (BC)x", "0001-04-01 (AD)", "0001-04-01 (B C)");
        for (String text : texts) {
            List<Object> theirs = duckdb("SELECT TRY_CAST('" + text + "' AS DATE) - DATE '1970-01-01', "
                    + "TRY_CAST('" + text + "' AS DATE)::VARCHAR").get(0);
            Expr date = lit(text).cast(DataType.DATE);
            Plan plan = Plan.scan("r").filter(col("id").eq(lit(0))).project(date.as("d"),
                    date.cast(DataType.VARCHAR).as("v"));
            if (theirs.get(0) == null) {
                String error = assertThrows(RuntimeException.class, () -> troupe.execute(plan), text).getMessage();
                assertTrue(error.contains("invalid input syntax for type date: \"" + text + "\""), error);
                continue;
            }
            List<Object> ours = troupe.execute(plan).rows().get(0);
            assertEquals(((Number) theirs.get(0)).longValue(), ((LocalDate) ours.get(0)).toEpochDay(), text);
            assertEquals(theirs.get(1), ours.get(1), text);
        }
    }

    private static void compareProjection(Plan input, String where, List<Case> cases) throws SQLException {
        List<Expr> exprs = new ArrayList<>();
        exprs.add(col("id"));
        StringBuilder sql = new StringBuilder("SELECT id");
        List<String> names = new ArrayList<>();
        names.add("id");
        for (int c = 0; c < cases.size(); c++) {
            exprs.add(cases.get(c).expr().as("e" + c));
            sql.append(", ").append(cases.get(c).sql());
            names.add(cases.get(c).sql());
        }
        sql.append(" FROM r").append(where).append(" ORDER BY id");
        List<List<Object>> ours = sortById(troupe.execute(input.project(exprs.toArray(new Expr[0]))).rows());
        List<List<Object>> theirs = duckdb(sql.toString());
        assertEquals(theirs.size(), ours.size(), "row count");
        compareRows(ours, theirs, names, where);
    }

    private static void compareRows(List<List<Object>> ours, List<List<Object>> theirs, List<String> names, String context) {
        List<String> mismatches = new ArrayList<>();
        for (int r = 0; r < ours.size(); r++) {
            for (int c = 0; c < names.size(); c++) {
                Object a = ours.get(r).get(c);
                Object b = theirs.get(r).get(c);
                if (!same(a, b) && mismatches.size() < 20) {
                    mismatches.add(names.get(c) + " at id " + ours.get(r).get(0) + ": troupe=" + a + ", duckdb=" + b);
                }
            }
        }
        if (!mismatches.isEmpty()) {
            fail("differences from DuckDB" + context + ":\n" + String.join("\n", mismatches));
        }
    }

    private static boolean same(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Number x && b instanceof Number y) {
            if (a instanceof Double || b instanceof Double || a instanceof Float || b instanceof Float) {
                double p = x.doubleValue();
                double q = y.doubleValue();
                return p == q || Math.abs(p - q) <= 1e-9 * Math.max(Math.abs(p), Math.abs(q)) || (Double.isNaN(p) && Double.isNaN(q));
            }
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
        }
        if (b instanceof java.sql.Date date) {
            b = date.toLocalDate();
        }
        return a.equals(b);
    }

    private static List<List<Object>> sortById(List<List<Object>> rows) {
        List<List<Object>> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingInt(row -> (Integer) row.get(0)));
        return sorted;
    }

    private static List<List<Object>> duckdb(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int c = 1; c <= columns; c++) {
                    row.add(rs.getObject(c));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
