package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What PostgreSQL users write that Calcite's parser lacks, read as PostgreSQL reads it ({@link StatementText}):
 * {@code x::type} casts, PostgreSQL's and DuckDB's names of types ({@code text}, {@code int8}, {@code float8} ...),
 * escape strings {@code E'...'}, the regular expression operators {@code ~ ~* !~ !~*} and columns named by words
 * Calcite's parser reserves ({@code date}, {@code count}, {@code value} ...). Each statement runs at 0
 * and 2 workers over the generated {@link SqlTables} (NULLs in every nullable column) and gives DuckDB's rows for the
 * same text, which DuckDB reads alike; the errors name what the user wrote, where.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PostgresSpellingsTest {

    private static final List<String> STATEMENTS = List.of(
            // casts, of every operand shape, and chains of them
            "SELECT id, amount::int, amount::text, cust::int8 + 1, odate::timestamp, odate::text, qty::float8 / 4, "
                    + "(qty + 1)::numeric(5,1), -qty::int8, id::text::int8 * 2 FROM orders",
            "SELECT id, '2024-03-01'::date + qty, 'x' || id::text, '12'::int4 + qty, '1 day'::interval * qty, "
                    + "CASE WHEN qty > 5 THEN qty END::text, coalesce(cust, -1)::bigint, "
                    + "DATE '2024-01-31'::timestamp, TIMESTAMP '2024-01-01 10:00'::date FROM orders",
            "SELECT o.status, sum(o.qty)::int8, count(*)::text, avg(o.qty)::numeric(10,2)::text FROM orders o "
                    + "GROUP BY o.status",
            "SELECT id, sum(qty) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)::text FROM orders",
            "SELECT id, name::text, active::text::bool, score::double precision, credit::float8, "
                    + "since::timestamp with time zone::date, id::int2 FROM customers",
            "SELECT CAST(id AS text), CAST(qty AS int8), CAST(qty AS int4), CAST(qty > 3 AS bool), CAST(qty AS int2), "
                    + "CAST(status AS string), CAST(qty AS long) FROM orders",
            "SELECT status::text, count(*) FROM orders WHERE id::text LIKE '1%' GROUP BY status::text",
            // escape strings
            "SELECT id, E'a\\tb' || status, E'it\\'s', E'\\x41\\102', e'line\\nbreak' FROM orders WHERE id < 4",
            // the regular expression operators
            "SELECT id, status ~ '^(open|closed)$', status ~* 'O', status !~ 'e', status !~* '^S' FROM orders",
            "SELECT count(*) FROM customers WHERE name ~ '^(ada|bob)[0-9]+$' OR region ~* 'X$'",
            "SELECT id FROM customers WHERE name !~ '[aeiou]{2}' AND region::text !~* '^n'",
            // a NULL of no type as a function's argument takes the parameter's type
            "SELECT id, upper(NULL), length(NULL), NULL ~ 'a', regexp_matches(NULL, status), round(NULL, 2), "
                    + "concat_ws(',', NULL, status), lpad(NULL, 3, 'x'), greatest(qty, NULL), abs(NULL) FROM orders",
            // a SELECT with a WHERE and no FROM
            "SELECT 1 AS flag, 'x' AS x WHERE EXISTS (SELECT 1 FROM orders WHERE id = 1)",
            "SELECT id FROM orders WHERE id IN (SELECT 2 WHERE true UNION ALL SELECT 3 WHERE 1 < 2)",
            // found by the random tests' SQL: a time difference grouped by its position
            "SELECT (DATE '2024-06-30' - odate) AS k, count(*) FROM orders GROUP BY 1",
            // the standard's OVERLAY, PostgreSQL's and DuckDB's
            "SELECT id, overlay(name PLACING '*' FROM 2 FOR 2), overlay(name PLACING region FROM 3), "
                    + "overlay(region PLACING name FROM id % 7 + 1 FOR 0) FROM customers",
            // words Calcite reserves as names of columns, beside the same words as types, units and calls
            "SELECT e.date, time, timestamp, year, value, count, position, result, min, max, e.start FROM events e",
            "SELECT partition, new, count(*), sum(count) OVER (PARTITION BY partition) FROM events WHERE new "
                    + "GROUP BY partition, new, count",
            "SELECT year, count(*), sum(value) AS sum, max(count) AS max, min(date) FROM events WHERE date > "
                    + "DATE '2024-03-01' AND value IS NOT NULL GROUP BY year ORDER BY year",
            "SELECT timestamp - start, date - timestamp, date + 3, EXTRACT(YEAR FROM date), CAST(date AS TIMESTAMP), timestamp::date, "
                    + "CAST(time AS VARCHAR), year(timestamp), date_trunc('month', timestamp) AS month FROM events",
            "SELECT t.date, t.count FROM (SELECT date, count, value FROM events WHERE count > 3) AS t "
                    + "ORDER BY t.date, t.count",
            "SELECT date_diff('day', start, date), datediff('month', start, timestamp), age(timestamp, start), "
                    + "age(date, start) FROM events");

    private static SqlEngines engines;

    @BeforeAll
    static void load() throws Exception {
        List<Table> tables = new ArrayList<>(SqlTables.generate(26));
        tables.add(events());
        engines = SqlEngines.over(tables);
    }

    /** A table whose columns are named by words Calcite reserves, with NULLs. */
    private static Table events() {
        Random random = new Random(26);
        TableBuilder events = new TableBuilder("events", Schema.of(Field.of("date", DataType.DATE),
                Field.of("time", DataType.TIME), Field.of("timestamp", DataType.TIMESTAMP),
                Field.of("year", DataType.INT32), Field.of("value", DataType.FLOAT64), Field.of("count", DataType.INT64),
                Field.of("position", DataType.INT32), Field.of("result", DataType.VARCHAR),
                Field.of("min", DataType.INT32), Field.of("max", DataType.INT32), Field.of("start", DataType.DATE),
                Field.of("partition", DataType.INT32), Field.of("new", DataType.BOOLEAN)));
        for (int i = 0; i < 500; i++) {
            LocalDate date = LocalDate.of(2024, 1, 1).plusDays(random.nextInt(700));
            LocalTime time = LocalTime.ofSecondOfDay(random.nextInt(86_400));
            events.addRow(date, time, LocalDateTime.of(date, time), date.getYear(),
                    random.nextInt(10) == 0 ? null : random.nextInt(10_000) / 100.0, (long) random.nextInt(8),
                    i, random.nextBoolean() ? "ok" : null, -random.nextInt(5), random.nextInt(5), date.minusDays(3),
                    random.nextInt(4), random.nextInt(3) == 0 ? null : random.nextBoolean());
        }
        return events.build();
    }

    @AfterAll
    static void close() throws Exception {
        engines.close();
    }

    @TestFactory
    Stream<DynamicTest> shouldReadPostgresSpellingsAsDuckDbDoes() {
        return STATEMENTS.stream().flatMap(sql -> Stream.of(0, 2).map(workers ->
                DynamicTest.dynamicTest(workers + " workers: " + sql, () -> {
                    List<List<Object>> expected = engines.duck().query(sql).rows();
                    QueryResult result = engines.troupe().sql(sql,
                            QueryOptions.defaults().withWorkers(workers).withTimeout(Duration.ofSeconds(60)));
                    assertTrue(!expected.isEmpty(), sql);
                    assertNull(ResultComparator.compare(expected, DuckDbOracle.normalise(result.rows()), false), sql);
                })));
    }

    @Test
    void shouldNameColumnsAsPostgresDoes() {
        QueryResult result = engines.troupe().sql("SELECT 1::bigint, qty::text, '1'::int4 + 1, "
                + "'2024-01-01'::timestamptz, now()::date FROM orders WHERE id = 1");
        assertEquals(List.of("int8", "qty", "?column?", "timestamptz", "now"),
                result.schema().fields().stream().map(Field::name).toList());
    }

    @Test
    void shouldNameAnUnknownTypeWhereItIsWritten() {
        SqlException e = assertThrows(SqlException.class, () -> engines.troupe().sql("SELECT qty::texts FROM orders"));
        assertEquals(SqlException.Kind.UNKNOWN_TYPE, e.kind());
        assertTrue(e.getMessage().startsWith("type \"texts\" does not exist (did you mean \"text\"?) "
                + "at line 1, column 13"), e.getMessage());
        e = assertThrows(SqlException.class, () -> engines.troupe().sql("SELECT CAST(qty AS blorp) FROM orders"));
        assertTrue(e.getMessage().startsWith("type \"blorp\" does not exist at line 1, column 20"), e.getMessage());
    }

    @Test
    void shouldPointAtTheUsersTextThroughACast() {
        SqlException e = assertThrows(SqlException.class,
                () -> engines.troupe().sql("SELECT id::text, nosuch::int FROM orders"));
        assertTrue(e.getMessage().startsWith("column \"nosuch\" does not exist"), e.getMessage());
        assertEquals(18, e.column(), e.getMessage());
        e = assertThrows(SqlException.class, () -> engines.troupe().sql("SELECT 1::int ++ FROM orders"));
        assertEquals(SqlException.Kind.SYNTAX, e.kind(), e.getMessage());
    }

    /** DuckDB reads {@code \\u} in an escape string as a {@code u}, PostgreSQL as a code point. */
    @Test
    void shouldReadCodePointEscapesAsPostgresDoes() {
        QueryResult result = engines.troupe().sql("SELECT E'\\u00e9\\U0001F600', E'\\xC3\\xA9' = 'é'");
        assertEquals(List.of(List.of("é\uD83D\uDE00", true)), result.rows());
    }

    @Test
    void shouldRefuseABadEscapeNamingIt() {
        SqlException e = assertThrows(SqlException.class, () -> engines.troupe().sql("SELECT 1,\n E'\\x00'"));
        assertTrue(e.getMessage().startsWith("invalid byte sequence for encoding \"UTF8\": 0x00 in E'\\x00' "
                + "at line 2, column 4"), e.getMessage());
        e = assertThrows(SqlException.class, () -> engines.troupe().sql("SELECT E'\\u12'"));
        assertTrue(e.getMessage().startsWith("invalid Unicode escape: \\u takes 4 hexadecimal digits"), e.getMessage());
        e = assertThrows(SqlException.class, () -> engines.troupe().sql("SELECT E'\\xff'"));
        assertTrue(e.getMessage().startsWith("invalid byte sequence for encoding \"UTF8\" in E'\\xff'"),
                e.getMessage());
    }

    /** Calcite's parser reads // as a comment, which would drop the rest of the line: a DuckDB user's // is refused. */
    @Test
    void shouldRefuseDoubleSlashRatherThanDropTheRestOfTheLine() {
        SqlException e = assertThrows(SqlException.class, () -> engines.troupe().sql("SELECT 10 // 3, 1"));
        assertEquals(SqlException.Kind.SYNTAX, e.kind());
        assertTrue(e.getMessage().startsWith("syntax error at or near \"//\": PostgreSQL has no // operator; write "
                + "a / b"), e.getMessage());
        assertEquals(11, e.column());
        assertEquals(List.of(List.of("//x", 3)), engines.troupe().sql("SELECT '//' || 'x', 10 / 3 -- a // b\n")
                .rows());
    }

    @Test
    void shouldReadLeadingOptionsOfAPatternAsPostgresDoes() throws Exception {
        QueryResult result = engines.troupe().sql("SELECT 'AB' ~ '(?i)b', 'AB' ~* '(?c)b', 'AB' ~ '(?:A)B'");
        assertEquals(List.of(List.of(true, false, true)), result.rows());
        RuntimeException e = assertThrows(RuntimeException.class, () -> engines.troupe().sql("SELECT 'x' ~ '(?x)b'"));
        assertTrue(e.getMessage().contains("unsupported in a regular expression: the option (?x)"), e.getMessage());
    }
}
