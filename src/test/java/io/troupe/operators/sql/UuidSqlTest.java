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

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UUID in SQL against DuckDB over generated tables of UUIDs (a pool small enough to repeat, bytes of every value so
 * that the unsigned order shows, one in ten NULL) and their text in PostgreSQL's spellings (upper case, no hyphens,
 * braces): literals, casts both ways, comparisons, ORDER BY (both engines order UUIDs as their text), GROUP BY,
 * DISTINCT, joins on UUID keys, min/max and count(DISTINCT), each at 1 and 2 workers; gen_random_uuid()/uuid() by
 * what can be asserted of random values, and the error for text that is no UUID.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class UuidSqlTest {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);

    private static final List<SqlCase> CASES = new ArrayList<>();

    private static SqlEngines engines;

    private static void multiset(String sql) {
        CASES.add(new SqlCase(sql, sql, false));
    }

    private static void ordered(String sql) {
        CASES.add(new SqlCase(sql, sql, true));
    }

    static {
        multiset("SELECT id, u, w FROM ids");
        multiset("SELECT id, CAST(u AS VARCHAR), CAST(s AS UUID), s::uuid = u FROM ids");
        multiset("SELECT id, UUID 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', CAST('{a0eebc999c0b4ef8bb6d6bb9bd380a11}' "
                + "AS UUID), 'a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11'::uuid FROM ids WHERE id < 3");
        multiset("SELECT id FROM ids WHERE u > UUID '80000000-0000-0000-0000-000000000000'");
        multiset("SELECT id FROM ids WHERE u < w OR u = w");
        multiset("SELECT id FROM ids WHERE u IN (SELECT w FROM ids WHERE id < 50)");
        multiset("SELECT id, u <> w, u <= w, u >= w FROM ids");
        ordered("SELECT id, u FROM ids ORDER BY u NULLS FIRST, id");
        ordered("SELECT id, u FROM ids ORDER BY u DESC NULLS LAST, id LIMIT 40");
        ordered("SELECT CAST(u AS VARCHAR) AS t FROM ids WHERE u IS NOT NULL ORDER BY u, id");
        multiset("SELECT u, count(*), min(id), max(id) FROM ids GROUP BY u");
        multiset("SELECT DISTINCT w FROM ids");
        multiset("SELECT min(u), max(u), count(DISTINCT u), count(u), count(*) FROM ids");
        multiset("SELECT id % 5, min(u), max(w), count(DISTINCT w) FROM ids GROUP BY id % 5");
        multiset("SELECT a.id, b.r FROM ids a JOIN refs b ON a.u = b.u");
        multiset("SELECT a.id, b.r FROM ids a LEFT JOIN refs b ON a.w = b.u");
        multiset("SELECT b.u, count(a.id) FROM refs b LEFT JOIN ids a ON a.u = b.u GROUP BY b.u");
        multiset("SELECT u FROM ids UNION SELECT u FROM refs");
        multiset("SELECT id, CASE WHEN id % 2 = 0 THEN u ELSE w END, coalesce(u, w) FROM ids");
        multiset("SELECT id, row_number() OVER (PARTITION BY w ORDER BY u, id) FROM ids");
    }

    @BeforeAll
    static void start() throws Exception {
        engines = SqlEngines.over(tables(26));
    }

    @AfterAll
    static void stop() throws Exception {
        engines.close();
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        return SqlCase.tests(engines, CASES, 1, 2);
    }

    private static QueryResult troupe(String sql, int workers) {
        return engines.troupe().sql(sql, QueryOptions.defaults().withWorkers(workers).withTimeout(QUERY_TIMEOUT));
    }

    @Test
    void shouldTypeAndPrintUuidsAsPostgresql() {
        QueryResult r = troupe("SELECT UUID '{A0EEBC99-9C0B4EF8-BB6D6BB9-BD380A11}', "
                + "CAST(CAST('a0eebc999c0b4ef8bb6d6bb9bd380a11' AS UUID) AS VARCHAR)", 1);
        assertEquals(DataType.UUID, r.schema().field(0).type());
        assertEquals(UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), r.rows().get(0).get(0));
        assertEquals("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", r.rows().get(0).get(1));
    }

    @Test
    void shouldDrawANewVersion4UuidAtEveryRow() {
        for (int workers : new int[] {1, 2}) {
            QueryResult r = troupe("SELECT gen_random_uuid(), uuid() FROM ids", workers);
            assertEquals(DataType.UUID, r.schema().field(0).type());
            assertEquals(DataType.UUID, r.schema().field(1).type());
            Set<UUID> seen = new HashSet<>();
            for (List<Object> row : r.rows()) {
                for (Object v : row) {
                    UUID u = (UUID) v;
                    assertEquals(4, u.version(), u::toString);
                    assertEquals(2, u.variant(), u::toString);
                    assertTrue(seen.add(u), u::toString);
                }
            }
            assertEquals(600, seen.size());
        }
        // Volatile: never folded, so each row of a constant query's source has its own.
        List<Object> row = troupe("SELECT length(CAST(gen_random_uuid() AS VARCHAR)), "
                + "gen_random_uuid() = gen_random_uuid()", 1).rows().get(0);
        assertEquals(36, ((Number) row.get(0)).intValue());
        assertEquals(false, row.get(1));
    }

    @Test
    void shouldAnalyzeAndExplainUuidColumns() {
        troupe("ANALYZE ids", 1);
        String plan = engines.troupe().explainSql("SELECT id FROM ids WHERE u = UUID "
                + "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'");
        assertTrue(plan.contains("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), plan);
    }

    @Test
    void shouldRefuseTextThatIsNoUuidNamingIt() {
        for (String bad : List.of("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11x",
                "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc9-99c0b-4ef8-bb6d-6bb9bd380a11", "zzz")) {
            Exception e = assertThrows(Exception.class, () -> troupe("SELECT CAST('" + bad + "' AS UUID)", 1).rows());
            assertTrue(e.getMessage().contains("invalid input syntax for type uuid: \"" + bad + "\""), e.getMessage());
        }
        Exception e = assertThrows(Exception.class,
                () -> troupe("SELECT CAST(s || 'x' AS UUID) FROM ids WHERE s IS NOT NULL", 2).rows());
        assertTrue(e.getMessage().contains("invalid input syntax for type uuid"), e.getMessage());
        e = assertThrows(Exception.class, () -> troupe("SELECT u + 1 FROM ids", 1).rows());
        assertTrue(e.getMessage().contains("+"), e.getMessage());
    }

    /**
     * ids: 300 rows of a UUID from a pool of 60 (u) and of 300 (w), and u's text in one of PostgreSQL's spellings
     * (s); refs: the pool's first 40 with a number each. One value in ten is NULL.
     */
    static List<Table> tables(long seed) {
        Random random = new Random(seed);
        List<UUID> pool = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            // Bytes of every value, the top bits of both halves among them, and a few sharing their first half.
            long most = i % 7 == 0 && i > 0 ? pool.get(i - 1).getMostSignificantBits() : random.nextLong();
            pool.add(new UUID(most, random.nextLong()));
        }
        TableBuilder ids = new TableBuilder("ids", Schema.of(new Field(null, "id", DataType.INT32, false),
                Field.of("u", DataType.UUID), Field.of("w", DataType.UUID), Field.of("s", DataType.VARCHAR)), 64);
        for (int id = 0; id < 300; id++) {
            UUID u = random.nextInt(10) == 0 ? null : pool.get(random.nextInt(pool.size()));
            UUID w = random.nextInt(10) == 0 ? null : new UUID(random.nextLong(), random.nextLong());
            ids.addRow(id, u, w, u == null ? null : spelling(u, random.nextInt(4)));
        }
        TableBuilder refs = new TableBuilder("refs", Schema.of(Field.of("u", DataType.UUID),
                new Field(null, "r", DataType.INT32, false)), 16);
        for (int i = 0; i < 40; i++) {
            refs.addRow(i % 9 == 0 ? null : pool.get(i), i);
        }
        return List.of(ids.build(), refs.build());
    }

    /** {@code u}'s text as PostgreSQL and DuckDB both read it: plain, upper case, without hyphens, or in braces. */
    private static String spelling(UUID u, int kind) {
        String text = u.toString();
        return switch (kind) {
            case 0 -> text;
            case 1 -> text.toUpperCase(Locale.ROOT);
            case 2 -> text.replace("-", "");
            default -> "{" + text + "}";
        };
    }
}
