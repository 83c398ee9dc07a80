package io.troupe.operators.expr;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.sql.SqlException;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static io.troupe.operators.plan.Expr.call;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The numeric functions of the registry (docs/sql/functions-numeric.md) against DuckDB, over one random
 * table with NULLs: each case as a plan ({@link Expr#call}) and as SQL, at 1 and 2 workers, over the
 * whole table and over the selection a filter leaves; values compared as the differential tests do,
 * and result types against DuckDB's {@code typeof()}; a second table holds each type's extremes. Where
 * Troupe differs from DuckDB on purpose the test says so: {@code sign} and {@code bit_count} are INTEGERs
 * (DuckDB: TINYINT, which Troupe lacks); in SQL, CEIL and FLOOR of an integer keep its type (Calcite's
 * parser types them; the plan and DuckDB: DOUBLE); {@code gcd} and {@code lcm} keep their arguments' type
 * as PostgreSQL's do (DuckDB: BIGINT), and {@code factorial} is a BIGINT that overflows past 20! (DuckDB: a
 * HUGEINT); a value outside a function's domain fails with PostgreSQL's message where DuckDB answers NaN or
 * Infinity, and so do a DOUBLE's mod by zero and {@code log(1, x)}; shifts treat negative numbers as
 * PostgreSQL does (DuckDB refuses {@code -1 << 2}, and answers 0 for {@code -8 >> 40}). {@code random()}
 * cannot be compared: its range and spread are checked instead. DOUBLE {@code %} is left out of the SQL
 * cases: Calcite's operator takes exact numbers and casts DOUBLEs to DECIMAL(18,15) (mod() is the way).
 */
class NumericFunctionsTest {

    private static final int ROWS = 2500;
    private static final Schema SCHEMA = Schema.of(
            Field.of("id", DataType.INT32), Field.of("i", DataType.INT32), Field.of("u", DataType.INT32),
            Field.of("k", DataType.INT32), Field.of("l", DataType.INT64), Field.of("m", DataType.decimal(9, 2)),
            Field.of("pm", DataType.decimal(9, 2)), Field.of("n", DataType.decimal(18, 4)),
            Field.of("d", DataType.FLOAT64), Field.of("pos", DataType.FLOAT64), Field.of("b", DataType.FLOAT64),
            Field.of("x", DataType.FLOAT64), Field.of("s", DataType.VARCHAR), Field.of("t", DataType.VARCHAR),
            Field.of("dt", DataType.DATE), Field.of("w", DataType.FLOAT64), Field.of("sh", DataType.INT32),
            Field.of("nz", DataType.INT32));
    private static final String WHERE = " WHERE id % 3 <> 0";

    private static Troupe troupe;
    private static DuckDbOracle duck;

    /** One expression: the plan's, Troupe's SQL and DuckDB's (the same SQL unless DuckDB spells it otherwise). */
    private record Case(Expr expr, String sql, String duckSql) {
    }

    private static Case of(Expr expr, String sql) {
        return new Case(expr, sql, sql);
    }

    private static Case of(Expr expr, String sql, String duckSql) {
        return new Case(expr, sql, duckSql);
    }

    @BeforeAll
    static void load() throws Exception {
        troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(100));
        TableBuilder table = new TableBuilder("r", SCHEMA, 700);
        Random random = new Random(20261206);
        for (int id = 0; id < ROWS; id++) {
            table.addRow(id,
                    nullOr(random, random.nextInt(2001) - 1000),
                    nullOr(random, random.nextInt(1_000_001)),
                    nullOr(random, random.nextInt(7) - 3),
                    nullOr(random, random.nextLong() >> 12),
                    nullOr(random, BigDecimal.valueOf(random.nextInt(2_000_001) - 1_000_000, 2)),
                    nullOr(random, BigDecimal.valueOf(random.nextInt(1_000_000) + 1, 2)),
                    nullOr(random, BigDecimal.valueOf(random.nextLong() % 100_000_000_000_000_000L, 4)),
                    nullOr(random, anyDouble(random)),
                    nullOr(random, positiveDouble(random)),
                    nullOr(random, (random.nextInt(400) + 1) / 4.0 * (random.nextBoolean() ? 1 : -1)),
                    nullOr(random, (random.nextInt(1201) - 600) / 200.0),
                    nullOr(random, text(random)),
                    nullOr(random, text(random)),
                    nullOr(random, LocalDate.ofEpochDay(random.nextInt(40_000) - 10_000)),
                    nullOr(random, (random.nextInt(401) - 200) / 200.0),
                    nullOr(random, random.nextInt(11)),
                    nullOr(random, (random.nextInt(50) + 1) * (random.nextBoolean() ? 1 : -1)));
        }
        troupe.register(table.build());
        troupe.register(extremes());
        duck = new DuckDbOracle();
        duck.load(List.of(troupe.catalog().table("r"), troupe.catalog().table("xt")));
    }

    @AfterAll
    static void close() throws Exception {
        troupe.close();
        duck.close();
    }

    /** Each type's extremes: the integers' MIN and MAX, the widest DECIMAL, the infinities, NaN, subnormals, -0.0. */
    private static Table extremes() {
        TableBuilder table = new TableBuilder("xt", Schema.of(Field.of("id", DataType.INT32),
                Field.of("xi", DataType.INT32), Field.of("xl", DataType.INT64), Field.of("xm", DataType.decimal(18, 4)),
                Field.of("xd", DataType.FLOAT64)));
        BigDecimal widest = new BigDecimal("99999999999999.9999");
        table.addRow(0, Integer.MIN_VALUE, Long.MIN_VALUE, widest.negate(), Double.NEGATIVE_INFINITY);
        table.addRow(1, Integer.MAX_VALUE, Long.MAX_VALUE, widest, Double.POSITIVE_INFINITY);
        table.addRow(2, 0, 0L, BigDecimal.ZERO.setScale(4), Double.NaN);
        table.addRow(3, -1, -1L, new BigDecimal("-0.0001"), -Double.MAX_VALUE);
        table.addRow(4, 1, 1L, new BigDecimal("0.0001"), Double.MAX_VALUE);
        table.addRow(5, null, null, null, Double.MIN_VALUE);
        table.addRow(6, 7, -7L, new BigDecimal("12.3456"), -0.0);
        table.addRow(7, -1000, 1000L, null, null);
        return table.build();
    }

    private static Object nullOr(Random random, Object value) {
        return random.nextInt(8) == 0 ? null : value;
    }

    /** Halves and quarters (ties for ceil, floor and round), gaussians, and the signed zeros. */
    private static double anyDouble(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> (random.nextInt(4001) - 2000) / 4.0;
            case 1 -> random.nextGaussian() * 1000;
            case 2 -> random.nextGaussian() * Math.pow(10, random.nextInt(30) - 15);
            case 3 -> random.nextBoolean() ? 0.0 : -0.0;
            default -> random.nextInt(100) / 100.0;
        };
    }

    private static double positiveDouble(Random random) {
        return random.nextBoolean() ? (random.nextInt(100_000) + 1) / 64.0 : Math.exp(random.nextGaussian() * 10);
    }

    private static String text(Random random) {
        String alphabet = "abcAB é😀";
        StringBuilder sb = new StringBuilder();
        for (int n = random.nextInt(5); n > 0; n--) {
            sb.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0,
                    random.nextInt(alphabet.codePointCount(0, alphabet.length())))));
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ the cases

    private static List<Case> cases() {
        return List.of(
                of(call("ceil", col("d")), "ceil(d)"),
                of(call("ceiling", col("m")), "ceiling(m)"),
                of(call("CEIL", col("n")), "ceil(n)"),
                of(call("ceil", col("i")), "ceil(i)"),
                of(call("ceil", col("l")), "ceil(l)"),
                of(call("floor", col("d")), "floor(d)"),
                of(call("floor", col("m")), "floor(m)"),
                of(call("floor", col("n")), "floor(n)"),
                of(call("floor", col("i")), "floor(i)"),
                of(call("sign", col("i")), "sign(i)"),
                of(call("sign", col("l")), "sign(l)"),
                of(call("sign", col("m")), "sign(m)"),
                of(call("sign", col("d")), "sign(d)"),
                of(call("sqrt", col("pos")), "sqrt(pos)"),
                of(call("sqrt", col("u")), "sqrt(u)"),
                of(call("sqrt", col("pm")), "sqrt(pm)"),
                of(call("ln", col("pos")), "ln(pos)"),
                of(call("ln", col("u").plus(lit(1))), "ln(u + 1)"),
                of(call("ln", col("pm")), "ln(pm)"),
                of(call("power", col("pos"), col("x")), "power(pos, x)"),
                of(call("pow", col("b"), col("k")), "pow(b, k)"),
                of(call("power", col("m"), lit(2)), "power(m, 2)"),
                of(call("power", lit(2), col("k")), "power(2, k)"),
                of(call("power", col("i").times(col("i")), lit(0.5)), "power(i * i, 0.5)"),
                of(call("greatest", col("i"), col("l")), "greatest(i, l)"),
                of(call("least", col("i"), col("m")), "least(i, m)"),
                of(call("greatest", col("m"), col("n")), "greatest(m, n)"),
                of(call("greatest", col("d"), col("i"), col("m")), "greatest(d, i, m)"),
                of(call("least", col("i"), col("u"), col("k")), "least(i, u, k)"),
                of(call("greatest", col("i"), Expr.nullOf(DataType.INT32)), "greatest(i, CAST(NULL AS INTEGER))"),
                of(call("least", col("s"), col("t")), "least(s, t)"),
                of(call("greatest", col("dt"), lit(LocalDate.of(2000, 1, 1))), "greatest(dt, DATE '2000-01-01')"),
                of(call("greatest", col("d")), "greatest(d)"),
                of(call("round", col("d")), "round(d)"),
                of(call("round", col("m")), "round(m)"),
                of(call("round", col("d"), lit(1)), "round(d, 1)"),
                of(call("round", col("n"), lit(2)), "round(n, 2)"),
                of(call("round", col("m"), lit(-1)), "round(m, -1)"),
                of(call("round", col("i"), lit(-2)), "round(i, -2)"),
                of(call("round", col("l"), lit(-3)), "round(l, -3)"),
                of(call("trunc", col("d")), "trunc(d)"),
                of(call("trunc", col("m")), "trunc(m)"),
                of(call("trunc", col("i")), "trunc(i)"),
                of(call("trunc", col("d"), lit(1)), "trunc(d, 1)"),
                of(call("trunc", col("d"), lit(-2)), "trunc(d, -2)"),
                of(call("trunc", col("n"), lit(2)), "trunc(n, 2)"),
                of(call("trunc", col("m"), lit(-1)), "trunc(m, -1)"),
                of(call("trunc", col("i"), lit(-2)), "trunc(i, -2)"),
                of(call("trunc", col("l"), lit(-3)), "trunc(l, -3)"),
                of(call("abs", col("i")), "abs(i)"),
                of(call("abs", col("l")), "abs(l)"),
                of(call("abs", col("m")), "abs(m)"),
                of(call("abs", col("d")), "abs(d)"),
                of(call("cbrt", col("d")), "cbrt(d)"),
                of(call("exp", col("x")), "exp(x)"),
                of(call("log10", col("pos")), "log10(pos)"),
                of(call("log", col("pm")), "log(pm)"),
                of(call("log", lit(2), col("pos")), "log(2, pos)"),
                of(call("log", col("pm").plus(lit(1)), col("u").plus(lit(1))), "log(pm + 1, u + 1)"),
                of(call("log2", col("pos")), "log2(pos)"),
                of(call("log2", col("u").plus(lit(1))), "log2(u + 1)"),
                of(call("pi"), "pi()"),
                of(call("degrees", col("x")), "degrees(x)"),
                of(call("radians", col("d")), "radians(d)"),
                of(call("sin", col("d")), "sin(d)"),
                of(call("cos", col("d")), "cos(d)"),
                of(call("tan", col("x")), "tan(x)"),
                of(call("cot", col("x")), "cot(x)"),
                of(call("asin", col("w")), "asin(w)"),
                of(call("acos", col("w")), "acos(w)"),
                of(call("atan", col("d")), "atan(d)"),
                of(call("atan2", col("d"), col("x")), "atan2(d, x)"),
                of(call("sinh", col("x")), "sinh(x)"),
                of(call("cosh", col("x")), "cosh(x)"),
                of(call("tanh", col("d")), "tanh(d)"),
                of(call("asinh", col("d")), "asinh(d)"),
                of(call("acosh", col("pos").plus(lit(1))), "acosh(pos + 1)"),
                of(call("atanh", col("w")), "atanh(w)"),
                of(call("mod", col("i"), col("nz")), "mod(i, nz)"),
                of(col("i").mod(col("nz")), "i % nz"),
                of(call("mod", col("l"), col("nz")), "mod(l, nz)"),
                of(call("mod", col("m"), col("pm")), "mod(m, pm)"),
                of(col("m").mod(col("pm")), "m % pm"),
                of(call("mod", col("i"), col("pm")), "mod(i, pm)"),
                of(call("mod", col("d"), col("b")), "mod(d, b)"),
                of(call("gcd", col("i"), col("u")), "gcd(i, u)"),
                of(call("gcd", col("l"), col("i")), "gcd(l, i)"),
                of(call("lcm", col("i"), col("nz")), "lcm(i, nz)"),
                of(call("lcm", col("l").mod(lit(100000)), col("u")), "lcm(l % 100000, u)"),
                of(call("factorial", col("u").mod(lit(21))), "factorial(u % 21)"),
                of(call("bitand", col("i"), col("u")), "i & u"),
                of(call("bitand", col("l"), col("i")), "bitand(l, i)", "l & i"),
                of(call("bitor", col("i"), col("u")), "bitor(i, u)", "i | u"),
                of(call("xor", col("i"), col("k")), "xor(i, k)"),
                of(call("bitxor", col("l"), col("i")), "bitxor(l, i)", "xor(l, i)"),
                of(call("bitnot", col("i")), "bitnot(i)", "~i"),
                of(call("bitnot", col("l")), "bitnot(l)", "~l"),
                of(call("leftshift", col("u"), col("sh")), "u << sh"),
                of(call("leftshift", call("abs", col("l")), col("sh")), "leftshift(abs(l), sh)", "abs(l) << sh"),
                of(call("rightshift", col("i"), col("sh")), "rightshift(i, sh)", "i >> sh"),
                of(call("rightshift", col("l"), col("sh")), "rightshift(l, sh)", "l >> sh"),
                of(call("bit_count", col("i")), "bit_count(i)"),
                of(call("bit_count", col("l")), "bit_count(l)"),
                of(call("isnan", col("d")), "isnan(d)"),
                of(call("isinf", col("d")), "isinf(d)"),
                of(call("isfinite", col("m")), "isfinite(m)"));
    }

    /**
     * Where Troupe's result type differs from DuckDB's on purpose, by the case's SQL: its type in a plan and
     * in SQL. sign and bit_count are INTEGERs (DuckDB: TINYINT, which Troupe lacks); Calcite's parser types
     * CEIL and FLOOR itself, keeping an integer's type, which the SQL lowering keeps (the plan and DuckDB:
     * DOUBLE); gcd and lcm keep their arguments' type as PostgreSQL's do (DuckDB: BIGINT); factorial is a
     * BIGINT (DuckDB: HUGEINT, PostgreSQL: numeric, neither of which Troupe has).
     */
    private static final Map<String, List<String>> OTHER_TYPES = Map.ofEntries(
            Map.entry("sign(i)", List.of("INTEGER", "INTEGER")), Map.entry("sign(l)", List.of("INTEGER", "INTEGER")),
            Map.entry("sign(m)", List.of("INTEGER", "INTEGER")), Map.entry("sign(d)", List.of("INTEGER", "INTEGER")),
            Map.entry("ceil(i)", List.of("DOUBLE", "INTEGER")), Map.entry("ceil(l)", List.of("DOUBLE", "BIGINT")),
            Map.entry("floor(i)", List.of("DOUBLE", "INTEGER")),
            Map.entry("bit_count(i)", List.of("INTEGER", "INTEGER")),
            Map.entry("bit_count(l)", List.of("INTEGER", "INTEGER")),
            Map.entry("gcd(i, u)", List.of("INTEGER", "INTEGER")), Map.entry("lcm(i, nz)", List.of("INTEGER", "INTEGER")),
            Map.entry("factorial(u % 21)", List.of("BIGINT", "BIGINT")));

    // ------------------------------------------------------------------ the tests

    @Test
    void shouldComputeWhatDuckDbComputesAtOneAndTwoWorkers() throws Exception {
        for (int workers : new int[] {1, 2}) {
            compare(Plan.scan("r"), "", workers);
            // Two filters in a row: the functions see a selection of a selection.
            compare(Plan.scan("r").filter(col("id").mod(lit(3)).ne(lit(0))).filter(col("id").lt(lit(2000))),
                    WHERE + " AND id < 2000", workers);
        }
    }

    private static void compare(Plan input, String where, int workers) throws Exception {
        List<Expr> exprs = new ArrayList<>(List.of(col("id")));
        List<Case> cases = cases();
        for (int c = 0; c < cases.size(); c++) {
            exprs.add(cases.get(c).expr().as("e" + c));
        }
        String sql = select(cases.stream().map(Case::sql).toList(), where);
        List<List<Object>> expected = duck.query(select(cases.stream().map(Case::duckSql).toList(), where)).rows();
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        List<List<Object>> fromPlan = byId(troupe.execute(input.project(exprs.toArray(new Expr[0])), options).rows());
        List<List<Object>> fromSql = byId(troupe.sql(sql, options).rows());
        assertTrue(expected.size() > ROWS / 2, "rows: " + expected.size());
        assertNull(ResultComparator.compare(expected, fromPlan, true), () -> "plan at " + workers + " workers" + where);
        assertNull(ResultComparator.compare(expected, fromSql, true), () -> "SQL at " + workers + " workers" + where);
    }

    private static String select(List<String> exprs, String where) {
        return "SELECT id, " + String.join(", ", exprs) + " FROM r" + where + " ORDER BY id";
    }

    private static List<List<Object>> byId(List<List<Object>> rows) {
        List<List<Object>> sorted = new ArrayList<>(DuckDbOracle.normalise(rows));
        sorted.sort(Comparator.comparingLong(row -> (Long) row.get(0)));
        return sorted;
    }

    @Test
    void shouldTypeResultsAsDuckDbTypeofSays() throws Exception {
        List<Case> cases = cases();
        List<String> typeofs = cases.stream().map(c -> "typeof(" + c.duckSql() + ")").toList();
        List<Object> duckTypes = duck.query("SELECT " + String.join(", ", typeofs) + " FROM r LIMIT 1").rows().get(0);
        Schema plan = troupe.execute(Plan.scan("r").project(cases.stream().map(Case::expr).toArray(Expr[]::new))
                .limit(1)).schema();
        Schema sql = troupe.sql("SELECT " + String.join(", ", cases.stream().map(Case::sql).toList())
                + " FROM r LIMIT 1").schema();
        List<String> wrong = new ArrayList<>();
        for (int c = 0; c < cases.size(); c++) {
            String text = cases.get(c).sql();
            List<String> expected = OTHER_TYPES.getOrDefault(text, List.of((String) duckTypes.get(c), (String) duckTypes.get(c)));
            if (!expected.get(0).equals(plan.field(c).type().sqlName()) || !expected.get(1).equals(sql.field(c).type().sqlName())) {
                wrong.add(text + ": DuckDB " + duckTypes.get(c) + ", expected " + expected + ", plan "
                        + plan.field(c).type().sqlName() + ", SQL " + sql.field(c).type().sqlName());
            }
        }
        assertEquals(List.of(), wrong);
        List<String> sqls = cases.stream().map(Case::sql).toList();
        assertEquals("TINYINT", duckTypes.get(sqls.indexOf("sign(d)")));
        assertEquals("BIGINT", duckTypes.get(sqls.indexOf("gcd(i, u)")));
        assertEquals("HUGEINT", duckTypes.get(sqls.indexOf("factorial(u % 21)")));
    }

    /** A value outside a function's domain: PostgreSQL's error, where DuckDB answers {@code duckdb}. */
    private record DomainCase(Expr expr, String sql, QueryDataException.Kind kind, String message, double duckdb) {
    }

    @Test
    void shouldFailOutsideTheDomainAsPostgreSqlDoesWhereDuckDbAnswersNaNOrInfinity() throws Exception {
        List<DomainCase> cases = List.of(
                new DomainCase(call("sqrt", lit(-4.0)), "sqrt(-4.0e0)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "cannot take square root of a negative number (-4.0) in sqrt(-4.0)", Double.NaN),
                new DomainCase(call("ln", lit(0)), "ln(0)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "cannot take logarithm of zero in ln(0)", Double.NEGATIVE_INFINITY),
                new DomainCase(call("ln", lit(-2.5)), "ln(-2.5e0)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "cannot take logarithm of a negative number (-2.5) in ln(-2.5)", Double.NaN),
                new DomainCase(call("power", lit(0), lit(-1)), "power(0, -1)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "zero raised to a negative power is undefined (0.0 ^ -1.0) in power(0, -1)",
                        Double.POSITIVE_INFINITY),
                new DomainCase(call("pow", lit(-8.0), lit(0.5)), "pow(-8.0e0, 0.5e0)",
                        QueryDataException.Kind.INVALID_ARGUMENT, "a negative number raised to a non-integer power "
                        + "yields a complex result (-8.0 ^ 0.5) in pow(-8.0, 0.5)", Double.NaN),
                new DomainCase(call("power", lit(10), lit(400)), "power(10, 400)", QueryDataException.Kind.OVERFLOW,
                        "value out of range: overflow (10.0 ^ 400.0) in power(10, 400)", Double.POSITIVE_INFINITY),
                new DomainCase(call("power", lit(10), lit(-400)), "power(10, -400)", QueryDataException.Kind.OVERFLOW,
                        "value out of range: underflow (10.0 ^ -400.0) in power(10, -400)", 0.0),
                new DomainCase(call("log10", lit(0)), "log10(0)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "cannot take logarithm of zero in log10(0)", Double.NEGATIVE_INFINITY),
                new DomainCase(call("log", lit(-1)), "log(-1)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "cannot take logarithm of a negative number (-1.0) in log(-1)", Double.NaN),
                new DomainCase(call("log", lit(1), lit(8)), "log(1, 8)", QueryDataException.Kind.DIVISION_BY_ZERO,
                        "division by zero (logarithm to base 1.0) in log(1, 8)", Double.POSITIVE_INFINITY),
                new DomainCase(call("log2", lit(0)), "log2(0)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "cannot take logarithm of zero in log2(0)", Double.NEGATIVE_INFINITY),
                new DomainCase(call("exp", lit(1000)), "exp(1000)", QueryDataException.Kind.OVERFLOW,
                        "value out of range: overflow (1000.0) in exp(1000)", Double.POSITIVE_INFINITY),
                new DomainCase(call("exp", lit(-1000)), "exp(-1000)", QueryDataException.Kind.OVERFLOW,
                        "value out of range: underflow (-1000.0) in exp(-1000)", 0.0),
                new DomainCase(call("degrees", lit(1e308)), "degrees(1e308)", QueryDataException.Kind.OVERFLOW,
                        "value out of range: overflow (1.0E308) in degrees(1.0E308)", Double.POSITIVE_INFINITY),
                new DomainCase(call("asin", lit(2)), "asin(2)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "input is out of range (2.0) in asin(2)", Double.NaN),
                new DomainCase(call("acos", lit(-1.5)), "acos(-1.5e0)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "input is out of range (-1.5) in acos(-1.5)", Double.NaN),
                new DomainCase(call("sin", lit(Double.POSITIVE_INFINITY)), "sin(CAST('Infinity' AS DOUBLE))",
                        QueryDataException.Kind.INVALID_ARGUMENT, "input is out of range (Infinity) in sin(Infinity)",
                        Double.NaN),
                new DomainCase(call("acosh", lit(0.5)), "acosh(0.5e0)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "input is out of range (0.5) in acosh(0.5)", Double.NaN),
                new DomainCase(call("atanh", lit(2)), "atanh(2)", QueryDataException.Kind.INVALID_ARGUMENT,
                        "input is out of range (2.0) in atanh(2)", Double.NaN),
                new DomainCase(call("mod", lit(7.5), lit(0.0)), "mod(7.5e0, 0e0)", QueryDataException.Kind.DIVISION_BY_ZERO,
                        "division by zero in mod(7.5, 0.0)", Double.NaN));
        Plan oneRow = Plan.scan("r").filter(col("id").eq(lit(0)));
        for (DomainCase c : cases) {
            assertEquals(c.duckdb(), (Double) duck.query("SELECT " + c.sql()).rows().get(0).get(0), c.sql());
            QueryDataException e = assertThrows(QueryDataException.class,
                    () -> troupe.execute(oneRow.project(c.expr().as("v"))), c.sql());
            assertEquals(c.message(), e.getMessage());
            assertEquals(c.kind(), e.kind(), c.sql());
            String sqlMessage = assertThrows(RuntimeException.class, () -> troupe.sql("SELECT " + c.sql())).getMessage();
            assertTrue(sqlMessage.contains(c.message().split(" \\(| in ")[0]), sqlMessage);
        }
        // Over a column, with workers: the row's value is named.
        String message = assertThrows(QueryDataException.class, () -> troupe.execute(Plan.scan("r")
                .project(call("sqrt", col("d")).as("v")), QueryOptions.defaults().withWorkers(2))).getMessage();
        assertTrue(message.matches("cannot take square root of a negative number \\(-[0-9.E-]+\\) in sqrt\\(d\\)"), message);
    }

    @Test
    void shouldNameTheFunctionAndItsSignaturesForWrongArguments() {
        Map<Expr, String> planErrors = Map.of(
                call("sqrt", col("s")), "no function sqrt(VARCHAR); sqrt takes (DOUBLE) in sqrt(s)",
                call("round", col("d"), lit(1), lit(2)), "no function round(DOUBLE, INTEGER, INTEGER); round takes "
                        + "(DOUBLE), (DOUBLE, INTEGER), (DECIMAL), (DECIMAL, INTEGER), (INTEGER), (INTEGER, INTEGER), "
                        + "(BIGINT), (BIGINT, INTEGER) in round(d, 1, 2)",
                call("greatest", col("i"), col("s")), "no function greatest(INTEGER, VARCHAR); greatest takes (T, ...) "
                        + "in greatest(i, s)",
                call("least"), "no function least(); least takes (T, ...) in least()",
                call("round", col("d"), col("i")), "round takes a constant as argument 2 in round(d, i)",
                call("sqr", col("d")), "unknown function 'sqr' (did you mean 'sqrt'?) in sqr(d)",
                call("xyzzy", col("d")), "unknown function 'xyzzy' in xyzzy(d)");
        planErrors.forEach((expr, message) -> {
            PlanException e = assertThrows(PlanException.class,
                    () -> troupe.execute(Plan.scan("r").project(expr.as("v"))), message);
            assertTrue(e.getMessage().startsWith(message), e.getMessage());
        });
        Map<String, String> sqlErrors = Map.of(
                "SELECT sqrt(s) FROM r", "no function sqrt(VARCHAR); sqrt takes (DOUBLE) at line 1, column 8",
                "SELECT id,\n  POWER(d) FROM r", "no function power(DOUBLE); power takes (DOUBLE, DOUBLE) at line 2, "
                        + "column 3",
                "SELECT round(d, i) FROM r", "round takes a constant as argument 2 at line 1, column 8",
                "SELECT greatest(dt, 1) FROM r", "no function greatest(DATE, INTEGER); greatest takes (T, ...)");
        sqlErrors.forEach((sql, message) -> {
            SqlException e = assertThrows(SqlException.class, () -> troupe.sql(sql), sql);
            assertTrue(e.getMessage().startsWith(message), e.getMessage());
        });
    }

    @Test
    void shouldTypeSqlNullsAndParametersAsTheSignatureTheyMeet() throws Exception {
        var result = troupe.sql("SELECT sqrt(NULL), round(NULL, 1), greatest(2, NULL, 1), pow(NULL, 2)");
        assertEquals(List.of(DataType.FLOAT64, DataType.FLOAT64, DataType.INT32, DataType.FLOAT64),
                result.schema().fields().stream().map(Field::type).toList());
        assertEquals(java.util.Arrays.asList(null, null, 2, null), result.rows().get(0));
        String sql = "SELECT id, power(pos, ?), round(m, 1) FROM r WHERE id < 50 ORDER BY id";
        List<List<Object>> expected = duck.query(sql, 3.0).rows();
        List<List<Object>> actual = DuckDbOracle.normalise(troupe.prepareSql(sql).execute(3.0).rows());
        assertNull(ResultComparator.compare(expected, actual, true));
    }

    /** Calcite has no BigDecimal for these constants; the registry reads no DOUBLE constant's value. */
    @Test
    void shouldTakeNaNAndTheInfinitiesAsSqlConstants() {
        assertEquals(List.of(List.of(true, true, false, Double.POSITIVE_INFINITY)), troupe.sql("SELECT "
                + "isnan(CAST('NaN' AS DOUBLE)), isinf(CAST('-Infinity' AS DOUBLE)), isfinite(CAST('Infinity' AS DOUBLE)), "
                + "sqrt(CAST('Infinity' AS DOUBLE))").rows());
    }

    @Test
    void shouldShowCallsAsTheyWereWrittenInExplain() {
        assertTrue(troupe.explainSql("SELECT SQRT(pos), Pow(b, 2) FROM r").contains("sqrt(r.pos) AS sqrt, pow(r.b, 2) AS pow"),
                troupe.explainSql("SELECT SQRT(pos), Pow(b, 2) FROM r"));
        String plan = troupe.explain(Plan.scan("r").project(call("CEILING", col("m")).as("c")));
        assertTrue(plan.contains("ceiling(m) AS c"), plan);
    }

    /**
     * An integer past its type, a negative shift count or factorial, a division by zero: the kind of error Troupe's
     * arithmetic raises, with PostgreSQL's words and the values. {@code duckSql} is DuckDB's spelling, and
     * {@code duckdb} what DuckDB answers, or null where it fails too.
     */
    private record IntegerCase(Expr expr, String sql, String duckSql, QueryDataException.Kind kind, String message,
                               Object duckdb) {
    }

    @Test
    void shouldFailIntegerOverflowAsTheArithmeticDoes() throws Exception {
        QueryDataException.Kind overflow = QueryDataException.Kind.OVERFLOW;
        QueryDataException.Kind invalid = QueryDataException.Kind.INVALID_ARGUMENT;
        List<IntegerCase> cases = List.of(
                new IntegerCase(call("abs", lit(Integer.MIN_VALUE)), "abs(CAST(-2147483648 AS INTEGER))", null, overflow,
                        "integer out of range (-2147483648) in abs(-2147483648)", null),
                new IntegerCase(call("abs", lit(Long.MIN_VALUE)), "abs(CAST(-576460752303423488 AS BIGINT) * 16)", null,
                        overflow, "bigint out of range (-9223372036854775808) in abs(-9223372036854775808)", null),
                // DuckDB's gcd is a BIGINT, which holds 2^31; PostgreSQL's, as Troupe's, an INTEGER, which does not.
                new IntegerCase(call("gcd", lit(Integer.MIN_VALUE), lit(0)), "gcd(CAST(-2147483648 AS INTEGER), 0)", null,
                        overflow, "integer out of range (-2147483648, 0) in gcd(-2147483648, 0)", 2147483648L),
                new IntegerCase(call("gcd", lit(Long.MIN_VALUE), lit(0L)),
                        "gcd(CAST(-576460752303423488 AS BIGINT) * 16, CAST(0 AS BIGINT))", null, overflow,
                        "bigint out of range (-9223372036854775808, 0) in gcd(-9223372036854775808, 0)", null),
                new IntegerCase(call("lcm", lit(Long.MAX_VALUE), lit(2L)),
                        "lcm(CAST(576460752303423487 AS BIGINT) * 16 + 15, CAST(2 AS BIGINT))", null, overflow,
                        "bigint out of range (9223372036854775807, 2) in lcm(9223372036854775807, 2)", null),
                // DuckDB's factorial is a HUGEINT, to 33!; PostgreSQL's a numeric.
                new IntegerCase(call("factorial", lit(21)), "factorial(21)", null, overflow,
                        "bigint out of range (21) in factorial(21)", new java.math.BigInteger("51090942171709440000")),
                new IntegerCase(call("factorial", lit(-1)), "factorial(-1)", null, invalid,
                        "factorial of a negative number is undefined (-1) in factorial(-1)", null),
                new IntegerCase(call("leftshift", lit(1), lit(31)), "1 << 31", null, overflow,
                        "integer out of range (1, 31) in leftshift(1, 31)", null),
                new IntegerCase(call("leftshift", lit(3L), lit(62L)), "CAST(3 AS BIGINT) << 62", null, overflow,
                        "bigint out of range (3, 62) in leftshift(3, 62)", null),
                new IntegerCase(call("leftshift", lit(1), lit(-1)), "1 << -1", null, invalid,
                        "cannot shift by a negative number (-1) in leftshift(1, -1)", null),
                new IntegerCase(call("rightshift", lit(8), lit(-1)), "rightshift(8, -1)", "8 >> -1", invalid,
                        "cannot shift by a negative number (-1) in rightshift(8, -1)", 0),
                new IntegerCase(call("mod", lit(7), lit(0)), "mod(7, 0)", null, QueryDataException.Kind.DIVISION_BY_ZERO,
                        "division by zero in mod(7, 0)", null));
        Plan oneRow = Plan.scan("r").filter(col("id").eq(lit(0)));
        for (IntegerCase c : cases) {
            String duckSql = "SELECT " + (c.duckSql() == null ? c.sql() : c.duckSql());
            if (c.duckdb() == null) {
                assertThrows(SQLException.class, () -> duck.query(duckSql), duckSql);
            } else {
                assertNull(ResultComparator.compare(DuckDbOracle.normalise(List.of(List.of(c.duckdb()))),
                        duck.query(duckSql).rows(), true), duckSql);
            }
            QueryDataException e = assertThrows(QueryDataException.class,
                    () -> troupe.execute(oneRow.project(c.expr().as("v"))), c.sql());
            assertEquals(c.message(), e.getMessage());
            assertEquals(c.kind(), e.kind(), c.sql());
            QueryDataException sql = assertThrows(QueryDataException.class, () -> troupe.sql("SELECT " + c.sql()));
            assertTrue(sql.getMessage().startsWith(c.message().split(" \\(| in ")[0]), sql.getMessage());
            assertEquals(c.kind(), sql.kind(), c.sql());
        }
    }

    /** Over the extremes of each type: what DuckDB computes, at 1 and 2 workers, as a plan and as SQL. */
    @Test
    void shouldComputeWhatDuckDbComputesAtTheTypesExtremes() throws Exception {
        List<Case> cases = List.of(
                of(call("sign", col("xi")), "sign(xi)"), of(call("sign", col("xl")), "sign(xl)"),
                of(call("sign", col("xm")), "sign(xm)"), of(call("sign", col("xd")), "sign(xd)"),
                of(call("ceil", col("xd")), "ceil(xd)"), of(call("floor", col("xm")), "floor(xm)"),
                of(call("trunc", col("xd")), "trunc(xd)"), of(call("round", col("xd")), "round(xd)"),
                of(call("trunc", col("xd"), lit(2)), "trunc(xd, 2)"), of(call("round", col("xd"), lit(-2)), "round(xd, -2)"),
                of(call("trunc", col("xm")), "trunc(xm)"), of(call("trunc", col("xm"), lit(2)), "trunc(xm, 2)"),
                of(call("round", col("xm"), lit(-2)), "round(xm, -2)"),
                of(call("trunc", col("xi"), lit(-9)), "trunc(xi, -9)"), of(call("round", col("xi"), lit(-9)), "round(xi, -9)"),
                of(call("trunc", col("xl"), lit(-18)), "trunc(xl, -18)"),
                of(call("round", col("xl"), lit(-18)), "round(xl, -18)"),
                of(call("abs", col("xm")), "abs(xm)"), of(call("abs", col("xd")), "abs(xd)"),
                of(call("cbrt", col("xd")), "cbrt(xd)"), of(call("atan", col("xd")), "atan(xd)"),
                of(call("atan2", col("xd"), lit(1)), "atan2(xd, 1)"),
                of(call("sinh", col("xd")), "sinh(xd)"), of(call("cosh", col("xd")), "cosh(xd)"),
                of(call("tanh", col("xd")), "tanh(xd)"), of(call("asinh", col("xd")), "asinh(xd)"),
                of(call("isnan", col("xd")), "isnan(xd)"), of(call("isinf", col("xd")), "isinf(xd)"),
                of(call("isfinite", col("xd")), "isfinite(xd)"),
                of(call("bitnot", col("xi")), "bitnot(xi)", "~xi"), of(call("bitnot", col("xl")), "bitnot(xl)", "~xl"),
                of(call("bit_count", col("xi")), "bit_count(xi)"), of(call("bit_count", col("xl")), "bit_count(xl)"),
                of(call("bitand", col("xi"), col("xl")), "xi & xl"), of(call("bitor", col("xl"), lit(1L)),
                        "bitor(xl, CAST(1 AS BIGINT))", "xl | 1"),
                of(call("xor", col("xi"), lit(-1)), "xor(xi, -1)"),
                of(call("rightshift", col("xi"), lit(31)), "rightshift(xi, 31)", "xi >> 31"),
                of(call("rightshift", col("xl"), lit(63L)), "rightshift(xl, CAST(63 AS BIGINT))", "xl >> 63"),
                of(call("mod", col("xi"), lit(7)), "mod(xi, 7)"), of(call("mod", col("xl"), lit(7L)),
                        "mod(xl, CAST(7 AS BIGINT))", "mod(xl, 7)"),
                of(call("mod", col("xm"), lit(new BigDecimal("0.3"))), "mod(xm, 0.3)"),
                of(call("mod", col("xd"), lit(7.0)), "mod(xd, 7e0)"),
                of(call("gcd", col("xl"), lit(6L)), "gcd(xl, CAST(6 AS BIGINT))"),
                of(call("greatest", col("xd"), lit(0.0)), "greatest(xd, 0e0)"));
        List<Expr> exprs = new ArrayList<>(List.of(col("id")));
        for (int c = 0; c < cases.size(); c++) {
            exprs.add(cases.get(c).expr().as("e" + c));
        }
        String tail = " FROM xt ORDER BY id";
        String sql = "SELECT id, " + String.join(", ", cases.stream().map(Case::sql).toList()) + tail;
        List<List<Object>> expected = duck.query("SELECT id, " + String.join(", ",
                cases.stream().map(Case::duckSql).toList()) + tail).rows();
        for (int workers : new int[] {1, 2}) {
            QueryOptions options = QueryOptions.defaults().withWorkers(workers);
            List<List<Object>> fromPlan = byId(troupe.execute(Plan.scan("xt").project(exprs.toArray(new Expr[0])),
                    options).rows());
            assertNull(ResultComparator.compare(expected, fromPlan, true), () -> "plan at " + workers + " workers");
            assertNull(ResultComparator.compare(expected, byId(troupe.sql(sql, options).rows()), true),
                    () -> "SQL at " + workers + " workers");
        }
    }

    @Test
    void shouldFailAtTheTypesExtremesAsPostgreSqlDoes() {
        Map<Expr, String> errors = Map.of(
                call("abs", col("xi")), "integer out of range (-2147483648) in abs(xi)",
                call("abs", col("xl")), "bigint out of range (-9223372036854775808) in abs(xl)",
                call("leftshift", col("xi"), lit(1)), "integer out of range (-2147483648, 1) in leftshift(xi, 1)",
                call("factorial", col("xi")), "factorial of a negative number is undefined (-2147483648) in factorial(xi)",
                call("sqrt", col("xd")), "cannot take square root of a negative number (-Infinity) in sqrt(xd)",
                call("ln", col("xd")), "cannot take logarithm of a negative number (-Infinity) in ln(xd)",
                call("sin", col("xd")), "input is out of range (-Infinity) in sin(xd)",
                call("exp", col("xd")), "value out of range: underflow (-1.7976931348623157E308) in exp(xd)",
                call("degrees", col("xd")), "value out of range: overflow (-1.7976931348623157E308) in degrees(xd)",
                call("lcm", col("xi"), lit(2)), "integer out of range (-2147483648, 2) in lcm(xi, 2)");
        errors.forEach((expr, message) -> {
            QueryDataException e = assertThrows(QueryDataException.class,
                    () -> troupe.execute(Plan.scan("xt").project(expr.as("v")), QueryOptions.defaults().withWorkers(1)),
                    message);
            assertEquals(message, e.getMessage());
        });
    }

    /**
     * Where Troupe answers otherwise than DuckDB, on purpose: a negative number shifted left is that number times
     * 2^n, as in PostgreSQL (DuckDB refuses it); a right shift past the width keeps the sign, as the shift by
     * the width less one does (DuckDB: 0).
     */
    @Test
    void shouldShiftNegativeNumbersAsMultiplicationAndDivisionByPowersOfTwo() throws Exception {
        assertThrows(SQLException.class, () -> duck.query("SELECT -1 << 2"));
        assertEquals(List.of(List.of(0L)), DuckDbOracle.normalise(duck.query("SELECT -8 >> 40").rows()));
        assertEquals(List.of(List.of(-4, -1, -1, 0)), troupe.sql("SELECT -1 << 2, rightshift(-8, 40), "
                + "rightshift(-8, 31), rightshift(8, 40)").rows());
        assertEquals(List.of(List.of(Integer.MIN_VALUE, Long.MIN_VALUE)), troupe.sql("SELECT -1 << 31, "
                + "CAST(-1 AS BIGINT) << 63").rows());
    }

    @Test
    void shouldReadTheBitOperatorsCalciteParsesAndNameTheFunctionsForTheOthers() {
        assertEquals(List.of(List.of(8, 16, 14, 6, -13, 16, 2)), troupe.sql("SELECT 12 & 10, 1 << 4, bitor(12, 10), "
                + "xor(12, 10), bitnot(12), rightshift(256, 4), bit_count(10)").rows());
        assertEquals(List.of(List.of(8L)), troupe.sql("SELECT CAST(12 AS BIGINT) & 10").rows());
        SqlException caret = assertThrows(SqlException.class, () -> troupe.sql("SELECT 12 ^ 10"));
        assertTrue(caret.getMessage().contains("the operator ^, which is a power in PostgreSQL and DuckDB and an "
                + "exclusive or in Calcite's parser: write power(a, b) or xor(a, b)"), caret.getMessage());
        for (String sql : List.of("SELECT 12 | 10", "SELECT 256 >> 4", "SELECT ~12", "SELECT 12 # 10")) {
            SqlException e = assertThrows(SqlException.class, () -> troupe.sql(sql), sql);
            assertEquals(SqlException.Kind.SYNTAX, e.kind(), sql);
        }
    }

    /** random(): never folded, a new value at each row and each call, uniform over [0, 1) at every worker count. */
    @Test
    void shouldDrawANewRandomValueAtEachRowAndCall() throws Exception {
        assertTrue(FunctionRegistry.builtIn().find("random").isVolatile());
        assertFalse(FunctionRegistry.builtIn().find("pi").isVolatile());
        assertFalse(FunctionRegistry.builtIn().bind("random", List.of(), "random()") instanceof LiteralExpression);
        assertInstanceOf(LiteralExpression.class, FunctionRegistry.builtIn().bind("pi", List.of(), "pi()"));
        String plan = troupe.explain(Plan.scan("r").project(call("random").as("v")));
        assertTrue(plan.contains("random() AS v"), plan);
        for (int workers : new int[] {1, 2}) {
            QueryOptions options = QueryOptions.defaults().withWorkers(workers);
            List<List<Object>> fromPlan = troupe.execute(Plan.scan("r").project(call("random").as("a"),
                    call("random").times(lit(1)).as("b")), options).rows();
            assertUniform(fromPlan, "plan at " + workers + " workers");
            List<List<Object>> fromSql = troupe.sql("SELECT random(), random() * 1 FROM r", options).rows();
            assertUniform(fromSql, "SQL at " + workers + " workers");
            assertNotEquals(fromPlan, troupe.execute(Plan.scan("r").project(call("random").as("a"),
                    call("random").as("b")), options).rows());
        }
        assertEquals(ROWS / 10, troupe.sql("SELECT id FROM r WHERE id < " + ROWS / 10 + " ORDER BY random()").rows()
                .size());
    }

    /**
     * Calcite 1.42 copies a subquery's expression into each place that reads it (CALCITE-7551): a random() read
     * twice or filtered on would be drawn once per reading, so such a statement is refused at the call; one that
     * reads each call once runs.
     */
    @Test
    void shouldRefuseSqlThatWouldDrawARandomValueOncePerReading() throws Exception {
        for (String sql : List.of("SELECT v, v AS w FROM (SELECT random() AS v FROM r) s",
                "SELECT v FROM (SELECT id, random() AS v FROM r) s WHERE v < 0.5",
                "WITH t AS (SELECT id, random() AS v FROM r) SELECT count(*) FROM t a JOIN t b ON a.v = b.v")) {
            SqlException e = assertThrows(SqlException.class, () -> troupe.sql(sql), sql);
            assertTrue(e.getMessage().contains("random() in a subquery whose column the query reads more than once "
                    + "or filters on: the planner would compute it once for each reading"), e.getMessage());
        }
        List<List<Object>> sampled = troupe.sql("SELECT id FROM r WHERE random() < 0.5").rows();
        assertTrue(sampled.size() > ROWS / 2 - 200 && sampled.size() < ROWS / 2 + 200, "rows: " + sampled.size());
        List<List<Object>> doubled = troupe.sql("SELECT v * 2 FROM (SELECT random() AS v FROM r) s").rows();
        assertTrue(doubled.stream().allMatch(row -> (Double) row.get(0) >= 0 && (Double) row.get(0) < 2));
        assertEquals(List.of(List.of((long) ROWS)), troupe.sql("SELECT count(*) FROM (SELECT random() AS v FROM r) s")
                .rows());
    }

    /** Every value in [0, 1), almost all distinct, each tenth of the range holding its share, two calls apart. */
    private static void assertUniform(List<List<Object>> rows, String where) {
        assertEquals(ROWS, rows.size(), where);
        int[] tenths = new int[10];
        Set<Double> distinct = new HashSet<>();
        int sameInBothCalls = 0;
        for (List<Object> row : rows) {
            double a = (Double) row.get(0);
            double b = (Double) row.get(1);
            assertTrue(a >= 0 && a < 1 && b >= 0 && b < 1, where + ": " + row);
            tenths[(int) (a * 10)]++;
            distinct.add(a);
            sameInBothCalls += a == b ? 1 : 0;
        }
        assertTrue(distinct.size() > ROWS - 3, where + ": " + distinct.size() + " distinct");
        assertTrue(sameInBothCalls < 3, where + ": " + sameInBothCalls + " rows with equal calls");
        // Each tenth expects 250 values with a standard deviation of 15: 90 away is six of them.
        for (int count : tenths) {
            assertTrue(Math.abs(count - ROWS / 10) < 90, where + ": " + Arrays.toString(tenths));
        }
    }
}
