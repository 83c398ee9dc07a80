package io.troupe.operators.sql;

import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * TIMESTAMP, TIMESTAMP WITH TIME ZONE and TIME in SQL against DuckDB over one generated table with NULLs, values
 * around the changes of New York's clocks, a leap day, the epoch and dates before it (none before 1945: DuckDB
 * shows a zone's offset of those years, with seconds, without them): literals, casts among the
 * times and to and from text, comparisons, BETWEEN and IN, EXTRACT of every field, AT TIME ZONE, FLOOR and CEIL to a unit,
 * interval arithmetic, grouping,
 * joins, sorting, DISTINCT and window functions on them. Each statement runs in three session time zones (UTC,
 * America/New_York, Asia/Kolkata's half-hour offset), DuckDB's TimeZone set to the same, at 0 and 2 workers.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TemporalSqlTest {

    private static final List<String> ZONES = List.of("UTC", "America/New_York", "Asia/Kolkata");

    /** {@code sql} for Troupe, {@code duckDb} for DuckDB (the same text but where DuckDB lacks a spelling). */
    private record Case(String sql, String duckDb, boolean ordered) {
    }

    private static final List<Case> CASES = new ArrayList<>();

    private static void multiset(String sql) {
        CASES.add(new Case(sql, sql, false));
    }

    private static void multiset(String sql, String duckDb) {
        CASES.add(new Case(sql, duckDb, false));
    }

    private static void ordered(String sql) {
        CASES.add(new Case(sql, sql, true));
    }

    static {
        multiset("SELECT id, ts, tz, t, d FROM events");
        // literals and casts
        multiset("SELECT id, TIMESTAMP '2024-03-15 13:45:30.123456', TIME '23:59:59.5', CAST(ts AS DATE), "
                + "CAST(ts AS TIME), CAST(d AS TIMESTAMP) FROM events");
        multiset("SELECT id, CAST(ts AS VARCHAR), CAST(t AS VARCHAR), CAST(tz AS VARCHAR) FROM events");
        multiset("SELECT id, CAST(ts AS TIMESTAMP WITH TIME ZONE), CAST(tz AS TIMESTAMP), CAST(tz AS DATE), "
                + "CAST(CAST(tz AS TIMESTAMP) AS TIME), CAST(d AS TIMESTAMP WITH TIME ZONE) FROM events");
        multiset("SELECT id, CAST(CAST(ts AS VARCHAR) AS TIMESTAMP), CAST(CAST(t AS VARCHAR) AS TIME), "
                + "CAST(CAST(tz AS VARCHAR) AS TIMESTAMP WITH TIME ZONE) FROM events");
        multiset("SELECT id, CAST('2024-03-10 02:30:00' AS TIMESTAMP WITH TIME ZONE), "
                + "CAST('2024-11-03 01:30:00' AS TIMESTAMP WITH TIME ZONE), "
                + "CAST('2024-07-01 12:00:00+05:30' AS TIMESTAMP WITH TIME ZONE) FROM events WHERE id < 3");
        // comparisons
        multiset("SELECT id FROM events WHERE ts > TIMESTAMP '2024-03-10 01:59:59'");
        multiset("SELECT id FROM events WHERE ts BETWEEN TIMESTAMP '2024-01-01 00:00:00' AND TIMESTAMP '2024-12-31 "
                + "23:59:59.999999'");
        multiset("SELECT id FROM events WHERE ts IN (TIMESTAMP '2024-03-10 02:30:00', TIMESTAMP '1970-01-01 00:00:00', "
                + "TIMESTAMP '2024-02-29 12:00:00')");
        multiset("SELECT id FROM events WHERE t < TIME '12:00:00' AND t >= TIME '00:00:01'");
        multiset("SELECT id, ts > d, ts = CAST(d AS TIMESTAMP), d < ts FROM events");
        multiset("SELECT id FROM events WHERE tz < CAST('2024-06-01 00:00:00' AS TIMESTAMP WITH TIME ZONE)");
        multiset("SELECT id FROM events WHERE CAST(tz AS DATE) = d");
        multiset("SELECT id FROM events WHERE ts >= CAST('2024-03-10' AS TIMESTAMP) AND d <> DATE '2024-02-29'");
        // EXTRACT
        multiset("SELECT id, EXTRACT(YEAR FROM ts), EXTRACT(QUARTER FROM ts), EXTRACT(MONTH FROM ts), EXTRACT(WEEK FROM ts), "
                + "EXTRACT(DAY FROM ts), EXTRACT(DOW FROM ts), EXTRACT(ISODOW FROM ts), EXTRACT(DOY FROM ts) FROM events");
        multiset("SELECT id, EXTRACT(HOUR FROM ts), EXTRACT(MINUTE FROM ts), EXTRACT(SECOND FROM ts), "
                + "EXTRACT(MILLISECOND FROM ts), EXTRACT(MICROSECOND FROM ts), EXTRACT(EPOCH FROM ts) FROM events");
        multiset("SELECT id, EXTRACT(DECADE FROM ts), EXTRACT(CENTURY FROM ts), EXTRACT(MILLENNIUM FROM ts), "
                + "EXTRACT(ISOYEAR FROM ts) FROM events");
        multiset("SELECT id, EXTRACT(YEAR FROM tz), EXTRACT(DAY FROM tz), EXTRACT(HOUR FROM tz), EXTRACT(MINUTE FROM tz), "
                + "EXTRACT(EPOCH FROM tz) FROM events");
        multiset("SELECT id, EXTRACT(HOUR FROM t), EXTRACT(MINUTE FROM t), EXTRACT(SECOND FROM t), "
                + "EXTRACT(MICROSECOND FROM t) FROM events");
        multiset("SELECT id, EXTRACT(DOW FROM d), EXTRACT(WEEK FROM d), EXTRACT(QUARTER FROM d), EXTRACT(EPOCH FROM d) "
                + "FROM events");
        // AT TIME ZONE and timezone(): a local time read in a zone, an instant's local time there
        multiset("SELECT id, ts AT TIME ZONE 'America/New_York', tz AT TIME ZONE 'Asia/Kolkata', timezone('UTC', ts), "
                + "timezone('Europe/Paris', tz), ts::timestamptz AT TIME ZONE 'UTC' FROM events");
        multiset("SELECT id FROM events WHERE tz AT TIME ZONE 'America/New_York' < ts");
        // FLOOR and CEIL to a unit (Calcite's spelling), as DuckDB's date_trunc and the next boundary
        multiset("SELECT id, FLOOR(ts TO DAY), FLOOR(ts TO MONTH), FLOOR(ts TO WEEK), FLOOR(ts TO QUARTER), "
                + "FLOOR(d TO YEAR), FLOOR(tz TO HOUR), FLOOR(ts TO DECADE) FROM events",
                "SELECT id, date_trunc('day', ts), date_trunc('month', ts), date_trunc('week', ts), "
                + "date_trunc('quarter', ts), CAST(date_trunc('year', d) AS DATE), date_trunc('hour', tz), "
                + "date_trunc('decade', ts) FROM events");
        multiset("SELECT id, CEIL(ts TO DAY), CEIL(ts TO QUARTER), CEIL(d TO MONTH), CEIL(tz TO MINUTE), CEIL(tz TO DAY) "
                + "FROM events", "SELECT id, " + ceil("ts", "day", "1 day") + ", " + ceil("ts", "quarter", "3 months")
                + ", CAST(" + ceil("d", "month", "1 month") + " AS DATE), " + ceil("tz", "minute", "1 minute") + ", "
                + ceil("tz", "day", "1 day") + " FROM events");
        // intervals
        multiset("SELECT id, ts + INTERVAL '1' DAY, ts - INTERVAL '90' MINUTE, ts + INTERVAL '1' MONTH, "
                + "ts - INTERVAL '1' YEAR, ts + INTERVAL '1.5' SECOND FROM events");
        multiset("SELECT id, tz + INTERVAL '1' DAY, tz - INTERVAL '2' HOUR, tz + INTERVAL '1' MONTH, "
                + "tz + INTERVAL '26' HOUR FROM events");
        multiset("SELECT id, t + INTERVAL '30' MINUTE, t - INTERVAL '1' HOUR, t + INTERVAL '86399' SECOND FROM events");
        multiset("SELECT id FROM events WHERE ts + INTERVAL '7' DAY > TIMESTAMP '2024-03-15 00:00:00'");
        // aggregates, grouping, joins, sort
        multiset("SELECT d, COUNT(*), MIN(ts), MAX(ts), MIN(tz), MAX(t) FROM events GROUP BY d");
        multiset("SELECT ts, COUNT(*) FROM events GROUP BY ts");
        multiset("SELECT t, tz, COUNT(*) FROM events GROUP BY t, tz");
        multiset("SELECT EXTRACT(YEAR FROM ts), EXTRACT(MONTH FROM ts), COUNT(*) FROM events GROUP BY 1, 2");
        multiset("SELECT COUNT(DISTINCT ts), COUNT(DISTINCT tz), MIN(d), MAX(CAST(ts AS DATE)) FROM events");
        multiset("SELECT a.id, b.id FROM events a JOIN events b ON a.ts = b.ts");
        multiset("SELECT a.id, b.id FROM events a JOIN events b ON a.tz = b.tz AND a.id < b.id");
        multiset("SELECT a.id, b.id FROM events a LEFT JOIN events b ON a.t = b.t AND a.id <> b.id");
        multiset("SELECT DISTINCT CAST(ts AS DATE) FROM events");
        ordered("SELECT id, ts FROM events ORDER BY ts NULLS FIRST, id");
        ordered("SELECT id, tz FROM events ORDER BY tz DESC NULLS LAST, id");
        ordered("SELECT id, t FROM events ORDER BY t, id LIMIT 20");
        multiset("SELECT ts FROM events WHERE id < 50 UNION SELECT CAST(d AS TIMESTAMP) FROM events WHERE id < 50");
        multiset("SELECT id, CASE WHEN id % 2 = 0 THEN ts ELSE CAST(d AS TIMESTAMP) END, COALESCE(t, TIME '00:00:00') "
                + "FROM events");
        multiset("SELECT id, ROW_NUMBER() OVER (PARTITION BY d ORDER BY ts, id), "
                + "LAG(ts) OVER (ORDER BY id), MAX(tz) OVER (PARTITION BY d) FROM events");
    }

    /** DuckDB's text of CEIL(value TO unit): the first boundary of the unit at or after the value. */
    private static String ceil(String value, String unit, String step) {
        String floor = "date_trunc('" + unit + "', " + value + ")";
        return "CASE WHEN " + floor + " = " + value + " THEN " + floor + " ELSE " + floor + " + INTERVAL '" + step
                + "' END";
    }

    private static SqlEngines engines;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.over(List.of(events(20241207L)));
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        return ZONES.stream().flatMap(zone -> CASES.stream().flatMap(c -> Stream.of(0, 2).map(workers ->
                DynamicTest.dynamicTest(zone + ", " + workers + " workers: " + c.sql(), () -> check(c, zone, workers)))));
    }

    private static void check(Case c, String zone, int workers) throws Exception {
        engines.assertSameRowsInZone(c.sql(), c.duckDb(), zone, workers, c.ordered());
    }

    /**
     * 600 events: timestamps over 2023-2025 with any microsecond, and the edge cases mixed in (each column NULL one
     * time in ten, some values repeated so that groups and joins match several rows).
     */
    static Table events(long seed) {
        Random random = new Random(seed);
        List<LocalDateTime> edges = List.of(LocalDateTime.of(2024, 3, 10, 2, 30), LocalDateTime.of(2024, 3, 10, 1, 59, 59),
                LocalDateTime.of(2024, 11, 3, 1, 30), LocalDateTime.of(2024, 11, 3, 0, 59, 59, 999_999_000),
                LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 500_000_000),
                LocalDateTime.of(2024, 2, 29, 12, 0), LocalDateTime.of(1950, 3, 1, 0, 0, 0, 1000),
                LocalDateTime.of(2038, 1, 19, 3, 14, 8), LocalDateTime.of(2024, 12, 31, 23, 59, 59, 999_999_000),
                LocalDateTime.of(2020, 12, 31, 0, 0), LocalDateTime.of(2021, 1, 3, 0, 0));
        TableBuilder b = new TableBuilder("events", Schema.of(
                new Field(null, "id", DataType.INT32, false),
                Field.of("ts", DataType.TIMESTAMP),
                Field.of("tz", DataType.TIMESTAMP_TZ),
                Field.of("t", DataType.TIME),
                Field.of("d", DataType.DATE)), 128);
        List<LocalDateTime> drawn = new ArrayList<>();
        for (int id = 0; id < 600; id++) {
            LocalDateTime ts;
            if (random.nextInt(6) == 0) {
                ts = edges.get(random.nextInt(edges.size()));
            } else if (!drawn.isEmpty() && random.nextInt(5) == 0) {
                ts = drawn.get(random.nextInt(drawn.size()));
            } else {
                ts = LocalDateTime.of(2023, 1, 1, 0, 0).plusSeconds(random.nextInt(3 * 365 * 86_400))
                        .plusNanos(random.nextInt(3) == 0 ? 0 : random.nextInt(1_000_000) * 1000L);
                drawn.add(ts);
            }
            Instant tz = (random.nextBoolean() ? ts : drawn.isEmpty() ? ts : drawn.get(random.nextInt(drawn.size())))
                    .toInstant(ZoneOffset.UTC);
            LocalTime t = random.nextInt(8) == 0 ? LocalTime.MIDNIGHT : ts.toLocalTime();
            LocalDate d = random.nextBoolean() ? ts.toLocalDate() : ts.toLocalDate().plusDays(random.nextInt(3) - 1);
            b.addRow(id, maybe(random, ts), maybe(random, tz), maybe(random, t), maybe(random, d));
        }
        return b.build();
    }

    private static Object maybe(Random random, Object value) {
        return random.nextInt(10) == 0 ? null : value;
    }
}
