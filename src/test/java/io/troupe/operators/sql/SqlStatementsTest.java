package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.QueryStream;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.TroupeException;
import io.troupe.operators.exec.QueryResult;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CREATE TABLE [AS], INSERT, DROP TABLE, COPY and VALUES through {@code troupe.sql}, each statement run on DuckDB as
 * well and the tables then compared row for row; the update counts compared too. The inserted values are random
 * (seeded), NULLs among them, of every literal kind into every column type, so that the casts are checked against
 * DuckDB's. Then the errors: each names what is wrong and where.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SqlStatementsTest {

    private Troupe troupe;
    private Connection duck;

    @BeforeEach
    void start() throws Exception {
        troupe = Troupe.start(TroupeSettings.load());
        duck = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterEach
    void stop() throws Exception {
        troupe.close();
        duck.close();
    }

    /**
     * Runs {@code sql} on both engines; their update counts must agree where DuckDB gives one (INSERT, COPY; its
     * CREATE and DROP give -1: Troupe's are 0, and CREATE TABLE AS's the rows of the table made).
     */
    private void both(String sql, int workers) throws Exception {
        QueryResult result = troupe.sql(sql, QueryOptions.defaults().withWorkers(workers));
        long expected;
        try (Statement s = duck.createStatement()) {
            expected = s.executeUpdate(sql);
        }
        if (expected < 0) {
            String name = sql.split("\\s+")[2];
            expected = sql.contains(" AS SELECT ") ? troupe.catalog().table(name).rowCount() : 0;
        }
        assertEquals(expected, result.updateCount().orElseThrow(), sql);
    }

    /** The query's rows on both engines, as multisets. */
    private void sameRows(String query, int workers) throws Exception {
        List<List<Object>> expected = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(query)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                Object[] row = new Object[md.getColumnCount()];
                for (int c = 0; c < row.length; c++) {
                    row[c] = rs.getObject(c + 1);
                }
                expected.add(Arrays.asList(row));
            }
        }
        List<List<Object>> actual = troupe.sql(query, QueryOptions.defaults().withWorkers(workers)).rows();
        assertNull(ResultComparator.compare(DuckDbOracle.normalise(expected), DuckDbOracle.normalise(actual), false),
                query);
    }

    private static String literal(Random random, String kind) {
        if (random.nextInt(6) == 0) {
            return "NULL";
        }
        return switch (kind) {
            case "int" -> String.valueOf(random.nextInt(2001) - 1000);
            case "decimal" -> (random.nextInt(200001) - 100000) / 100 + "." + random.nextInt(10) + "5";
            case "double" -> random.nextInt(1000) + ".25e" + random.nextInt(3);
            case "date" -> "'2024-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10) + "'";
            case "bool" -> random.nextBoolean() ? "TRUE" : "false";
            default -> "'s" + random.nextInt(50) + (random.nextInt(5) == 0 ? " it''s" : "") + "'";
        };
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void shouldAgreeWithDuckDbOnCreateInsertSelectAndDrop(int workers) throws Exception {
        both("CREATE TABLE t (a INTEGER NOT NULL, b VARCHAR(10), c DECIMAL(10,2), d DOUBLE, e DATE, f BOOLEAN, "
                + "g BIGINT)", workers);
        Random random = new Random(11 + workers);
        String[] kinds = {"int", "text", "decimal", "double", "date", "bool", "int"};
        for (int statement = 0; statement < 30; statement++) {
            StringBuilder sql = new StringBuilder("INSERT INTO t VALUES ");
            int rows = 1 + random.nextInt(4);
            for (int r = 0; r < rows; r++) {
                sql.append(r == 0 ? "(" : ", (").append(random.nextInt(100) - 50);
                for (int c = 1; c < kinds.length; c++) {
                    sql.append(", ").append(literal(random, kinds[c]));
                }
                sql.append(')');
            }
            both(sql.toString(), workers);
        }
        // Numbers into other number columns (a decimal rounds into an integer), text into dates, columns left out.
        both("INSERT INTO t (g, a, c, d) VALUES (2.5, -3.5, 7, 12), (-2.5, 4.49, -1.005, 1.5)", workers);
        both("INSERT INTO t (a, e) VALUES (1, '2023-12-31'), (2, DATE '2020-02-29')", workers);
        both("INSERT INTO t (a, b, g) VALUES (1 + 2, upper('x'), 10 * 3)", workers);
        sameRows("SELECT * FROM t", workers);
        both("INSERT INTO t SELECT a + 100, b, c * 2, d, e, f, g FROM t WHERE a > 0", workers);
        both("INSERT INTO t (a, b) SELECT x, y FROM (VALUES (7, 'seven'), (8, NULL)) AS v(x, y)", workers);
        sameRows("SELECT * FROM t", workers);
        both("CREATE TABLE s AS SELECT b, count(*) AS n, sum(c) AS total, min(e) AS first FROM t GROUP BY b", workers);
        sameRows("SELECT * FROM s", workers);
        both("CREATE TABLE nothing AS SELECT * FROM t WHERE a > 100000", workers);
        sameRows("SELECT count(*) FROM nothing", workers);
        both("INSERT INTO nothing SELECT * FROM t", workers);
        sameRows("SELECT * FROM nothing", workers);
        both("DROP TABLE s", workers);
        both("DROP TABLE IF EXISTS s", workers);
        both("CREATE TABLE IF NOT EXISTS t (x INTEGER)", workers);
        sameRows("SELECT * FROM t", workers);
        assertTrue(!troupe.catalog().contains("s"));
        // The statistics follow the table: its row count after every insert.
        assertEquals(troupe.catalog().table("t").rowCount(), troupe.analyze("t").rowCount());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void shouldRunValuesAndSelectWithoutFromAsDuckDbDoes(int workers) throws Exception {
        sameRows("SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, NULL)) AS t(x, y)", workers);
        sameRows("SELECT 1 + 2, 'x', CAST(NULL AS INTEGER)", workers);
        sameRows("SELECT NULLIF(CAST(NULL AS DOUBLE), 84 - AVG(21)) c1, 54 AS c1", workers);
        sameRows("SELECT y, sum(x), count(*) FROM (VALUES (1, 'a'), (2, 'b'), (3, 'a'), (4.5, NULL)) AS t(x, y) "
                + "GROUP BY y", workers);
        sameRows("VALUES (1, DATE '2024-01-01', TRUE), (2, DATE '2024-02-01', NULL)", workers);
        both("CREATE TABLE k (id INTEGER, name VARCHAR)", workers);
        both("INSERT INTO k VALUES (1, 'one'), (2, 'two'), (3, 'three')", workers);
        sameRows("SELECT k.name, v.w FROM k JOIN (VALUES (1, 'x'), (3, 'z'), (5, 'q')) AS v(id, w) ON k.id = v.id",
                workers);
        sameRows("SELECT id FROM k WHERE id IN (SELECT * FROM (VALUES (2), (3)) AS v(x))", workers);
    }

    @Test
    void shouldCopyADelimitedFileAsDuckDbDoes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("people.csv");
        Files.writeString(file,
                "id|name|born|score\n1|ann|1990-01-02|1.50\n2|\"b|o\"|1985-12-31|\n3||2001-07-04|-2.25\n");
        both("CREATE TABLE people (id INTEGER NOT NULL, name VARCHAR, born DATE, score DECIMAL(6,2))", 2);
        both("COPY people FROM '" + file + "' (HEADER, DELIMITER '|')", 2);
        both("COPY people FROM '" + file + "' (HEADER true, DELIMITER '|')", 0);
        sameRows("SELECT * FROM people", 2);
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "1,ann,1990-01-02,1.50\n2,bob,1990-13-45,2\n");
        TroupeException e = assertThrows(TroupeException.class, () -> troupe.sql("COPY people FROM '" + bad + "'"));
        assertTrue(e.getMessage().startsWith(bad + ":2: column 3 (born DATE)"), e.getMessage());
        assertEquals(6, troupe.catalog().table("people").rowCount(), "a failed COPY stores nothing");
    }

    @Test
    void shouldNameTheRowAndColumnOfAValueThatDoesNotFit() {
        troupe.sql("CREATE TABLE t (a INTEGER NOT NULL, b DATE, c DECIMAL(4,1))");
        SqlException text = assertThrows(SqlException.class,
                () -> troupe.sql("INSERT INTO t VALUES (1, NULL, 1), (2, '2024-01-01', 2), ('abc', NULL, 3)"));
        assertEquals("INSERT INTO t, row 3, column a (INTEGER): 'abc' is not an INTEGER", text.getMessage());
        assertEquals(SqlException.Kind.VALUE, text.kind());
        assertEquals("INSERT INTO t, row 2, column a (INTEGER NOT NULL): NULL in a NOT NULL column",
                assertThrows(SqlException.class, () -> troupe.sql("INSERT INTO t VALUES (1, NULL, 1), (NULL, NULL, 2)"))
                        .getMessage());
        assertEquals("INSERT INTO t, row 1, column a (INTEGER NOT NULL): NULL in a NOT NULL column",
                assertThrows(SqlException.class, () -> troupe.sql("INSERT INTO t (b) VALUES (NULL)")).getMessage());
        assertEquals("INSERT INTO t, row 1, column b (DATE): '2024-13-01' is not a DATE (yyyy-mm-dd)",
                assertThrows(SqlException.class, () -> troupe.sql("INSERT INTO t VALUES (1, '2024-13-01', 1)"))
                        .getMessage());
        assertEquals("INSERT INTO t, row 1, column c (DECIMAL(4,1)): 1234.5 has more digits before the point than "
                        + "DECIMAL(4,1) holds",
                assertThrows(SqlException.class, () -> troupe.sql("INSERT INTO t VALUES (1, NULL, 1234.5)"))
                        .getMessage());
        assertEquals("INSERT INTO t, row 1, column a (INTEGER): 3000000000 is out of the range of INTEGER",
                assertThrows(SqlException.class, () -> troupe.sql("INSERT INTO t (a) VALUES (3000000000)"))
                        .getMessage());
        assertEquals("INSERT INTO t, row 1: 2 values for 3 columns",
                assertThrows(SqlException.class, () -> troupe.sql("INSERT INTO t VALUES (1, NULL)")).getMessage());
        assertEquals(0, troupe.catalog().table("t").rowCount(), "a failed INSERT stores nothing");
    }

    @Test
    void shouldRefuseUnknownTypesDuplicateTablesAndMissingOnes() {
        SqlException type = assertThrows(SqlException.class,
                () -> troupe.sql("CREATE TABLE t (a INTEGER,\n  b GEOMETRY)"));
        assertEquals("unsupported in SQL: type GEOMETRY (Troupe's column types: INTEGER, BIGINT, DOUBLE, "
                + "DECIMAL(p,s) up to 18 digits, VARCHAR, DATE, BOOLEAN, TIMESTAMP [WITH TIME ZONE], TIME, INTERVAL, "
                + "UUID, BLOB) at line 2, column 5\n"
                + "    b GEOMETRY)\n"
                + "      ^", type.getMessage());
        assertEquals(SqlException.Kind.UNSUPPORTED, type.kind());
        assertEquals("syntax error: expected a column type but found ')' at line 1, column 18\n"
                + "  CREATE TABLE t (a)\n"
                + "                   ^",
                assertThrows(SqlException.class, () -> troupe.sql("CREATE TABLE t (a)")).getMessage());
        assertEquals(SqlException.Kind.UNSUPPORTED, assertThrows(SqlException.class,
                () -> troupe.sql("CREATE TABLE t (a INTEGER PRIMARY KEY)")).kind());
        troupe.sql("CREATE TABLE t (a INTEGER)");
        SqlException duplicate = assertThrows(SqlException.class, () -> troupe.sql("CREATE TABLE T (b DATE)"));
        assertEquals("CREATE TABLE: table 'T' already exists (DROP TABLE it first, or write CREATE TABLE IF NOT "
                + "EXISTS)", duplicate.getMessage());
        assertEquals(SqlException.Kind.DUPLICATE_TABLE, duplicate.kind());
        assertEquals(SqlException.Kind.DUPLICATE_TABLE, assertThrows(SqlException.class,
                () -> troupe.sql("CREATE TABLE t AS SELECT 1 AS x")).kind());
        SqlException drop = assertThrows(SqlException.class, () -> troupe.sql("DROP TABLE u"));
        assertEquals("DROP TABLE: unknown table 'u'; known tables: t", drop.getMessage());
        assertEquals(SqlException.Kind.UNKNOWN_TABLE, drop.kind());
        assertEquals("unknown table 'u' at line 1, column 13\n  INSERT INTO u VALUES (1)\n              ^",
                assertThrows(SqlException.class, () -> troupe.sql("INSERT INTO u VALUES (1)")).getMessage());
        assertEquals(SqlException.Kind.UNKNOWN_COLUMN, assertThrows(SqlException.class,
                () -> troupe.sql("INSERT INTO t (zz) VALUES (1)")).kind());
        // A query inside keeps the whole statement's positions.
        SqlException inner = assertThrows(SqlException.class,
                () -> troupe.sql("CREATE TABLE v AS\nSELECT nope FROM t"));
        assertEquals(2, inner.line());
        assertEquals(8, inner.column());
        assertEquals(SqlException.Kind.UNKNOWN_COLUMN, assertThrows(SqlException.class,
                () -> troupe.sql("INSERT INTO t SELECT nope FROM t")).kind());
    }

    /** ANALYZE reads a table's statistics now; an INSERT drops them, to be read again over the new rows. */
    @Test
    void shouldAnalyzeATableByName() {
        troupe.sql("CREATE TABLE s AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (2, NULL)) AS v(x, y)");
        assertEquals(OptionalLong.of(0), troupe.sql("ANALYZE s").updateCount());
        assertEquals(3, troupe.catalog().statistics("s").rowCount());
        troupe.sql("INSERT INTO s VALUES (3, 'c')");
        assertEquals(OptionalLong.of(0), troupe.sql("analyze table S;").updateCount());
        assertEquals(4, troupe.catalog().statistics("s").rowCount());
        SqlException unknown = assertThrows(SqlException.class, () -> troupe.sql("ANALYZE nope"));
        assertEquals(SqlException.Kind.UNKNOWN_TABLE, unknown.kind());
        assertEquals("syntax error: expected a table name but found the end of the statement at line 1, column 8\n  ANALYZE\n"
                + "         ^", assertThrows(SqlException.class, () -> troupe.sql("ANALYZE")).getMessage());
    }

    @Test
    void shouldKeepEveryRowOfInsertsRacingIntoOneTable() throws Exception {
        troupe.sql("CREATE TABLE t (thread INTEGER, i INTEGER)");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> inserts = new ArrayList<>();
            for (int thread = 0; thread < 2; thread++) {
                int t = thread;
                inserts.add(pool.submit(() -> {
                    for (int i = 0; i < 150; i++) {
                        troupe.sql("INSERT INTO t VALUES (" + t + ", " + i + ")");
                    }
                }));
            }
            for (Future<?> f : inserts) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of(List.of(0, 150L, 11175L), List.of(1, 150L, 11175L)),
                troupe.sql("SELECT thread, count(*), sum(i) FROM t GROUP BY thread ORDER BY thread").rows());
    }

    @Test
    void shouldLetARunningQueryReadTheTableItStartedWith() throws Exception {
        troupe.sql("CREATE TABLE t (i INTEGER)");
        troupe.sql("INSERT INTO t VALUES (1), (2)");
        QueryOptions leader = QueryOptions.defaults().withWorkers(0);
        try (QueryStream rows = troupe.stream(troupe.planSql("SELECT i FROM t"), leader)) {
            troupe.sql("INSERT INTO t VALUES (3)");
            troupe.sql("DROP TABLE t");
            assertEquals(2, rows.remaining().rowCount());
        }
    }
}
