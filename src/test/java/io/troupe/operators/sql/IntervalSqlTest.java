package io.troupe.operators.sql;

import io.troupe.actors.api.QueryOptions;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Schema;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INTERVAL in SQL against DuckDB over a generated table of intervals of months, days and time, of either sign, with
 * NULLs and values of one length written differently ({@code 1 month} and {@code 30 days}, which compare, group and
 * join as equal): PostgreSQL's literals, casts to and from text, arithmetic among intervals and with numbers, times
 * moved by intervals and subtracted into intervals, comparisons, EXTRACT, grouping, DISTINCT, joins, sorting, MIN and
 * MAX, windows. Each statement runs in UTC and in New York (whose clocks change in the data's range) at 0 and 2
 * workers. Where Troupe follows PostgreSQL against DuckDB (a DATE plus an interval is a DATE in Troupe's SQL) the
 * statements cast, and the differences are asserted by hand below.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IntervalSqlTest {

    private static final List<String> ZONES = List.of("UTC", "America/New_York");
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);

    /** A statement for Troupe, and DuckDB's of the same meaning (mostly the same text); some in UTC only. */
    private record Case(String sql, String duckSql, boolean ordered, boolean utcOnly) {
    }

    private static final List<Case> CASES = new ArrayList<>();

    private static void multiset(String sql) {
        CASES.add(new Case(sql, sql, false, false));
    }

    private static void multiset(String sql, String duckSql) {
        CASES.add(new Case(sql, duckSql, false, false));
    }

    /**
     * Where DuckDB's arithmetic of instants counts local days (the interval between two instants; Troupe, as
     * PostgreSQL, takes their elapsed time and makes days of 24 hours), so that it agrees only in UTC.
     */
    private static void inUtc(String sql) {
        CASES.add(new Case(sql, sql, false, true));
    }

    private static void ordered(String sql) {
        CASES.add(new Case(sql, sql, true, false));
    }

    /**
     * DuckDB's {@code tz + iv} in PostgreSQL's order: the months, then the days in the session's local time, then the
     * microseconds as elapsed time (DuckDB subtracts from an instant in the other order, microseconds first). The
     * table holds each interval's fields apart as m, dd and us.
     */
    private static String instantPlus(String sign) {
        return "CAST(CAST(tz AS TIMESTAMP) " + sign + " to_months(m) " + sign + " to_days(dd) AS TIMESTAMPTZ) " + sign
                + " to_microseconds(us)";
    }

    static {
        multiset("SELECT id, iv FROM spans");
        // literals and text
        multiset("SELECT id, INTERVAL '1 year 2 months 3 days 04:05:06.789', INTERVAL '1.5 months', INTERVAL '-1 day "
                + "02:00', INTERVAL '@ 1 day ago', INTERVAL '3' DAY, INTERVAL '90' MINUTE, CAST('2 hours' AS INTERVAL), "
                + "INTERVAL '1 day -1 hour', INTERVAL '36 hours' FROM spans WHERE id < 3");
        multiset("SELECT id, CAST(iv AS VARCHAR), CAST(CAST(iv AS VARCHAR) AS INTERVAL) FROM spans");
        // arithmetic
        multiset("SELECT id, iv + iv, iv - INTERVAL '1 day', -iv, iv + INTERVAL '1' MONTH, INTERVAL '2' HOUR - iv "
                + "FROM spans");
        multiset("SELECT id, iv * 2, 3 * iv, iv * n, iv * 1.5, iv / 2, iv / 4, iv / 7, iv * 0.1 FROM spans");
        multiset("SELECT id, mx, mx + iv, mx - iv, -mx, mx * 1.5, mx / 3, CAST(mx AS VARCHAR), ts + mx, ts - mx, "
                + "EXTRACT(DAY FROM mx), EXTRACT(HOUR FROM mx), EXTRACT(SECOND FROM mx), EXTRACT(EPOCH FROM mx) "
                + "FROM spans");
        // times and intervals
        multiset("SELECT id, ts + iv, ts - iv, iv + ts, ts + INTERVAL '1 month 1 day 1 hour' FROM spans");
        multiset("SELECT id, CAST(d AS TIMESTAMP) + iv, CAST(d AS TIMESTAMP) - iv FROM spans");
        multiset("SELECT id, tz + iv, tz - iv FROM spans",
                "SELECT id, " + instantPlus("+") + ", " + instantPlus("-") + " FROM spans");
        multiset("SELECT id, tz + INTERVAL '1 day', tz - INTERVAL '2 hours', tz + INTERVAL '1 month 2 hours' FROM spans");
        multiset("SELECT id, t + iv, t - iv FROM spans");
        multiset("SELECT id, ts - CAST(d AS TIMESTAMP), d - DATE '2024-01-01', d + n, d - n, n + d FROM spans");
        inUtc("SELECT id, tz - CAST(ts AS TIMESTAMP WITH TIME ZONE) FROM spans");
        multiset("SELECT a.id, b.id, a.ts - b.ts FROM spans a JOIN spans b ON a.id = b.id + 1");
        // comparisons
        multiset("SELECT id FROM spans WHERE iv > INTERVAL '1 day'");
        multiset("SELECT id FROM spans WHERE iv = INTERVAL '30 days' OR iv = INTERVAL '24 hours'");
        multiset("SELECT id FROM spans WHERE iv BETWEEN INTERVAL '-1 day' AND INTERVAL '1 month'");
        multiset("SELECT id FROM spans WHERE iv IN (INTERVAL '1 month', INTERVAL '1 day', INTERVAL '0 seconds')");
        multiset("SELECT a.id, b.id FROM spans a JOIN spans b ON a.iv < b.iv AND a.id + 1 = b.id");
        multiset("SELECT id FROM spans WHERE ts + iv > TIMESTAMP '2024-06-01 00:00:00'");
        // fields
        multiset("SELECT id, EXTRACT(YEAR FROM iv), EXTRACT(MONTH FROM iv), EXTRACT(DAY FROM iv), "
                + "EXTRACT(HOUR FROM iv), EXTRACT(MINUTE FROM iv), EXTRACT(SECOND FROM iv) FROM spans");
        multiset("SELECT id, EXTRACT(MILLISECOND FROM iv), EXTRACT(MICROSECOND FROM iv), EXTRACT(EPOCH FROM iv), "
                + "EXTRACT(QUARTER FROM iv), EXTRACT(DECADE FROM iv), EXTRACT(CENTURY FROM iv) FROM spans");
        // grouping, joins, sorting
        // A group of equal intervals shows one of them, whichever came first: compare their lengths.
        multiset("SELECT EXTRACT(EPOCH FROM iv), COUNT(*) FROM spans GROUP BY iv");
        multiset("SELECT COUNT(DISTINCT iv), EXTRACT(EPOCH FROM MIN(iv)), EXTRACT(EPOCH FROM MAX(iv)) FROM spans");
        multiset("SELECT n, EXTRACT(EPOCH FROM MIN(iv)), EXTRACT(EPOCH FROM MAX(iv)), COUNT(iv) FROM spans GROUP BY n");
        multiset("SELECT COUNT(*) FROM (SELECT DISTINCT iv FROM spans) AS s");
        multiset("SELECT a.id, b.id FROM spans a JOIN spans b ON a.iv = b.iv WHERE a.id < 40");
        multiset("SELECT EXTRACT(EPOCH FROM iv) FROM (SELECT iv FROM spans WHERE id < 100 UNION SELECT iv FROM spans "
                + "WHERE id >= 100) AS u");
        ordered("SELECT id, iv FROM spans ORDER BY iv NULLS FIRST, id");
        ordered("SELECT id, iv FROM spans ORDER BY iv DESC NULLS LAST, id LIMIT 30");
        multiset("SELECT id, COUNT(*) OVER (PARTITION BY iv), EXTRACT(EPOCH FROM MAX(iv) OVER (PARTITION BY n)) "
                + "FROM spans");
        multiset("SELECT id, CASE WHEN n > 2 THEN iv ELSE INTERVAL '1 hour' END, COALESCE(iv, INTERVAL '0 days') "
                + "FROM spans");
    }

    private static SqlEngines engines;

    @BeforeAll
    static void load() throws Exception {
        engines = SqlEngines.over(List.of(spans(20261207L)));
    }

    @AfterAll
    static void close() throws Exception {
        if (engines != null) {
            engines.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchDuckDb() {
        return ZONES.stream().flatMap(zone -> CASES.stream().filter(c -> zone.equals("UTC") || !c.utcOnly())
                .flatMap(c -> Stream.of(0, 2).map(workers ->
                DynamicTest.dynamicTest(zone + ", " + workers + " workers: " + c.sql(), () -> check(c, zone, workers)))));
    }

    private static void check(Case c, String zone, int workers) throws Exception {
        engines.assertSameRowsInZone(c.sql(), c.duckSql(), zone, workers, c.ordered());
    }

    private static QueryResult troupe(String sql, String zone, int workers) {
        return engines.troupe().sql(sql, QueryOptions.defaults().withWorkers(workers).withTimeout(QUERY_TIMEOUT)
                .withTimeZone(ZoneId.of(zone)));
    }

    private static Object one(String sql) {
        return troupe(sql, "UTC", 1).rows().get(0).get(0);
    }

    @Test
    void shouldFollowPostgresqlWhereDuckDbDiffers() {
        // A DATE plus an interval is a DATE in SQL's typing (Calcite's); PostgreSQL and DuckDB give a TIMESTAMP.
        assertEquals(java.time.LocalDate.of(2024, 2, 29), one("SELECT DATE '2024-01-31' + INTERVAL '1 month'"));
        assertEquals(java.time.LocalDate.of(2024, 2, 1), one("SELECT DATE '2024-01-31' + CAST('1 day' AS INTERVAL)"));
        // Intervals compare by their length (a month 30 days): DuckDB compares its normalised fields, and says false.
        assertEquals(true, one("SELECT INTERVAL '1 month -1 day' = INTERVAL '29 days'"));
        // Two DATEs subtract into an INTEGER (PostgreSQL); DuckDB: BIGINT.
        QueryResult days = troupe("SELECT DATE '2024-03-01' - DATE '2024-01-01'", "UTC", 1);
        assertEquals(DataType.INT32, days.schema().field(0).type());
        assertEquals(60, days.rows().get(0).get(0));
        // An instant less an interval: months first, as PostgreSQL (DuckDB takes the hours first, 06-30 23:49:49).
        assertEquals(java.time.Instant.parse("2024-06-29T23:49:49Z"),
                one("SELECT TIMESTAMPTZ '2024-07-31 01:49:49+00' - INTERVAL '1 month 2 hours'"));
        // TIME minus TIME, which DuckDB lacks.
        assertEquals(Interval.parse("-02:30:00"), one("SELECT TIME '10:00' - TIME '12:30'"));
        // A year of the epoch is 365.25 days, a month 30 (both engines).
        assertEquals(365.25 * 86_400 + 30 * 86_400, one("SELECT EXTRACT(EPOCH FROM INTERVAL '1 year 1 month')"));
    }

    @Test
    void shouldMoveAnInstantByCalendarDaysInTheSessionZone() {
        // New York's clocks moved forward on 2024-03-10: a calendar day from noon the day before is 23 hours.
        String sql = "SELECT CAST(TIMESTAMPTZ '2024-03-09 12:00:00-05' + INTERVAL '1 day' AS VARCHAR), "
                + "CAST(TIMESTAMPTZ '2024-03-09 12:00:00-05' + INTERVAL '24 hours' AS VARCHAR), "
                + "TIMESTAMPTZ '2024-03-10 12:00:00-04' - TIMESTAMPTZ '2024-03-09 12:00:00-05'";
        List<Object> row = troupe(sql, "America/New_York", 2).rows().get(0);
        assertEquals("2024-03-10 12:00:00-04", row.get(0));
        assertEquals("2024-03-10 13:00:00-04", row.get(1));
        assertEquals(Interval.parse("23:00:00"), row.get(2));
    }

    @Test
    void shouldRefuseWhatIsNotAnIntervalNamingIt() {
        Exception e = assertThrows(Exception.class, () -> one("SELECT CAST('1 fortnight' AS INTERVAL)"));
        assertTrue(e.getMessage().contains("invalid input syntax for type interval: \"1 fortnight\""), e.getMessage());
        e = assertThrows(Exception.class, () -> one("SELECT INTERVAL '1 day' + 1"));
        assertTrue(e.getMessage().contains("Cannot apply '+'") || e.getMessage().contains("operator does not exist"),
                e.getMessage());
        e = assertThrows(Exception.class, () -> one("SELECT INTERVAL '2147483647 months' + INTERVAL '1 month'"));
        assertTrue(e.getMessage().contains("interval out of range"), e.getMessage());
        e = assertThrows(Exception.class, () -> one("SELECT TIMESTAMP '294000-01-01 00:00:00' + INTERVAL '1000 years'"));
        assertTrue(e.getMessage().contains("out of range"), e.getMessage());
        e = assertThrows(Exception.class, () -> one("SELECT EXTRACT(DOW FROM INTERVAL '1 day')"));
        assertTrue(e.getMessage().contains("not supported for type INTERVAL"), e.getMessage());
    }

    @Test
    void shouldPointAtTheUsersTextThroughARewrittenLiteral() {
        Exception e = assertThrows(Exception.class, () -> one("SELECT INTERVAL '1 day', nope FROM spans"));
        assertTrue(e.getMessage().startsWith("column \"nope\" does not exist"), e.getMessage());
        assertTrue(e.getMessage().contains("at line 1, column 26\n  SELECT INTERVAL '1 day', nope FROM spans\n"
                + "                           ^"), e.getMessage());
    }

    /**
     * 400 rows: an interval of months, days or time or all three, of either sign (one in ten NULL, some of one length
     * written two ways) and its fields apart (m, dd, us); an interval whose fields differ in sign (mx), kept out of
     * comparisons (DuckDB orders those by its normalised fields, PostgreSQL and Troupe by their length); times and a
     * count to move and scale by.
     */
    static Table spans(long seed) {
        Random random = new Random(seed);
        TableBuilder b = new TableBuilder("spans", Schema.of(
                new Field(null, "id", DataType.INT32, false),
                Field.of("iv", DataType.INTERVAL),
                Field.of("ts", DataType.TIMESTAMP),
                Field.of("tz", DataType.TIMESTAMP_TZ),
                Field.of("t", DataType.TIME),
                Field.of("d", DataType.DATE),
                Field.of("n", DataType.INT32),
                Field.of("m", DataType.INT32),
                Field.of("dd", DataType.INT32),
                Field.of("us", DataType.INT64),
                Field.of("mx", DataType.INTERVAL)), 64);
        List<Interval> same = List.of(Interval.ofMonths(1), Interval.ofDays(30), Interval.ofDays(1),
                Interval.ofMicros(86_400_000_000L), Interval.ZERO, new Interval(0, 1, -86_400_000_000L));
        for (int id = 0; id < 400; id++) {
            Interval iv = switch (random.nextInt(6)) {
                case 0 -> same.get(random.nextInt(same.size()));
                case 1 -> Interval.ofMonths(random.nextInt(49) - 24);
                case 2 -> Interval.ofDays(random.nextInt(81) - 40);
                case 3 -> Interval.ofMicros((random.nextInt(200_000) - 100_000) * 1_000_000L
                        + random.nextInt(1_000_000));
                default -> {
                    int sign = random.nextBoolean() ? 1 : -1;
                    yield new Interval(sign * random.nextInt(13), sign * random.nextInt(31),
                            sign * (random.nextInt(86_400) * 1_000_000L + (random.nextBoolean() ? 0 : 500_000)));
                }
            };
            Interval mixed = new Interval(random.nextInt(25) - 12, random.nextInt(61) - 30,
                    (random.nextInt(172_800) - 86_400) * 1_000_000L + (random.nextBoolean() ? 0 : 500_000));
            LocalDateTime ts = LocalDateTime.of(2024, 1, 1, 0, 0).plusSeconds(random.nextInt(366 * 86_400))
                    .plusNanos(random.nextInt(4) == 0 ? random.nextInt(1_000_000) * 1000L : 0);
            Interval value = (Interval) maybe(random, iv);
            b.addRow(id, value, maybe(random, ts), maybe(random, ts.plusHours(random.nextInt(48))
                    .toInstant(ZoneOffset.UTC)), maybe(random, ts.toLocalTime()), maybe(random, ts.toLocalDate()),
                    maybe(random, random.nextInt(7) - 1), value == null ? null : value.months(),
                    value == null ? null : value.days(), value == null ? null : value.micros(), maybe(random, mixed));
        }
        return b.build();
    }

    private static Object maybe(Random random, Object value) {
        return random.nextInt(10) == 0 ? null : value;
    }
}
