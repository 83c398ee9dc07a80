package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.operators.exec.QueryResult;
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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BLOB in SQL against DuckDB over generated tables of byte strings (empty ones, zero bytes, bytes from 0x80, values
 * that are prefixes of others, a pool small enough to repeat, one in ten NULL): casts from text, comparisons (unsigned
 * bytes), ORDER BY, GROUP BY, DISTINCT, joins on BLOB keys, min/max, count(DISTINCT), ||, the functions, each at 1
 * and 2 workers. Where Troupe follows PostgreSQL and DuckDB differs, DuckDB's statement says the same in its words:
 * a BLOB's text is PostgreSQL's hex form ({@code '\x' || lower(hex(b))} in DuckDB), text cast to a BLOB is its UTF-8
 * bytes (DuckDB refuses a character past ASCII there: its {@code encode(t)}), {@code encode(b, 'hex')} is
 * DuckDB's {@code lower(hex(b))}, {@code encode(b, 'base64')} its {@code to_base64(b)} (the values are shorter than
 * PostgreSQL's 76-character lines), {@code length} and {@code substring} of a BLOB count bytes (DuckDB's {@code
 * octet_length}, and its substring of the text a BLOB's bytes are here). What DuckDB lacks (get_byte, the escape
 * form, decode) is asserted by hand below.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BlobSqlTest {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);

    private static final List<SqlCase> CASES = new ArrayList<>();

    private static SqlEngines engines;

    private static void multiset(String sql) {
        CASES.add(new SqlCase(sql, sql, false));
    }

    private static void multiset(String sql, String duckSql) {
        CASES.add(new SqlCase(sql, duckSql, false));
    }

    private static void ordered(String sql) {
        CASES.add(new SqlCase(sql, sql, true));
    }

    static {
        multiset("SELECT id, b, c FROM blobs");
        multiset("SELECT id, CAST(t AS BLOB), t::bytea, CAST(t AS VARBINARY) FROM blobs",
                "SELECT id, encode(t), encode(t), encode(t) FROM blobs");
        multiset("SELECT id, CAST(b AS VARCHAR) FROM blobs", "SELECT id, '\\x' || lower(hex(b)) FROM blobs");
        multiset("SELECT id, octet_length(b), length(b), octet_length(t) FROM blobs",
                "SELECT id, octet_length(b), octet_length(b), octet_length(encode(t)) FROM blobs");
        multiset("SELECT id, b || c, b || X'00ff' FROM blobs");
        multiset("SELECT id, encode(b, 'hex'), encode(b, 'base64'), hex(b), md5(b), sha256(b) FROM blobs",
                "SELECT id, lower(hex(b)), to_base64(b), hex(b), md5(b), sha256(b) FROM blobs");
        multiset("SELECT id, unhex(hex(b)) = b, decode(encode(b, 'hex'), 'hex'), decode(encode(b, 'base64'), "
                + "'base64') FROM blobs", "SELECT id, unhex(hex(b)) = b, b, b FROM blobs");
        multiset("SELECT id, substring(b, 2, 3), substring(b, 1, 1) FROM blobs",
                "SELECT id, unhex(substring(hex(b), 3, 6)), unhex(substring(hex(b), 1, 2)) FROM blobs");
        multiset("SELECT id FROM blobs WHERE b < c");
        multiset("SELECT id, b = c, b <> c, b <= c, b >= c, b > c FROM blobs");
        multiset("SELECT id FROM blobs WHERE b = X'00' OR b > X'7f' OR b = X''");
        ordered("SELECT id, b FROM blobs ORDER BY b NULLS FIRST, id");
        ordered("SELECT id, b FROM blobs ORDER BY b DESC NULLS LAST, id LIMIT 40");
        multiset("SELECT b, count(*), min(id) FROM blobs GROUP BY b");
        multiset("SELECT DISTINCT c FROM blobs");
        multiset("SELECT min(b), max(b), count(DISTINCT b), count(b), min(c), max(c) FROM blobs");
        multiset("SELECT id % 4, min(b), max(c), count(DISTINCT c) FROM blobs GROUP BY id % 4");
        multiset("SELECT id % 4, string_agg(t, ',' ORDER BY b NULLS FIRST, id) FROM blobs GROUP BY id % 4");
        multiset("SELECT a.id, r.n FROM blobs a JOIN brefs r ON a.b = r.b");
        multiset("SELECT a.id, r.n FROM blobs a LEFT JOIN brefs r ON a.c = r.b");
        multiset("SELECT b FROM blobs UNION SELECT b FROM brefs");
        multiset("SELECT id, CASE WHEN id % 2 = 0 THEN b ELSE c END, coalesce(b, c) FROM blobs");
    }

    @BeforeAll
    static void start() throws Exception {
        engines = SqlEngines.over(tables(27));
    }

    @AfterAll
    static void stop() throws Exception {
        engines.close();
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        return SqlCase.tests(engines, CASES, 1, 2);
    }

    private static QueryResult troupe(String sql) {
        return engines.troupe().sql(sql, QueryOptions.defaults().withWorkers(2).withTimeout(QUERY_TIMEOUT));
    }

    private static Object one(String sql) {
        return troupe(sql).rows().get(0).get(0);
    }

    @Test
    void shouldReadAndWriteBlobTextAsPostgresql() {
        QueryResult r = troupe("SELECT '\\x01ff'::bytea, CAST('a\\\\b\\001' AS BLOB), X'0AFF', "
                + "CAST(X'0aff' AS VARCHAR), "
                + "'\\x 01 02'::bytea");
        assertEquals(DataType.BLOB, r.schema().field(0).type());
        assertArrayEquals(new byte[] {1, (byte) 0xff}, (byte[]) r.rows().get(0).get(0));
        assertArrayEquals("a\\b\u0001".getBytes(StandardCharsets.UTF_8), (byte[]) r.rows().get(0).get(1));
        assertArrayEquals(new byte[] {10, (byte) 0xff}, (byte[]) r.rows().get(0).get(2));
        assertEquals("\\x0aff", r.rows().get(0).get(3));
        assertArrayEquals(new byte[] {1, 2}, (byte[]) r.rows().get(0).get(4));
    }

    @Test
    void shouldAnalyzeAndExplainBlobColumns() {
        troupe("ANALYZE blobs");
        String plan = engines.troupe().explainSql("SELECT id FROM blobs WHERE b = X'01FF'");
        assertTrue(plan.contains("\\x01ff"), plan);
    }

    @Test
    void shouldComputeWhatDuckDbLacks() {
        assertEquals(255, one("SELECT get_byte(X'01ff', 1)"));
        assertArrayEquals(new byte[] {1}, (byte[]) one("SELECT mode(x) FROM (VALUES (X'01'), (X'02'), (X'01')) AS t(x)"));
        assertEquals("\\000\\\\A\\377", one("SELECT encode(X'005c41ff', 'escape')"));
        assertArrayEquals(new byte[] {0, '\\', 'A', (byte) 0xff},
                (byte[]) one("SELECT decode('\\000\\\\A\\377', 'escape')"));
        assertArrayEquals(new byte[] {0, 1, (byte) 0xff}, (byte[]) one("SELECT decode('00 01FF', 'hex')"));
        // PostgreSQL breaks base64 into lines of 76 characters; DuckDB's to_base64 does not.
        String lines = (String) one("SELECT encode(CAST(repeat('a', 60) AS BLOB), 'base64')");
        assertEquals(76, lines.indexOf('\n'));
        assertArrayEquals("a".repeat(60).getBytes(StandardCharsets.US_ASCII),
                (byte[]) one("SELECT decode(encode(CAST(repeat('a', 60) AS BLOB), 'base64'), 'base64')"));
    }

    @Test
    void shouldRefuseBadBlobInputNamingTheValueAndFunction() {
        assertError("SELECT CAST('\\x0' AS BLOB)", "invalid hexadecimal data: odd number of digits");
        assertError("SELECT CAST('\\xzz' AS BLOB)", "invalid hexadecimal digit: \"z\"");
        assertError("SELECT CAST('a\\9' AS BLOB)", "invalid input syntax for type bytea: \"a\\9\"");
        assertError("SELECT get_byte(X'0102', 2)", "index 2 out of valid range, 0..1 in get_byte(");
        assertError("SELECT encode(X'01', 'base32')", "unrecognized encoding: \"base32\"");
        assertError("SELECT decode('@@', 'base64')", "invalid base64 data: \"@@\" in decode(");
        assertError("SELECT unhex('0g')", "invalid hexadecimal digit: \"g\" in unhex(");
        assertError("SELECT octet_length(42)", "octet_length");
        assertError("SELECT b || 'x' FROM blobs", "||");
    }

    private static void assertError(String sql, String part) {
        Exception e = assertThrows(Exception.class, () -> troupe(sql).rows());
        assertTrue(e.getMessage().contains(part), () -> sql + ": " + e.getMessage());
    }

    /**
     * blobs: 300 rows of a BLOB from a pool of 50 (b) and a fresh one (c), and text without a backslash (t); brefs:
     * the pool's first 30 with a number. One value in ten is NULL.
     */
    static List<Table> tables(long seed) {
        Random random = new Random(seed);
        List<byte[]> pool = new ArrayList<>();
        pool.add(new byte[0]);
        pool.add(new byte[] {0});
        pool.add(new byte[] {(byte) 0x80});
        for (int i = pool.size(); i < 50; i++) {
            // Some values extend one before them by a byte, so that prefixes order first.
            pool.add(i % 6 == 0 ? extend(pool.get(i - 1), random) : bytes(random));
        }
        TableBuilder blobs = new TableBuilder("blobs", Schema.of(new Field(null, "id", DataType.INT32, false),
                Field.of("b", DataType.BLOB), Field.of("c", DataType.BLOB), Field.of("t", DataType.VARCHAR)), 64);
        for (int id = 0; id < 300; id++) {
            byte[] b = random.nextInt(10) == 0 ? null : pool.get(random.nextInt(pool.size()));
            byte[] c = random.nextInt(10) == 0 ? null : bytes(random);
            String t = random.nextInt(10) == 0 ? null : "t" + random.nextInt(1000) + (random.nextBoolean() ? "é" : "");
            blobs.addRow(id, b, c, t);
        }
        TableBuilder refs = new TableBuilder("brefs", Schema.of(Field.of("b", DataType.BLOB),
                new Field(null, "n", DataType.INT32, false)), 16);
        for (int i = 0; i < 30; i++) {
            refs.addRow(i % 7 == 0 ? null : pool.get(i), i);
        }
        return List.of(blobs.build(), refs.build());
    }

    private static byte[] bytes(Random random) {
        byte[] b = new byte[random.nextInt(12)];
        random.nextBytes(b);
        return b;
    }

    private static byte[] extend(byte[] b, Random random) {
        byte[] out = java.util.Arrays.copyOf(b, b.length + 1);
        out[b.length] = (byte) random.nextInt(256);
        return out;
    }
}
