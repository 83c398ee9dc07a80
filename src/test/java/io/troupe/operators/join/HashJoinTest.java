package io.troupe.operators.join;

import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static io.troupe.operators.plan.Expr.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hash joins of every type, run through the {@link Troupe} facade and compared with DuckDB over
 * the same data as multisets of rows: duplicates and NULL keys on both sides, every key path (the
 * fast numeric path and the generic one), batch sizes 1, 3 and 2048, both match-flag settings.
 */
class HashJoinTest {

    private static final Schema SCHEMA = Schema.of(
            Field.of("k", DataType.INT32),
            Field.of("s", DataType.VARCHAR),
            Field.of("d", DataType.decimal(9, 2)),
            Field.of("dt", DataType.DATE),
            Field.of("x", DataType.FLOAT64),
            Field.of("b", DataType.BOOLEAN),
            Field.of("v", DataType.INT64));
    private static final String DUCK_COLUMNS =
            "(k INTEGER, s VARCHAR, d DECIMAL(9,2), dt DATE, x DOUBLE, b BOOLEAN, v BIGINT)";
    private static final int[] BATCH_SIZES = {1, 3, 2048};
    /** Rows per table chunk: small, so the scans hand the join several batches. */
    private static final int CHUNK_ROWS = 17;

    private static Connection duck;
    private static final List<Table> TABLES = new ArrayList<>();

    @BeforeAll
    static void load() throws SQLException {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        Random random = new Random(20240611);
        // l and r: duplicates on both sides (keys drawn from a small range), NULLs in every column.
        create("l", rows(random, 150));
        create("r", rows(random, 110));
        create("e", List.of());
    }

    @AfterAll
    static void close() throws SQLException {
        duck.close();
    }

