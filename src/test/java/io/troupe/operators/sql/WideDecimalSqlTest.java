package io.troupe.operators.sql;

import io.troupe.jdbc.TroupeDriver;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.table.DelimitedFileLoader;
import io.troupe.operators.table.DelimitedFileWriter;
import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DECIMALs of up to 38 digits in SQL against DuckDB, over a generated table of wide decimals (DECIMAL(38,2),
 * DECIMAL(25,5)) beside a narrow one (DECIMAL(15,2)), of either sign, one in ten NULL, some values repeated and some
 * of more than 18 digits: arithmetic and its result types, comparisons with each other and with literals, casts to
 * and from every numeric type and text, grouping, DISTINCT, joins, sorting, sum, avg, min, max, count(DISTINCT) and
 * window sums, at 0 and 2 workers. The edge values of each precision and the overflow errors are checked by hand.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class WideDecimalSqlTest {

    private static final List<String> MULTISETS = List.of(
            "SELECT id, a, b, c FROM money",
            "SELECT id, a + b, a - c, c - b, b * c, -a, -b, a + 1, 2 * b, a % c FROM money WHERE c <> 0",
            "SELECT id, a / c, b / 3, a * 1.5 FROM money WHERE c <> 0",
            "SELECT id FROM money WHERE a < b",
            "SELECT id FROM money WHERE a = c OR b >= a",
            "SELECT id FROM money WHERE a > 12345678901234567890.12",
            "SELECT id FROM money WHERE b BETWEEN -1000000000000.5 AND 99999999999999999999",
            "SELECT id, a = b, a <> c, c < a, b > 0 FROM money",
            "SELECT CAST(a AS DOUBLE), CAST(a AS VARCHAR), CAST(CAST(a AS VARCHAR) AS DECIMAL(38,2)) FROM money",
            "SELECT CAST(c AS DECIMAL(30,4)), CAST(b AS DECIMAL(38,1)), CAST(b AS DECIMAL(20,0)) FROM money",
            "SELECT CAST(c * 100 AS DECIMAL(25,0)), CAST(id AS DECIMAL(20,3)), CAST(CAST(id AS BIGINT) AS DECIMAL(38,0))"
                    + " FROM money",
            "SELECT CAST(CAST(id * 1.25 AS DOUBLE) AS DECIMAL(30,2)), CAST(b AS BOOLEAN) FROM money",
            "SELECT CAST(b / 100000 AS BIGINT) FROM money",
            "SELECT a, count(*) FROM money GROUP BY a",
            "SELECT DISTINCT b FROM money",
            "SELECT g, sum(a), sum(b), sum(c), avg(a), avg(c), min(a), max(a), min(b), max(b),"
                    + " count(DISTINCT a) FROM money GROUP BY g",
            "SELECT sum(a), sum(b), sum(c), min(a), max(b), avg(b) FROM money",
            "SELECT x.id, y.id FROM money x JOIN money y ON x.a = y.a",
            "SELECT x.id, y.id FROM money x JOIN money y ON x.b = y.c",
            "SELECT id, sum(a) OVER (PARTITION BY g ORDER BY id), min(b) OVER (PARTITION BY g),"
                    + " max(a) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),"
                    + " avg(a) OVER (PARTITION BY g) FROM money",
            // Not over a and b: DuckDB's common type of DECIMAL(38,2) and DECIMAL(25,5) is DECIMAL(38,2), which rounds
            // b; Troupe's keeps both scales' digits as PostgreSQL's numeric does, within 38.
            "SELECT id, greatest(b, c), least(a, c), coalesce(a, c), coalesce(b, c, 0) FROM money",
            "SELECT id, CASE WHEN id % 2 = 0 THEN a ELSE c END FROM money",
            "SELECT id, abs(a), sign(b), round(a, 1), round(a, -3), round(b), trunc(b, 2), trunc(a, -1), floor(b),"
                    + " ceil(b), ceil(a) FROM money",
            "SELECT g, round(sum(a), 1), abs(sum(b)), floor(sum(c)) FROM money GROUP BY g",
            // Not mod(a, b): DuckDB computes a DOUBLE where the common decimal of DECIMAL(38,2) and DECIMAL(25,5)
            // would pass 38 digits; Troupe's stays exact (DECIMAL(38,5)), as PostgreSQL's numeric would.
            "SELECT id, mod(a, c), mod(c, a), mod(b, c), mod(c, b) FROM money WHERE a <> 0 AND b <> 0 AND c <> 0",
            "SELECT a FROM money UNION SELECT b FROM money");

    private static final List<String> ORDERED = List.of(
            "SELECT id, a FROM money ORDER BY a DESC NULLS LAST, id LIMIT 50",
            "SELECT id, b FROM money ORDER BY b, id",
            "SELECT id, a, b FROM money ORDER BY a + b NULLS FIRST, id");

    private static SqlEngines engines;

    @BeforeAll
    static void start() throws Exception {
        engines = SqlEngines.over(List.of(money(26)));
    }

    @AfterAll
    static void stop() throws Exception {
        engines.close();
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        return engines.sameRowsTests(MULTISETS, ORDERED);
    }

    @Test
    void shouldHoldTheEdgeValuesOfEachPrecision() throws Exception {
        for (int p : new int[] {19, 20, 28, 37, 38}) {
            for (int s : new int[] {0, 2, p}) {
                String nines = "9".repeat(p - s) + (s == 0 ? "" : "." + "9".repeat(s));
                String type = "DECIMAL(" + p + "," + s + ")";
                for (String value : List.of(nines, "-" + nines)) {
                    String sql = "SELECT CAST('" + value + "' AS " + type + "), CAST(" + value + " AS " + type + ")";
                    assertEquals(engines.duckRows(sql), engines.troupeRows(sql), sql);
                }
            }
        }
        assertEquals(new BigDecimal("12345678901234567890.12"),
                engines.troupeValue("SELECT CAST(12345678901234567890.12 AS DECIMAL(38,2))"));
        assertEquals(new BigDecimal("99999999999999999999999999999999999999"),
                engines.troupeValue("SELECT CAST(99999999999999999999999999999999999999 AS DECIMAL(38,0)) * 1"));
    }

    @Test
    void shouldWriteAndLoadWideDecimalsAsDuckDbReadsThem(@TempDir Path dir) throws Exception {
        Table money = money(26);
        Path file = dir.resolve("money.tbl");
        DelimitedFileWriter.write(money, file);
        Table loaded = new DelimitedFileLoader(money.schema(), DelimitedFormat.tpc()).load(file, "money");
        List<List<Object>> expected = io.troupe.oracle.DuckDbOracle.normalise(
                new QueryResult(money.schema(), money.chunks()).rows());
        List<List<Object>> actual = io.troupe.oracle.DuckDbOracle.normalise(
                new QueryResult(loaded.schema(), loaded.chunks()).rows());
        assertEquals(expected, actual);
        List<List<Object>> duck = engines.duckRows("SELECT * FROM read_csv('" + file + "', delim='|', quote='',"
                + " escape='',"
                + " header=false, auto_detect=false, columns={'id': 'INTEGER', 'g': 'INTEGER', 'a': 'DECIMAL(38,2)',"
                + " 'b': 'DECIMAL(25,5)', 'c': 'DECIMAL(15,2)'})");
        assertEquals(expected, duck);
    }

    @Test
    void shouldReadWideDecimalsThroughJdbc() throws Exception {
        String sql = "SELECT a, b, sum(c) OVER () FROM money WHERE a IS NOT NULL AND b IS NOT NULL AND c IS NOT NULL"
                + " ORDER BY id";
        List<List<Object>> expected = engines.duckRows(sql);
        TroupeDriver.register("wide-decimals", engines.troupe());
        try (Connection c = DriverManager.getConnection("jdbc:troupe:wide-decimals");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertEquals(Types.DECIMAL, rs.getMetaData().getColumnType(1));
            assertEquals(38, rs.getMetaData().getPrecision(1));
            assertEquals(2, rs.getMetaData().getScale(1));
            for (List<Object> row : expected) {
                assertTrue(rs.next());
                for (int col = 0; col < 3; col++) {
                    BigDecimal value = rs.getBigDecimal(col + 1);
                    assertEquals(0, ((BigDecimal) row.get(col)).compareTo(value), sql + ": " + row);
                    assertEquals(value.toPlainString(), rs.getString(col + 1));
                }
                assertEquals(rs.getBigDecimal(2).scale(), 5, "a DECIMAL(25,5) keeps its scale");
            }
            assertFalse(rs.next());
        } finally {
            TroupeDriver.unregister("wide-decimals");
        }
    }

    @Test
    void shouldFailOverflowNamingTheValue() {
        engines.assertFails("SELECT round(CAST(99999999999999999999999999999999999999 AS DECIMAL(38,0)), -1)",
                "99999999999999999999999999999999999999 is out of range for type decimal(38,0)");
        engines.assertFails("SELECT CAST('99999999999999999999999999999999999999' AS DECIMAL(38,0)) + 1",
                "99999999999999999999999999999999999999 + 1");
        engines.assertFails("SELECT CAST('-99999999999999999999999999999999999999' AS DECIMAL(38,0)) - 1",
                "-99999999999999999999999999999999999999 - 1");
        engines.assertFails("SELECT CAST('12345678901234567890123' AS DECIMAL(38,0)) * CAST('12345678901234567890' AS DECIMAL(20,0))",
                "12345678901234567890123 * 12345678901234567890");
        engines.assertFails("SELECT CAST(CAST('100000000000000000000' AS DECIMAL(38,0)) AS DECIMAL(20,0))",
                "100000000000000000000");
        engines.assertFails("SELECT CAST(CAST('10000000000000000000' AS DECIMAL(38,0)) AS BIGINT)", "10000000000000000000");
        engines.assertFails("SELECT CAST('1e40' AS DECIMAL(38,0))", "1e40");
        engines.assertFails("SELECT CAST(1e40 AS DECIMAL(38,0))", "1.0E40");
        engines.assertFails("SELECT sum(x) FROM (VALUES (CAST('90000000000000000000000000000000000000' AS DECIMAL(38,0))),"
                + " (CAST('90000000000000000000000000000000000000' AS DECIMAL(38,0)))) v(x)", "sum");
        engines.assertFails("SELECT CAST('999999999999999999' AS DECIMAL(18,0)) * CAST(10 AS DECIMAL(2,0))", "overflow");
    }

    @Test
    void shouldTypeAsDuckDbDoes() throws Exception {
        for (String e : List.of("a + b", "b * c", "c * CAST(1 AS DECIMAL(5,2))", "c + c", "a % c", "a / c",
                "-a", "sum(a)", "sum(c)", "avg(a)", "min(b)", "max(c)", "b - c")) {
            String sql = "SELECT " + e + " FROM money WHERE c <> 0" + (e.contains("(") ? "" : " LIMIT 1");
            assertEquals(engines.duckType(sql), engines.troupeType(sql), sql);
        }
        for (String e : List.of("CAST(1.5 AS DECIMAL(15,2)) * CAST(2.5 AS DECIMAL(15,2))",
                "CAST(1.5 AS DECIMAL(17,2)) + CAST(2.5 AS DECIMAL(18,2))",
                "CAST(1.5 AS DECIMAL(20,2)) * CAST(2.5 AS DECIMAL(10,1))",
                "CAST(1 AS DECIMAL(38,0)) * CAST(2 AS DECIMAL(1,0))",
                "CAST(2 AS BIGINT) + CAST(1.5 AS DECIMAL(15,2))",
                "CAST(2 AS BIGINT) * CAST(1.5 AS DECIMAL(15,2))",
                "CAST(1.5 AS DECIMAL(25,2)) % CAST(2.5 AS DECIMAL(15,2))",
                "12345678901234567890.12")) {
            String sql = "SELECT " + e;
            assertEquals(engines.duckRows(sql), engines.troupeRows(sql), sql);
            assertEquals(engines.duckType(sql), engines.troupeType(sql), sql);
        }
    }

    /**
     * 300 rows: a of up to 24 digits (DECIMAL(38,2)), b of up to 20 (DECIMAL(25,5)), c of up to 15 (DECIMAL(15,2)),
     * of either sign, one in ten NULL, a fifth of a's values from a short list so that they group and join; g a group.
     */
    static Table money(long seed) {
        Random random = new Random(seed);
        TableBuilder t = new TableBuilder("money", Schema.of(
                new Field(null, "id", DataType.INT32, false),
                Field.of("g", DataType.INT32),
                Field.of("a", DataType.decimal(38, 2)),
                Field.of("b", DataType.decimal(25, 5)),
                Field.of("c", DataType.decimal(15, 2))), 64);
        List<BigDecimal> repeated = List.of(new BigDecimal("123456789012345678901.25"), new BigDecimal("-0.50"),
                new BigDecimal("1.00"), new BigDecimal("999999999999999999.99"));
        for (int id = 0; id < 300; id++) {
            BigDecimal a = random.nextInt(5) == 0 ? repeated.get(random.nextInt(repeated.size()))
                    : decimal(random, 1 + random.nextInt(24), 2);
            BigDecimal b = random.nextInt(8) == 0 && a.abs().compareTo(BigDecimal.TEN.pow(20)) < 0 ? a.setScale(5)
                    : decimal(random, 1 + random.nextInt(20), 5);
            BigDecimal c = decimal(random, 1 + random.nextInt(15), 2);
            t.addRow(id, random.nextInt(7), maybe(random, a), maybe(random, b), maybe(random, c));
        }
        return t.build();
    }

    /** A value of {@code digits} digits in all at {@code scale}, of either sign; at most {@code digits - scale} before the point. */
    private static BigDecimal decimal(Random random, int digits, int scale) {
        BigInteger unscaled = new BigInteger(digits * 4, random).mod(BigInteger.TEN.pow(digits));
        BigDecimal v = new BigDecimal(unscaled, scale);
        return random.nextBoolean() ? v.negate() : v;
    }

    private static Object maybe(Random random, Object value) {
        return random.nextInt(10) == 0 ? null : value;
    }
}
