package io.troupe.operators.expr;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.sql.SqlException;
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
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.troupe.operators.plan.Expr.call;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The numeric functions of the registry (docs/sql/functions-numeric.md) against DuckDB, over one random
 * table with NULLs: each case as a plan ({@link Expr#call}) and as SQL, at 1 and 2 workers, over the
 * whole table and over the selection a filter leaves; values compared as the differential tests do,
 * and result types against DuckDB's {@code typeof()}. Where Troupe differs from DuckDB on purpose the
 * test says so: {@code sign} is an INTEGER (DuckDB: TINYINT, which Troupe lacks); in SQL, CEIL and FLOOR of
 * an integer keep its type (Calcite's parser types them; the plan and DuckDB: DOUBLE); a value outside
 * a function's domain fails with PostgreSQL's message where DuckDB answers NaN or Infinity.
 */
class NumericFunctionsTest {

    private static final int ROWS = 2500;
    private static final Schema SCHEMA = Schema.of(
            Field.of("id", DataType.INT32), Field.of("i", DataType.INT32), Field.of("u", DataType.INT32),
            Field.of("k", DataType.INT32), Field.of("l", DataType.INT64), Field.of("m", DataType.decimal(9, 2)),
            Field.of("pm", DataType.decimal(9, 2)), Field.of("n", DataType.decimal(18, 4)),
            Field.of("d", DataType.FLOAT64), Field.of("pos", DataType.FLOAT64), Field.of("b", DataType.FLOAT64),
            Field.of("x", DataType.FLOAT64), Field.of("s", DataType.VARCHAR), Field.of("t", DataType.VARCHAR),
            Field.of("dt", DataType.DATE));
    private static final String WHERE = " WHERE id % 3 <> 0";

    private static Troupe troupe;
    private static DuckDbOracle duck;

    /** One expression: the plan's and the SQL both engines run. */
    private record Case(Expr expr, String sql) {
    }

    private static Case of(Expr expr, String sql) {
        return new Case(expr, sql);
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
                    nullOr(random, LocalDate.ofEpochDay(random.nextInt(40_000) - 10_000)));
        }
        troupe.register(table.build());
        duck = new DuckDbOracle();
        duck.load(List.of(troupe.catalog().table("r")));
    }

    @AfterAll
    static void close() throws Exception {
        troupe.close();
        duck.close();
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
                of(call("round", col("l"), lit(-3)), "round(l, -3)"));
    }

    /**
     * Where Troupe's result type differs from DuckDB's on purpose, by the case's SQL: its type in a plan and
     * in SQL. sign is an INTEGER (DuckDB: TINYINT, which Troupe lacks); Calcite's parser types CEIL and
     * FLOOR itself, keeping an integer's type, which the SQL lowering keeps (the plan and DuckDB: DOUBLE).
     */
    private static final Map<String, List<String>> OTHER_TYPES = Map.of(
            "sign(i)", List.of("INTEGER", "INTEGER"), "sign(l)", List.of("INTEGER", "INTEGER"),
            "sign(m)", List.of("INTEGER", "INTEGER"), "sign(d)", List.of("INTEGER", "INTEGER"),
            "ceil(i)", List.of("DOUBLE", "INTEGER"), "ceil(l)", List.of("DOUBLE", "BIGINT"),
            "floor(i)", List.of("DOUBLE", "INTEGER"));

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
        StringBuilder select = new StringBuilder("SELECT id");
        List<Case> cases = cases();
        for (int c = 0; c < cases.size(); c++) {
            exprs.add(cases.get(c).expr().as("e" + c));
            select.append(", ").append(cases.get(c).sql());
        }
        String sql = select.append(" FROM r").append(where).append(" ORDER BY id").toString();
        List<List<Object>> expected = duck.query(sql).rows();
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        List<List<Object>> fromPlan = byId(troupe.execute(input.project(exprs.toArray(new Expr[0])), options).rows());
        List<List<Object>> fromSql = byId(troupe.sql(sql, options).rows());
        assertTrue(expected.size() > ROWS / 2, "rows: " + expected.size());
        assertNull(ResultComparator.compare(expected, fromPlan, true), () -> "plan at " + workers + " workers" + where);
        assertNull(ResultComparator.compare(expected, fromSql, true), () -> "SQL at " + workers + " workers" + where);
    }

    private static List<List<Object>> byId(List<List<Object>> rows) {
        List<List<Object>> sorted = new ArrayList<>(DuckDbOracle.normalise(rows));
        sorted.sort(Comparator.comparingLong(row -> (Long) row.get(0)));
        return sorted;
    }

    @Test
    void shouldTypeResultsAsDuckDbTypeofSays() throws Exception {
        List<Case> cases = cases();
        List<String> typeofs = cases.stream().map(c -> "typeof(" + c.sql() + ")").toList();
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
        assertEquals("TINYINT", duckTypes.get(cases.stream().map(Case::sql).toList().indexOf("sign(d)")));
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
                        "value out of range: underflow (10.0 ^ -400.0) in power(10, -400)", 0.0));
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

    @Test
    void shouldShowCallsAsTheyWereWrittenInExplain() {
        assertTrue(troupe.explainSql("SELECT SQRT(pos), Pow(b, 2) FROM r").contains("sqrt(r.pos) AS sqrt, pow(r.b, 2) AS pow"),
                troupe.explainSql("SELECT SQRT(pos), Pow(b, 2) FROM r"));
        String plan = troupe.explain(Plan.scan("r").project(call("CEILING", col("m")).as("c")));
        assertTrue(plan.contains("ceiling(m) AS c"), plan);
    }
}