    private static List<Object[]> rows(Random random, int count) {
        String[] strings = {"a", "b", "c", "é", "", "bb"};
        BigDecimal[] decimals = {new BigDecimal("1.50"), new BigDecimal("2.25"), new BigDecimal("-3.00"),
            new BigDecimal("0.00")};
        double[] doubles = {0.0, -0.0, 1.5, -2.5, 1e10};
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(new Object[] {
                maybeNull(random, random.nextInt(14)),
                maybeNull(random, strings[random.nextInt(strings.length)]),
                maybeNull(random, decimals[random.nextInt(decimals.length)]),
                maybeNull(random, LocalDate.of(2024, 1, 1).plusDays(random.nextInt(6) * 100L - 250)),
                maybeNull(random, doubles[random.nextInt(doubles.length)]),
                maybeNull(random, random.nextBoolean()),
                maybeNull(random, (long) random.nextInt(9) - 4 + (random.nextBoolean() ? 0 : 1L << 40)),
            });
        }
        return rows;
    }

    private static Object maybeNull(Random random, Object value) {
        return random.nextInt(10) == 0 ? null : value;
    }

    private static void create(String name, List<Object[]> rows) throws SQLException {
        TableBuilder builder = new TableBuilder(name, SCHEMA, CHUNK_ROWS);
        try (Statement st = duck.createStatement()) {
            st.execute("CREATE TABLE " + name + " " + DUCK_COLUMNS);
        }
        String sql = "INSERT INTO " + name + " VALUES (?, ?, ?, ?, ?, ?, ?)";
        try (PreparedStatement insert = duck.prepareStatement(sql)) {
            for (Object[] row : rows) {
                builder.addRow(row);
                for (int c = 0; c < row.length; c++) {
                    insert.setObject(c + 1, row[c]);
                }
                insert.executeUpdate();
            }
        }
        TABLES.add(builder.build());
    }

    // ------------------------------------------------------------------ the key configurations

    /** A join condition in both dialects. */
    private record Keys(String name, Expr on, String sql) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Keys keys(String name) {
        return switch (name) {
            case "int32" -> new Keys(name, col("a.k").eq(col("c.k")), "a.k = c.k");
            case "int32+varchar" -> new Keys(name, col("a.k").eq(col("c.k")).and(col("c.s").eq(col("a.s"))),
                    "a.k = c.k AND c.s = a.s");
            case "decimal" -> new Keys(name, col("a.d").eq(col("c.d")), "a.d = c.d");
            case "date" -> new Keys(name, col("a.dt").eq(col("c.dt")), "a.dt = c.dt");
            case "int64" -> new Keys(name, col("a.v").eq(col("c.v")), "a.v = c.v");
            case "varchar" -> new Keys(name, col("a.s").eq(col("c.s")), "a.s = c.s");
            case "float64" -> new Keys(name, col("a.x").eq(col("c.x")), "a.x = c.x");
            case "boolean+date" -> new Keys(name, col("a.b").eq(col("c.b")).and(col("a.dt").eq(col("c.dt"))),
                    "a.b = c.b AND a.dt = c.dt");
            // A residual: the pairs of equal keys must pass it too (NULLs in it refuse the pair).
            case "int32+residual" -> new Keys(name, col("a.k").eq(col("c.k")).and(col("a.v").lt(col("c.v"))),
                    "a.k = c.k AND a.v < c.v");
            case "varchar+residual" -> new Keys(name, col("a.s").eq(col("c.s")).and(col("c.d").ne(col("a.d"))
                    .or(col("a.b"))), "a.s = c.s AND (c.d <> a.d OR a.b)");
            // No key but a constant: every pair is a candidate, the residual decides (a nested loop).
            case "constant+residual" -> new Keys(name, Expr.lit(0).eq(Expr.lit(0)).and(col("a.k").lt(col("c.k"))),
                    "0 = 0 AND a.k < c.k");
            default -> throw new IllegalArgumentException(name);
        };
    }

    static Stream<Arguments> typesAndKeys() {
        List<Arguments> out = new ArrayList<>();
        for (JoinType type : JoinType.values()) {
            for (String k : List.of("int32", "int32+varchar", "decimal", "date", "int64", "varchar", "float64",
                    "boolean+date", "int32+residual", "varchar+residual", "constant+residual")) {
                out.add(Arguments.of(type, k));
            }
        }
        return out.stream();
    }

    /** DuckDB's spelling of {@code left JOIN right ON condition} with the output our plan gives. */
    private static String duckSql(JoinType type, String left, String right, String on) {
        String from = left + " AS a";
        return switch (type) {
            case INNER -> "SELECT a.*, c.* FROM " + from + " JOIN " + right + " AS c ON " + on;
            case LEFT -> "SELECT a.*, c.* FROM " + from + " LEFT OUTER JOIN " + right + " AS c ON " + on;
            case RIGHT -> "SELECT a.*, c.* FROM " + from + " RIGHT OUTER JOIN " + right + " AS c ON " + on;
            case FULL -> "SELECT a.*, c.* FROM " + from + " FULL OUTER JOIN " + right + " AS c ON " + on;
            case SEMI -> "SELECT a.* FROM " + from + " WHERE EXISTS (SELECT 1 FROM " + right + " AS c WHERE " + on
                    + ")";
            case ANTI -> "SELECT a.* FROM " + from + " WHERE NOT EXISTS (SELECT 1 FROM " + right + " AS c WHERE "
                    + on + ")";
            case RIGHT_SEMI -> "SELECT c.* FROM " + right + " AS c WHERE EXISTS (SELECT 1 FROM " + from + " WHERE "
                    + on + ")";
            case RIGHT_ANTI -> "SELECT c.* FROM " + right + " AS c WHERE NOT EXISTS (SELECT 1 FROM " + from
                    + " WHERE " + on + ")";
        };
    }

    // ------------------------------------------------------------------ tests

    @ParameterizedTest(name = "{0} join on {1}")
    @MethodSource("typesAndKeys")
    void shouldMatchDuckDb(JoinType type, String keyName) throws SQLException {
        Keys k = keys(keyName);
        List<String> expected = duck(duckSql(type, "l", "r", k.sql()));
        // r's rows that no l row matches are few; every other join has many rows.
        int enough = type == JoinType.RIGHT_ANTI ? 3 : 10;
        assertTrue(expected.size() > enough, "the data should give this join rows to compare: " + expected.size());
        for (TroupeSettings.MatchFlags flags : TroupeSettings.MatchFlags.values()) {
            for (int batchSize : BATCH_SIZES) {
                Plan plan = Plan.scan("l").as("a").join(Plan.scan("r").as("c"), type, k.on());
                // Joined rows come in batches of the configured size; SEMI and ANTI narrow their input batches.
                int maxBatchRows = type.emitsRight() ? batchSize : CHUNK_ROWS;
                assertEquals(expected, troupe(plan, batchSize, flags, maxBatchRows),
                        type + " join on " + k + ", batch size " + batchSize + ", " + flags);
            }
        }
    }

    @ParameterizedTest(name = "{0} join, empty left")
    @EnumSource(JoinType.class)
    void shouldJoinEmptyLeftInput(JoinType type) throws SQLException {
        for (String keyName : List.of("int32", "int32+varchar")) {
            Keys k = keys(keyName);
            List<String> expected = duck(duckSql(type, "e", "r", k.sql()));
            for (int batchSize : BATCH_SIZES) {
                Plan plan = Plan.scan("e").as("a").join(Plan.scan("r").as("c"), type, k.on());
                assertEquals(expected, troupe(plan, batchSize, TroupeSettings.MatchFlags.CHECK_BEFORE_WRITE));
            }
        }
    }

    @ParameterizedTest(name = "{0} join, empty right")
    @EnumSource(JoinType.class)
    void shouldJoinEmptyRightInput(JoinType type) throws SQLException {
        for (String keyName : List.of("int32", "int32+varchar")) {
            Keys k = keys(keyName);
            List<String> expected = duck(duckSql(type, "l", "e", k.sql()));
            for (int batchSize : BATCH_SIZES) {
                Plan plan = Plan.scan("l").as("a").join(Plan.scan("e").as("c"), type, k.on());
                assertEquals(expected, troupe(plan, batchSize, TroupeSettings.MatchFlags.CHECK_BEFORE_WRITE));
            }
        }
    }

    /** Below a union the probe runs in two branches; the unmatched build rows come once, at the end. */
    @ParameterizedTest(name = "{0} join over a union")
    @EnumSource(value = JoinType.class, names = {"RIGHT", "FULL", "ANTI", "RIGHT_SEMI", "RIGHT_ANTI"})
    void shouldProbeFromEveryBranchOfAUnion(JoinType type) throws SQLException {
        Keys k = keys("int32");
        String unionSql = "(SELECT * FROM l UNION ALL SELECT * FROM e UNION ALL SELECT * FROM r)";
        List<String> expected = duck(duckSql(type, unionSql, "l", k.sql()));
        Plan union = Plan.scan("l").unionAll(Plan.scan("e")).unionAll(Plan.scan("r"));
        Plan plan = union.as("a").join(Plan.scan("l").as("c"), type, k.on());
        for (int batchSize : BATCH_SIZES) {
            assertEquals(expected, troupe(plan, batchSize, TroupeSettings.MatchFlags.CHECK_BEFORE_WRITE));
        }
    }

    /** A join's output probing another table, and a join as another join's build side. */
    @Test
    void shouldNestJoins() throws SQLException {
        Plan probeSide = Plan.scan("l").as("a")
                .join(Plan.scan("r").as("c"), JoinType.INNER, col("a.k").eq(col("c.k")))
                .join(Plan.scan("l").as("x"), JoinType.LEFT, col("c.dt").eq(col("x.dt")));
        Plan buildSide = Plan.scan("l").as("a")
                .join(Plan.scan("r").as("c").join(Plan.scan("l").as("x"), JoinType.FULL, col("c.v").eq(col("x.v"))),
                        JoinType.RIGHT, col("a.d").eq(col("c.d")).and(col("x.k").eq(col("a.k"))));
        List<String> expectedProbe = duck("SELECT a.*, c.*, x.* FROM l AS a JOIN r AS c ON a.k = c.k"
                + " LEFT OUTER JOIN l AS x ON c.dt = x.dt");
        List<String> expectedBuild = duck("SELECT a.*, c.*, x.* FROM l AS a RIGHT OUTER JOIN"
                + " (r AS c FULL OUTER JOIN l AS x ON c.v = x.v) ON a.d = c.d AND x.k = a.k");
        assertTrue(expectedProbe.size() > 1000 && expectedBuild.size() > 1000,
                expectedProbe.size() + " and " + expectedBuild.size() + " rows");
        for (int batchSize : BATCH_SIZES) {
            assertEquals(expectedProbe, troupe(probeSide, batchSize, TroupeSettings.MatchFlags.CHECK_BEFORE_WRITE));
            assertEquals(expectedBuild, troupe(buildSide, batchSize, TroupeSettings.MatchFlags.ALWAYS_WRITE));
        }
    }

    @Test
    void shouldStopProbingWhenALimitIsReached() {
        Plan plan = Plan.scan("l").as("a").join(Plan.scan("r").as("c"), JoinType.FULL, keys("int32").on()).limit(5);
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(2))) {
            TABLES.forEach(troupe::register);
            assertEquals(5, troupe.execute(plan).rowCount());
        }
    }

    @Test
    void shouldPutLeftColumnsBeforeRightColumns() {
        Plan plan = Plan.scan("l").as("a").join(Plan.scan("r").as("c"), JoinType.INNER, keys("int32").on());
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0))) {
            TABLES.forEach(troupe::register);
            QueryResult result = troupe.execute(plan);
            assertEquals("a.k", result.schema().field(0).qualifiedName());
            assertEquals("c.k", result.schema().field(SCHEMA.size()).qualifiedName());
            assertEquals(SCHEMA.size() * 2, result.schema().size());
        }
    }

    @Test
    void shouldRejectKeysOfDifferentTypes() {
        Plan plan = Plan.scan("l").as("a").join(Plan.scan("r").as("c"), JoinType.INNER, col("a.k").eq(col("c.v")));
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0))) {
            TABLES.forEach(troupe::register);
            PlanException e = assertThrows(PlanException.class, () -> troupe.execute(plan));
            assertEquals("join keys of (a.k = c.v) differ in type: INT32 and INT64; cast one side"
                    + " (in Hash Join INNER on (a.k = c.v))", e.getMessage());
        }
    }

    // ------------------------------------------------------------------ helpers

    private static List<String> troupe(Plan plan, int batchSize, TroupeSettings.MatchFlags flags) {
        return troupe(plan, batchSize, flags, Integer.MAX_VALUE);
    }

    /** The rows of {@code plan}, sorted; fails when a result batch is larger than {@code maxBatchRows}. */
    private static List<String> troupe(Plan plan, int batchSize, TroupeSettings.MatchFlags flags, int maxBatchRows) {
        try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(batchSize).withMatchFlags(flags))) {
            TABLES.forEach(troupe::register);
            QueryResult result = troupe.execute(plan);
            for (Batch batch : result.batches()) {
                assertTrue(batch.size() <= maxBatchRows, "batch of " + batch.size() + " rows");
            }
            List<String> rows = new ArrayList<>();
            for (List<Object> row : result.rows()) {
                List<String> cells = new ArrayList<>();
                for (Object v : row) {
                    cells.add(text(v));
                }
                rows.add(String.join(" | ", cells));
            }
            Collections.sort(rows);
            return rows;
        }
    }

    private static List<String> duck(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> cells = new ArrayList<>();
                for (int c = 1; c <= columns; c++) {
                    cells.add(text(rs.getObject(c)));
                }
                rows.add(String.join(" | ", cells));
            }
        }
        Collections.sort(rows);
        return rows;
    }

    private static String text(Object v) {
        if (v == null) {
            return "NULL";
        } else if (v instanceof BigDecimal d) {
            return d.toPlainString();
        } else if (v instanceof java.sql.Date d) {
            return d.toLocalDate().toString();
        }
        return v.toString();
    }
}
