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

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
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
 * The date and time functions of the registry (docs/sql/functions-date.md) against DuckDB over one random
 * table with NULLs and the edges of New York's clock changes, leap days, ISO weeks and the epoch: each case as a
 * plan ({@link Expr#call}, in UTC: a plan's TIMESTAMP WITH TIME ZONE is read in UTC) and as SQL in three session
 * zones (UTC, America/New_York, Asia/Kolkata's half hour), DuckDB's TimeZone set to the same, at 1 and 2 workers,
 * over the whole table and over a selection of a selection; each case compared column by column, and result
 * types against DuckDB's {@code typeof()}.
 *
 * <p>Where Troupe differs from DuckDB on purpose, the case gives DuckDB an expression of Troupe's meaning, and
 * says why: date_trunc to a century or millennium starts it in year 1 (PostgreSQL; DuckDB: year 0); to_char,
 * to_date and to_timestamp(text, pattern) are PostgreSQL's (DuckDB has none), so DuckDB computes the same text
 * with strftime and the same times with strptime. day() is written dayofmonth() in SQL (Calcite's parser does
 * not take DAY as a function name); date_diff's SQL is written datediff, its other name.
 */
class DateTimeFunctionsTest {

    private static final int ROWS = 1500;
    private static final List<String> ZONES = List.of("UTC", "America/New_York", "Asia/Kolkata");
    private static final Schema SCHEMA = Schema.of(
            Field.of("id", DataType.INT32),
            Field.of("d", DataType.DATE), Field.of("d2", DataType.DATE),
            Field.of("ts", DataType.TIMESTAMP), Field.of("ts2", DataType.TIMESTAMP),
            Field.of("tz", DataType.TIMESTAMP_TZ), Field.of("tz2", DataType.TIMESTAMP_TZ),
            Field.of("t", DataType.TIME), Field.of("t2", DataType.TIME),
            Field.of("y", DataType.INT64), Field.of("mo", DataType.INT64), Field.of("dd", DataType.INT64),
            Field.of("h", DataType.INT64), Field.of("mi", DataType.INT64), Field.of("sec", DataType.FLOAT64),
            Field.of("us", DataType.INT64), Field.of("ms", DataType.INT64), Field.of("secs", DataType.FLOAT64),
            Field.of("s_iso", DataType.VARCHAR), Field.of("s_dmy", DataType.VARCHAR),
            Field.of("s_mon", DataType.VARCHAR), Field.of("s_off", DataType.VARCHAR));
    private static final String WHERE = " WHERE id % 3 <> 0 AND id < 1200";

    private static Troupe troupe;
    private static DuckDbOracle duck;

    /** One expression: the plan's (null where SQL alone has it), Troupe's SQL and DuckDB's SQL of the same values. */
    private record Case(Expr expr, String sql, String duckSql) {

        boolean sameSql() {
            return sql.equals(duckSql);
        }
    }

    private static Case of(Expr expr, String sql) {
        return new Case(expr, sql, sql);
    }

    /** A case DuckDB writes otherwise, giving Troupe's values (see the class comment for why each differs). */
    private static Case as(Expr expr, String sql, String duckSql) {
        return new Case(expr, sql, duckSql);
    }

    @BeforeAll
    static void load() throws Exception {
        troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(100));
        TableBuilder table = new TableBuilder("r", SCHEMA, 400);
        Random random = new Random(20261207);
        List<LocalDateTime> edges = List.of(LocalDateTime.of(2024, 3, 10, 2, 30), LocalDateTime.of(2024, 3, 10, 1, 59, 59),
                LocalDateTime.of(2024, 11, 3, 1, 30), LocalDateTime.of(2024, 11, 3, 0, 59, 59, 999_999_000),
                LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_500_000),
                LocalDateTime.of(2024, 2, 29, 12, 0), LocalDateTime.of(2020, 12, 31, 0, 0),
                LocalDateTime.of(2021, 1, 3, 23, 59, 59), LocalDateTime.of(2000, 1, 1, 0, 0),
                LocalDateTime.of(2001, 1, 1, 0, 0), LocalDateTime.of(1999, 12, 31, 23, 30));
        // Instants either side of New York's clock changes of 2024: the gap of March 10, the hour of November 3
        // that passes twice.
        ZoneId newYork = ZoneId.of("America/New_York");
        List<Instant> clockChanges = List.of(LocalDateTime.of(2024, 3, 10, 1, 59, 59).atZone(newYork).toInstant(),
                LocalDateTime.of(2024, 3, 10, 3, 0).atZone(newYork).toInstant(),
                LocalDateTime.of(2024, 11, 3, 1, 30).atZone(newYork).withEarlierOffsetAtOverlap().toInstant(),
                LocalDateTime.of(2024, 11, 3, 1, 30, 15).atZone(newYork).withLaterOffsetAtOverlap().toInstant(),
                LocalDateTime.of(2024, 11, 3, 0, 59, 59).atZone(newYork).toInstant(),
                LocalDateTime.of(2024, 11, 3, 2, 0).atZone(newYork).toInstant());
        DateTimeFormatter iso = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
        DateTimeFormatter dmy = DateTimeFormatter.ofPattern("d/M/yy h:mm a", Locale.ROOT);
        DateTimeFormatter mon = DateTimeFormatter.ofPattern("MMM dd yyyy", Locale.ROOT);
        for (int id = 0; id < ROWS; id++) {
            LocalDateTime ts = random.nextInt(8) == 0 ? edges.get(random.nextInt(edges.size())) : anyTime(random, 1901, 198);
            LocalDateTime ts2 = anyTime(random, 1901, 198);
            LocalDateTime zoned = random.nextInt(8) == 0 ? edges.get(random.nextInt(edges.size())) : anyTime(random, 1950, 110);
            Instant tz = random.nextInt(10) == 0 ? clockChanges.get(random.nextInt(clockChanges.size()))
                    : zoned.toInstant(ZoneOffset.UTC);
            Instant tz2 = random.nextBoolean() ? tz.plusSeconds(random.nextInt(200_000) - 100_000)
                    : anyTime(random, 1950, 110).toInstant(ZoneOffset.UTC);
            LocalDate day = LocalDate.of(1901 + random.nextInt(198), 1 + random.nextInt(12), 1);
            day = day.withDayOfMonth(1 + random.nextInt(day.lengthOfMonth()));
            long micros = random.nextInt(60_000_000);
            // Two-digit years 70 to 68: of '69' PostgreSQL reads 2069, DuckDB 1969 (tested apart).
            LocalDateTime text = anyTime(random, 1970, 99).withNano(0);
            table.addRow(id, nullOr(random, ts.toLocalDate()), nullOr(random, ts2.toLocalDate()), nullOr(random, ts),
                    nullOr(random, ts2), nullOr(random, tz), nullOr(random, tz2), nullOr(random, ts.toLocalTime()),
                    nullOr(random, ts2.toLocalTime()),
                    nullOr(random, (long) day.getYear()), nullOr(random, (long) day.getMonthValue()),
                    nullOr(random, (long) day.getDayOfMonth()), nullOr(random, (long) random.nextInt(24)),
                    nullOr(random, (long) random.nextInt(60)), nullOr(random, micros / 1e6),
                    nullOr(random, random.nextLong() % 4_000_000_000_000_000L),
                    nullOr(random, random.nextLong() % 4_000_000_000_000L),
                    nullOr(random, (random.nextLong() % 4_000_000_000_000_000L) / 1e6),
                    nullOr(random, text.format(iso)), nullOr(random, text.format(dmy)), nullOr(random, text.format(mon)),
                    nullOr(random, text.format(iso) + offset(random)));
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

    private static LocalDateTime anyTime(Random random, int fromYear, int years) {
        return LocalDateTime.of(fromYear, 1, 1, 0, 0).plusSeconds((long) (random.nextDouble() * years * 365.2425 * 86_400))
                .plusNanos(random.nextInt(3) == 0 ? 0 : random.nextInt(1_000_000) * 1000L);
    }

    private static String offset(Random random) {
        int minutes = (random.nextInt(27) - 12) * 60 + (random.nextBoolean() ? 0 : 30);
        return String.format(Locale.ROOT, "%s%02d:%02d", minutes < 0 ? "-" : "+", Math.abs(minutes) / 60,
                Math.abs(minutes) % 60);
    }

    private static Object nullOr(Random random, Object value) {
        return random.nextInt(8) == 0 ? null : value;
    }

    // ------------------------------------------------------------------ the cases

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // date_trunc: PostgreSQL's units; a DATE gives a TIMESTAMP
        for (String unit : List.of("microseconds", "milliseconds", "second", "minute", "hour", "day", "week", "month",
                "quarter", "year", "decade")) {
            for (String c : List.of("ts", "d", "tz")) {
                String sql = "date_trunc('" + unit + "', " + c + ")";
                // An instant truncated to the hour keeps its offset (PostgreSQL); DuckDB reads the local hour back
                // in the zone, which in the hour a clock is put back gives the later pass (2024-11-03 05:30Z in New
                // York: PostgreSQL 05:00Z, DuckDB 06:00Z).
                cases.add(c.equals("tz") && unit.equals("hour") ? as(call("date_trunc", lit(unit), col(c)), sql,
                        "to_timestamp(floor((epoch(tz) + date_part('timezone', tz)) / 3600) * 3600 "
                                + "- date_part('timezone', tz))") : of(call("date_trunc", lit(unit), col(c)), sql));
            }
        }
        // A century and a millennium start in year 1 (PostgreSQL); DuckDB starts them in year 0.
        for (String c : List.of("ts", "d")) {
            cases.add(as(call("date_trunc", lit("century"), col(c)), "date_trunc('century', " + c + ")",
                    "make_timestamp((year(" + c + ") + 99) // 100 * 100 - 99, 1, 1, 0, 0, 0)"));
            cases.add(as(call("datetrunc", lit("millennium"), col(c)), "datetrunc('millennium', " + c + ")",
                    "make_timestamp((year(" + c + ") + 999) // 1000 * 1000 - 999, 1, 1, 0, 0, 0)"));
        }
        cases.add(as(call("date_trunc", lit("century"), col("tz")), "date_trunc('century', tz)",
                "make_timestamptz((year(tz) + 99) // 100 * 100 - 99, 1, 1, 0, 0, 0)"));
        // date_part: every field of each type
        for (String field : List.of("year", "quarter", "month", "week", "day", "dow", "isodow", "doy", "isoyear",
                "decade", "century", "millennium", "hour", "minute", "second", "millisecond", "microsecond", "epoch")) {
            for (String c : List.of("ts", "d", "tz")) {
                cases.add(of(call("date_part", lit(field), col(c)), "date_part('" + field + "', " + c + ")"));
            }
            if (List.of("hour", "minute", "second", "millisecond", "microsecond", "epoch").contains(field)) {
                cases.add(of(call("datepart", lit(field), col("t")), "datepart('" + field + "', t)"));
            }
        }
        cases.add(of(null, "EXTRACT(DOW FROM tz)"));
        // DuckDB's one-field functions
        String[][] parts = {{"year", "tz"}, {"quarter", "d"}, {"month", "ts"}, {"week", "tz"}, {"weekofyear", "d"},
            {"dayofmonth", "tz"}, {"dayofweek", "ts"}, {"weekday", "tz"}, {"isodow", "d"}, {"dayofyear", "tz"},
            {"isoyear", "ts"}, {"decade", "d"}, {"century", "tz"}, {"millennium", "ts"}, {"hour", "t"}, {"hour", "tz"},
            {"minute", "ts"}, {"second", "t"}, {"millisecond", "tz"}, {"microsecond", "t"}, {"epoch", "tz"},
            {"epoch", "t"}, {"epoch", "d"}};
        for (String[] p : parts) {
            cases.add(of(call(p[0], col(p[1])), p[0] + "(" + p[1] + ")"));
        }
        cases.add(as(call("day", col("ts")), "dayofmonth(ts)", "day(ts)"));
        // datediff: DuckDB's boundaries
        for (String unit : List.of("year", "quarter", "month", "week", "day", "dow", "doy", "isoyear", "decade",
                "century", "millennium", "hour", "minute", "second", "epoch", "millisecond", "microsecond")) {
            cases.add(of(call("datediff", lit(unit), col("d"), col("d2")), "datediff('" + unit + "', d, d2)"));
            cases.add(of(call("date_diff", lit(unit), col("ts"), col("ts2")), "datediff('" + unit + "', ts, ts2)"));
            cases.add(of(call("datediff", lit(unit), col("tz"), col("tz2")), "datediff('" + unit + "', tz, tz2)"));
        }
        for (String unit : List.of("hour", "minute", "second", "millisecond", "microsecond")) {
            cases.add(of(call("datediff", lit(unit), col("t"), col("t2")), "datediff('" + unit + "', t, t2)"));
        }
        // age: PostgreSQL's calendar difference, either way round; of one time, from today's midnight (SQL only)
        for (String[] pair : new String[][] {{"ts", "ts2"}, {"ts2", "ts"}, {"d", "d2"}, {"tz", "tz2"}, {"tz2", "tz"}}) {
            cases.add(of(call("age", col(pair[0]), col(pair[1])), "age(" + pair[0] + ", " + pair[1] + ")"));
        }
        // DuckDB counts age(ts) from midnight of the UTC date, PostgreSQL from the session's current_date.
        cases.add(as(null, "age(ts)", "age(CAST(current_date AS TIMESTAMP), ts)"));
        cases.add(of(null, "age(tz)"));
        // construction and epochs
        cases.add(of(call("make_date", col("y"), col("mo"), col("dd")), "make_date(y, mo, dd)"));
        cases.add(of(call("make_time", col("h"), col("mi"), col("sec")), "make_time(h, mi, sec)"));
        cases.add(of(call("make_timestamp", col("y"), col("mo"), col("dd"), col("h"), col("mi"), col("sec")),
                "make_timestamp(y, mo, dd, h, mi, sec)"));
        cases.add(of(call("make_timestamptz", col("y"), col("mo"), col("dd"), col("h"), col("mi"), col("sec")),
                "make_timestamptz(y, mo, dd, h, mi, sec)"));
        cases.add(of(call("make_timestamptz", col("y"), col("mo"), col("dd"), col("h"), col("mi"), col("sec"),
                lit("Europe/Amsterdam")), "make_timestamptz(y, mo, dd, h, mi, sec, 'Europe/Amsterdam')"));
        cases.add(of(call("make_timestamp", col("us")), "make_timestamp(us)"));
        cases.add(of(call("make_timestamptz", col("us")), "make_timestamptz(us)"));
        cases.add(of(call("epoch_ms", col("ms")), "epoch_ms(ms)"));
        cases.add(of(call("to_timestamp", col("secs")), "to_timestamp(secs)"));
        for (String f : List.of("epoch_ms", "epoch_us", "epoch_ns")) {
            for (String c : List.of("ts", "d", "tz", "t")) {
                cases.add(of(call(f, col(c)), f + "(" + c + ")"));
            }
        }
        for (String c : List.of("ts", "d", "tz")) {
            cases.add(of(call("last_day", col(c)), "last_day(" + c + ")"));
            cases.add(of(call("dayname", col(c)), "dayname(" + c + ")"));
            cases.add(of(call("monthname", col(c)), "monthname(" + c + ")"));
        }
        // strftime and strptime, DuckDB's own
        for (String format : List.of("%Y-%m-%d %H:%M:%S.%f", "%-d/%-m/%-y %-H:%-M:%-S %-I%p %-j", "%a %A %b %h %B %w %u",
                "%j %U %W %V %G %y %g %I", "%c|%x|%X|%T|%%|%z|%Z")) {
            for (String c : List.of("ts", "d", "tz")) {
                cases.add(of(call("strftime", col(c), lit(format)), "strftime(" + c + ", '" + format + "')"));
            }
        }
        for (String[] p : new String[][] {{"s_iso", "%Y-%m-%d %H:%M:%S"}, {"s_dmy", "%d/%m/%y %I:%M %p"},
            {"s_mon", "%b %d %Y"}, {"s_off", "%Y-%m-%d %H:%M:%S%z"}}) {
            cases.add(of(call("strptime", col(p[0]), lit(p[1])), "strptime(" + p[0] + ", '" + p[1] + "')"));
        }
        // to_char: PostgreSQL's patterns, the same text as DuckDB's strftime writes
        String[][] patterns = {
            {"YYYY-MM-DD HH24:MI:SS.US", "strftime(%s, '%%Y-%%m-%%d %%H:%%M:%%S.%%f')"},
            {"Dy Mon DD HH12:MI:SS AM", "strftime(%s, '%%a %%b %%d %%I:%%M:%%S %%p')"},
            {"FMDay, FMMonth FMDD, YYYY", "strftime(%s, '%%A, %%B %%-d, %%Y')"},
            {"DDD IW IYYY MS", "strftime(%s, '%%j %%V %%G %%g')"},
            {"Day|Month|", "rpad(strftime(%1$s, '%%A'), 9, ' ') || '|' || rpad(strftime(%1$s, '%%B'), 9, ' ') || '|'"},
            {"MONTH mon DY day", "upper(rpad(strftime(%1$s, '%%B'), 9, ' ')) || ' ' || lower(strftime(%1$s, '%%b')) || ' '"
                + " || upper(strftime(%1$s, '%%a')) || ' ' || lower(rpad(strftime(%1$s, '%%A'), 9, ' '))"},
            {"Q D ID CC SSSS", "quarter(%1$s)::VARCHAR || ' ' || (dayofweek(%1$s) + 1)::VARCHAR || ' ' || "
                + "isodow(%1$s)::VARCHAR || ' ' || lpad(century(%1$s)::VARCHAR, 2, '0') || ' ' || "
                + "(hour(%1$s) * 3600 + minute(%1$s) * 60 + second(%1$s))::VARCHAR"},
            {"YYYY-MM-DD\"T\"HH24:MI:SSOF", "strftime(%s, '%%Y-%%m-%%dT%%H:%%M:%%S%%z')"},
            {"FMHH12 am a.m. P.M. FMMM FMDDD", "strftime(%1$s, '%%-I ') || lower(strftime(%1$s, '%%p')) || ' ' || "
                + "replace(lower(strftime(%1$s, '%%p')), 'm', '.m.') || ' ' || replace(strftime(%1$s, '%%p'), 'M', '.M.')"
                + " || strftime(%1$s, ' %%-m %%-j')"}};
        for (String[] p : patterns) {
            for (String c : List.of("ts", "d", "tz")) {
                cases.add(as(call("to_char", col(c), lit(p[0])), "to_char(" + c + ", '" + p[0].replace("'", "''") + "')",
                        String.format(Locale.ROOT, p[1], c)));
            }
        }
        // to_date and to_timestamp: PostgreSQL's, the times DuckDB's strptime reads
        cases.add(as(call("to_date", col("s_iso"), lit("YYYY-MM-DD")), "to_date(s_iso, 'YYYY-MM-DD')",
                "CAST(strptime(s_iso, '%Y-%m-%d %H:%M:%S') AS DATE)"));
        cases.add(as(call("to_date", col("s_mon"), lit("Mon DD YYYY")), "to_date(s_mon, 'Mon DD YYYY')",
                "CAST(strptime(s_mon, '%b %d %Y') AS DATE)"));
        cases.add(as(call("to_timestamp", col("s_iso"), lit("YYYY-MM-DD HH24:MI:SS")),
                "to_timestamp(s_iso, 'YYYY-MM-DD HH24:MI:SS')",
                "CAST(strptime(s_iso, '%Y-%m-%d %H:%M:%S') AS TIMESTAMPTZ)"));
        cases.add(as(call("to_timestamp", col("s_dmy"), lit("DD/MM/YY HH12:MI AM")),
                "to_timestamp(s_dmy, 'DD/MM/YY HH12:MI AM')",
                "CAST(strptime(s_dmy, '%d/%m/%y %I:%M %p') AS TIMESTAMPTZ)"));
        cases.add(as(call("to_timestamp", col("s_off"), lit("YYYY-MM-DD HH24:MI:SSOF")),
                "to_timestamp(s_off, 'YYYY-MM-DD HH24:MI:SSOF')", "strptime(s_off, '%Y-%m-%d %H:%M:%S%z')"));
        return cases;
    }

    // ------------------------------------------------------------------ the tests

    @Test
    void shouldComputeWhatDuckDbComputesAsPlansInUtc() throws Exception {
        duck.execute("SET TimeZone = 'UTC'");
        List<Case> cases = cases().stream().filter(c -> c.expr() != null).toList();
        for (int workers : new int[] {1, 2}) {
            compare(cases, Plan.scan("r"), "", workers, null);
            // Two filters in a row: the functions see a selection of a selection.
            compare(cases, Plan.scan("r").filter(col("id").mod(lit(3)).ne(lit(0))).filter(col("id").lt(lit(1200))),
                    WHERE, workers, null);
        }
    }

    @Test
    void shouldComputeWhatDuckDbComputesAsSqlInEachSessionZone() throws Exception {
        for (String zone : ZONES) {
            duck.execute("SET TimeZone = '" + zone + "'");
            for (int workers : new int[] {1, 2}) {
                compare(cases(), null, workers == 1 ? "" : WHERE, workers, zone);
            }
        }
    }

    /**
     * The calls that take a zone, as plans naming New York: the values DuckDB computes in a New York session (a
     * plan's two-argument calls read an instant in UTC, and SQL passes its session's zone to these).
     */
    @Test
    void shouldReadInstantsInTheZoneAPlanNames() throws Exception {
        duck.execute("SET TimeZone = 'America/New_York'");
        Expr newYork = lit("America/New_York");
        List<Case> cases = new ArrayList<>();
        for (String unit : List.of("minute", "day", "week", "month", "year")) {
            String sql = "date_trunc('" + unit + "', tz)";
            cases.add(of(call("datetrunc", lit(unit), col("tz"), newYork), sql));
        }
        cases.add(of(call("date_trunc", lit("hour"), col("tz"), newYork),
                "to_timestamp(floor((epoch(tz) + date_part('timezone', tz)) / 3600) * 3600 - date_part('timezone', tz))"));
        cases.add(of(call("strftime", col("tz"), lit("%Y-%m-%d %H:%M:%S.%f %z %Z"), newYork),
                "strftime(tz, '%Y-%m-%d %H:%M:%S.%f %z %Z')"));
        cases.add(of(call("to_char", col("tz"), lit("YYYY-MM-DD HH24:MI:SSOF"), newYork),
                "strftime(tz, '%Y-%m-%d %H:%M:%S%z')"));
        cases.add(of(call("to_timestamp", col("s_iso"), lit("YYYY-MM-DD HH24:MI:SS"), newYork),
                "CAST(strptime(s_iso, '%Y-%m-%d %H:%M:%S') AS TIMESTAMPTZ)"));
        cases.add(of(call("make_timestamptz", col("y"), col("mo"), col("dd"), col("h"), col("mi"), col("sec"), newYork),
                "make_timestamptz(y, mo, dd, h, mi, sec)"));
        compare(cases, Plan.scan("r"), "", 2, null);
    }

    /** The cases as a plan over {@code input} (zone null) or as SQL in {@code zone}, column by column against DuckDB. */
    private static void compare(List<Case> cases, Plan input, String where, int workers, String zone) throws Exception {
        List<Expr> exprs = new ArrayList<>(List.of(col("id")));
        StringBuilder select = new StringBuilder("SELECT id");
        StringBuilder duckSelect = new StringBuilder("SELECT id");
        for (int c = 0; c < cases.size(); c++) {
            if (input != null) {
                exprs.add(cases.get(c).expr().as("e" + c));
            }
            select.append(", ").append(cases.get(c).sql());
            duckSelect.append(", ").append(cases.get(c).duckSql());
        }
        String tail = " FROM r" + where + " ORDER BY id";
        List<List<Object>> expected = duck.query(duckSelect + tail).rows();
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        List<List<Object>> actual = byId(input != null ? troupe.execute(input.project(exprs.toArray(new Expr[0])),
                options).rows() : troupe.sql(select + tail, options.withTimeZone(ZoneId.of(zone))).rows());
        assertTrue(expected.size() > ROWS / 2, "rows: " + expected.size());
        List<String> wrong = new ArrayList<>();
        for (int c = 0; c < cases.size(); c++) {
            String diff = ResultComparator.compare(column(expected, c + 1), column(actual, c + 1), true);
            if (diff != null) {
                wrong.add(cases.get(c).sql() + " (DuckDB: " + cases.get(c).duckSql() + "): " + diff);
            }
        }
        assertEquals(List.of(), wrong, (input != null ? "plan" : "SQL in " + zone) + " at " + workers + " workers"
                + where);
    }

    private static List<List<Object>> column(List<List<Object>> rows, int c) {
        List<List<Object>> out = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            out.add(java.util.Arrays.asList(row.get(0), row.get(c)));
        }
        return out;
    }

    private static List<List<Object>> byId(List<List<Object>> rows) {
        List<List<Object>> sorted = new ArrayList<>(DuckDbOracle.normalise(rows));
        sorted.sort(Comparator.comparingLong(row -> (Long) row.get(0)));
        return sorted;
    }

    @Test
    void shouldTypeResultsAsDuckDbTypeofSays() throws Exception {
        duck.execute("SET TimeZone = 'UTC'");
        List<Case> cases = cases().stream().filter(c -> c.expr() != null).toList();
        List<String> typeofs = cases.stream().map(c -> "typeof(" + c.duckSql() + ")").toList();
        List<Object> duckTypes = duck.query("SELECT " + String.join(", ", typeofs) + " FROM r LIMIT 1").rows().get(0);
        Schema plan = troupe.execute(Plan.scan("r").project(cases.stream().map(Case::expr).toArray(Expr[]::new))
                .limit(1)).schema();
        Schema sql = troupe.sql("SELECT " + String.join(", ", cases.stream().map(Case::sql).toList())
                + " FROM r LIMIT 1").schema();
        List<String> wrong = new ArrayList<>();
        for (int c = 0; c < cases.size(); c++) {
            String expected = (String) duckTypes.get(c);
            String fromPlan = plan.field(c).type().sqlName();
            String fromSql = sql.field(c).type().sqlName();
            if (!expected.equals(fromPlan) || !expected.equals(fromSql)) {
                wrong.add(cases.get(c).sql() + ": DuckDB " + expected + ", plan " + fromPlan + ", SQL " + fromSql);
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** The value of {@code SELECT expression} in {@code zone}. */
    private static Object value(String expression, String zone) {
        return troupe.sql("SELECT " + expression, QueryOptions.defaults().withTimeZone(ZoneId.of(zone))).rows().get(0)
                .get(0);
    }

    /** The cases, SQL expressions and their values in {@code zone}, whose value is another. */
    private static List<String> mismatches(Map<String, Object> cases, String zone) {
        List<String> wrong = new ArrayList<>();
        cases.forEach((sql, expected) -> {
            Object actual = value(sql, zone);
            if (!expected.equals(actual)) {
                wrong.add(sql + ": expected '" + expected + "', got '" + actual + "'");
            }
        });
        return wrong;
    }

    /**
     * to_char's patterns that DuckDB cannot write (ordinals, Roman months, Y,YYY, weeks of the month, Julian days,
     * FFn, quoted text, fill mode, TM), each as PostgreSQL's formatting.c writes it.
     */
    @Test
    void shouldWriteToCharPatternsAsPostgreSql() {
        Map<String, Object> cases = new java.util.LinkedHashMap<>();
        cases.put("to_char(TIMESTAMP '2002-04-20 17:31:12.66', 'HH12:MI:SS')", "05:31:12");
        cases.put("to_char(TIMESTAMP '2001-02-16 20:38:40', 'Day, DD  HH12:MI:SS')", "Friday   , 16  08:38:40");
        cases.put("to_char(TIMESTAMP '2001-02-16 20:38:40', 'FMDay, FMDD  HH12:MI:SS')", "Friday, 16  08:38:40");
        cases.put("to_char(DATE '2024-03-01', 'DDth DDTH FMDDth')", "01st 01ST 1st");
        for (String[] ordinal : new String[][] {{"02", "nd"}, {"03", "rd"}, {"04", "th"}, {"11", "th"}, {"12", "th"},
            {"13", "th"}, {"21", "st"}, {"22", "nd"}, {"23", "rd"}}) {
            cases.put("to_char(DATE '2024-03-" + ordinal[0] + "', 'DDth')", ordinal[0] + ordinal[1]);
        }
        cases.put("to_char(DATE '2024-03-15', 'RM|rm|FMRM')", "III |iii |III");
        cases.put("to_char(DATE '2024-03-15', 'Y,YYY YYY YY Y')", "2,024 024 24 4");
        cases.put("to_char(DATE '2024-03-15', 'W WW J CC Q')", "3 11 2460385 21 1");
        cases.put("to_char(TIMESTAMP '2024-03-15 13:45:30.123456', 'FF1 FF2 FF3 FF4 FF5 FF6 MS US')",
                "1 12 123 1234 12345 123456 123 123456");
        cases.put("to_char(TIMESTAMP '2024-03-15 13:45:30', '\"Year\" YYYY, \"Q\"Q')", "Year 2024, Q1");
        cases.put("to_char(TIMESTAMP '2024-03-15 00:05:00', 'HH HH12 HH24 AM am A.M. a.m. PM')", "12 12 00 AM am A.M. a.m. AM");
        cases.put("to_char(DATE '2024-03-15', 'TMMonth TMDay|Month|')", "March Friday|March    |");
        cases.put("to_char(TIMESTAMP '2024-03-15 13:45:30', 'SSSS SSSSS FMHH24:FMMI')", "49530 49530 13:45");
        cases.put("to_char(DATE '2021-01-03', 'IYYY-IW-ID IDDD YYYY-WW')", "2020-53-7 371 2021-01");
        // Any letters of a pattern may be one: y is Y, the year's last digit.
        cases.put("to_char(DATE '2024-03-15', 'YYYY xyz \"xyz\"')", "2024 x4z xyz");
        cases.put("to_char(DATE '2024-03-15', '\\\"YYYY\\\"')", "\"2024\"");
        cases.put("to_char(DATE '2024-03-15', 'FMYYYY-FMMM-FMDD AD ad B.C.')", "2024-3-15 AD ad A.D.");
        cases.put("to_char(CAST(TIMESTAMP '2024-07-01 12:00:00' AS TIMESTAMP WITH LOCAL TIME ZONE), "
                + "'HH24:MI OF TZH TZM')", "12:00 +05:30 +05 30");
        assertEquals(List.of(), mismatches(cases, "Asia/Kolkata"));
        assertNull(value("to_char(DATE '2024-03-15', '')", "UTC"), "PostgreSQL's to_char of an empty pattern is NULL");
    }

    /**
     * to_date and to_timestamp read text as PostgreSQL does: lenient separators, fields that take the digits there
     * are before a separator, text past the pattern ignored, two-digit years nearest 2020 ('69' is 2069, where
     * DuckDB's strptime %y says 1969).
     */
    @Test
    void shouldReadTextAsPostgreSql() {
        Map<String, Object> cases = new java.util.LinkedHashMap<>();
        cases.put("to_date('05 Dec 2000', 'DD Mon YYYY')", LocalDate.of(2000, 12, 5));
        cases.put("to_date('2000    JUN', 'YYYY MON')", LocalDate.of(2000, 6, 1));
        cases.put("to_date('2000JUN', 'YYYY MON')", LocalDate.of(2000, 6, 1));
        cases.put("to_date('2000-JUN', 'YYYY MON')", LocalDate.of(2000, 6, 1));
        cases.put("to_date('20240315', 'YYYYMMDD')", LocalDate.of(2024, 3, 15));
        cases.put("to_date('2024-3-5', 'YYYY-MM-DD')", LocalDate.of(2024, 3, 5));
        cases.put("to_date('69-01-01', 'YY-MM-DD')", LocalDate.of(2069, 1, 1));
        cases.put("to_date('70-01-01', 'YY-MM-DD')", LocalDate.of(1970, 1, 1));
        cases.put("to_date('2024 075', 'YYYY DDD')", LocalDate.of(2024, 3, 15));
        cases.put("to_date('2024', 'YYYY')", LocalDate.of(2024, 1, 1));
        cases.put("to_date('March 15, 2024', 'Month DD, YYYY')", LocalDate.of(2024, 3, 15));
        cases.put("to_date('2024-03', 'YYYY-MM-DD')", LocalDate.of(2024, 3, 1));
        cases.put("to_date('2024-03-15 and more', 'YYYY-MM-DD')", LocalDate.of(2024, 3, 15));
        cases.put("to_date('2024 iii 15', 'YYYY RM DD')", LocalDate.of(2024, 3, 15));
        cases.put("to_date('21 24', 'CC YY')", LocalDate.of(2024, 1, 1));
        cases.put("to_date('2460385', 'J')", LocalDate.of(2024, 3, 15));
        cases.put("to_timestamp('2024-01-05 12:00 AM', 'YYYY-MM-DD HH12:MI AM')",
                Instant.parse("2024-01-05T00:00:00Z"));
        cases.put("to_timestamp('2024-03-15 13:45:30.5', 'YYYY-MM-DD HH24:MI:SS.MS')",
                Instant.parse("2024-03-15T13:45:30.500Z"));
        cases.put("to_timestamp('2024-03-15 13:45:30.25', 'YYYY-MM-DD HH24:MI:SS.US')",
                Instant.parse("2024-03-15T13:45:30.250Z"));
        cases.put("to_timestamp('2024-03-15 13:45:30 -05:30', 'YYYY-MM-DD HH24:MI:SS OF')",
                Instant.parse("2024-03-15T19:15:30Z"));
        cases.put("to_timestamp('2024-03-15 13:45 +02', 'YYYY-MM-DD HH24:MI TZH')", Instant.parse("2024-03-15T11:45:00Z"));
        cases.put("to_timestamp('49530', 'SSSS')", Instant.parse("0000-01-01T13:45:30Z"));
        assertEquals(List.of(), mismatches(cases, "UTC"));
        // In the session's zone: New York's local time, the hour that passes twice read as its later pass (EST).
        assertEquals(Instant.parse("2024-03-15T04:00:00Z"), value("to_timestamp('15/03/2024', 'DD/MM/YYYY')",
                "America/New_York"));
        assertEquals(Instant.parse("2024-11-03T06:30:00Z"), value("to_timestamp('2024-11-03 01:30', "
                + "'YYYY-MM-DD HH24:MI')", "America/New_York"));
        assertEquals(Instant.parse("2024-03-10T07:30:00Z"), value("make_timestamptz(2024, 3, 10, 2, 30, 0)",
                "America/New_York"));
        assertEquals(Instant.parse("2024-11-03T06:30:00Z"), value("make_timestamptz(2024, 11, 3, 1, 30, 0)",
                "America/New_York"));
    }

    /** A value a function does not take fails the query in PostgreSQL's words, naming the value and the call. */
    @Test
    void shouldFailNamingTheValueAndTheCall() {
        Map<String, String> errors = new java.util.LinkedHashMap<>();
        errors.put("make_date(2024, 2, 30)", "date field value out of range: 2024-02-30 in make_date(2024, 2, 30)");
        errors.put("make_date(0, 1, 1)", "date field value out of range: 0-01-01");
        errors.put("make_time(25, 0, 0)", "time field value out of range: 25:00:00");
        errors.put("make_time(12, 30, 60.5)", "time field value out of range: 12:30:60.5");
        errors.put("make_timestamp(2023, 2, 29, 0, 0, 0)", "date field value out of range: 2023-02-29");
        errors.put("make_timestamptz(2024, 1, 1, 0, 0, 0, 'Mars/Olympus')", "time zone \"Mars/Olympus\" not recognized");
        errors.put("to_timestamp(1e20)", "timestamp out of range: \"1.0E20\"");
        errors.put("epoch_ns(TIMESTAMP '2300-01-01 00:00:00')", "bigint out of range: 2300-01-01 00:00:00");
        errors.put("to_date('2024-ab-05', 'YYYY-MM-DD')", "invalid value \"ab\" for \"MM\" (Value must be an "
                + "integer.): \"2024-ab-05\" does not match the format \"YYYY-MM-DD\" in to_date('2024-ab-05', "
                + "'YYYY-MM-DD')");
        errors.put("to_date('2024-02-30', 'YYYY-MM-DD')", "date/time field value out of range: \"2024-02-30\"");
        errors.put("to_date('xx 2024', 'Mon YYYY')", "invalid value \"xx\" for \"Mon\"");
        errors.put("to_timestamp('2024-01-05 13:04', 'YYYY-MM-DD HH:MI')", "hour \"13\" is invalid for the 12-hour clock");
        errors.put("to_date('2000    JUN', 'FXYYYY MON')", "invalid value \"\" for \"MON\"");
        errors.put("to_date('2024-1', 'YYYY-MMDD')", "source string too short for \"MM\" formatting field");
        errors.put("strptime('2024-02-3x', '%Y-%m-%d')", "trailing characters at byte 10: \"2024-02-3x\" does not "
                + "match the format \"%Y-%m-%d\" in strptime('2024-02-3x', '%Y-%m-%d')");
        errors.put("strptime('2024-02-30', '%Y-%m-%d')", "date out of range: 2024-2-30");
        errors.put("strptime('2024-13-01', '%Y-%m-%d')", "Month out of range, expected a value between 1 and 12 at byte 6");
        errors.forEach((sql, message) -> {
            QueryDataException e = assertThrows(QueryDataException.class, () -> troupe.sql("SELECT " + sql), sql);
            assertTrue(e.getMessage().startsWith(message), sql + ": " + e.getMessage());
            assertEquals(sql.startsWith("epoch_ns") || sql.startsWith("to_timestamp(1e20)")
                    ? QueryDataException.Kind.OVERFLOW : QueryDataException.Kind.INVALID_ARGUMENT, e.kind(), sql);
        });
        QueryDataException nan = assertThrows(QueryDataException.class, () -> troupe.execute(Plan.scan("r")
                .project(call("to_timestamp", lit(Double.NaN)).as("v"))));
        assertEquals("timestamp cannot be NaN in to_timestamp(NaN)", nan.getMessage());
        // Over a column, with workers: the row's text is named.
        String message = assertThrows(QueryDataException.class, () -> troupe.execute(Plan.scan("r")
                .project(call("to_date", col("s_dmy"), lit("YYYY-MM-DD")).as("v")), QueryOptions.defaults()
                .withWorkers(2))).getMessage();
        assertTrue(message.matches(".*: \"[0-9/ :APM]+\" does not match the format \"YYYY-MM-DD\" in "
                + "to_date\\(s_dmy, 'YYYY-MM-DD'\\)"), message);
    }

    /** A unit, field or code that does not exist, or that the function does not take, is refused by name. */
    @Test
    void shouldRefuseUnknownUnitsAndCodesByName() {
        Map<String, String> errors = new java.util.LinkedHashMap<>();
        errors.put("date_trunc('dow', ts)", "unit \"dow\" not supported for type timestamp without time zone");
        errors.put("date_trunc('fortnight', tz)", "unit \"fortnight\" not recognized for type timestamp with time zone");
        errors.put("date_part('year', t)", "unit \"year\" not supported for type TIME");
        errors.put("datediff('year', t, t2)", "\"time\" units \"year\" not recognized");
        errors.put("strftime(ts, '%q')", "unrecognized format for strftime/strptime: %q");
        errors.put("strftime(ts, '%n')", "%n (nanoseconds) is not supported");
        errors.put("strftime(ts, '')", "empty format string");
        errors.put("strptime(s_iso, '%U')", "strptime does not read %U");
        errors.put("to_char(ts, 'HH24 TZ')", "the pattern \"TZ\" (a time zone's abbreviation) is not supported");
        errors.put("to_date(s_iso, 'IYYY-IW')", "to_date and to_timestamp do not read the pattern \"IYYY\"");
        errors.put("year(t)", "no function year(TIME); year takes (DATE), (TIMESTAMP), (TIMESTAMP WITH TIME ZONE)");
        errors.put("date_trunc(s_iso, ts)", "date_trunc takes a constant as argument 1");
        errors.put("strftime(tz, '%Y', 'Mars/Olympus')", "time zone \"Mars/Olympus\" not recognized");
        errors.forEach((sql, message) -> {
            SqlException e = assertThrows(SqlException.class, () -> troupe.sql("SELECT " + sql + " FROM r"), sql);
            assertTrue(e.getMessage().startsWith(message), sql + ": " + e.getMessage());
        });
        PlanException plan = assertThrows(PlanException.class, () -> troupe.execute(Plan.scan("r")
                .project(call("date_trunc", lit("dow"), col("ts")).as("v"))));
        assertTrue(plan.getMessage().startsWith("unit \"dow\" not supported for type timestamp without time zone (in "
                + "Project date_trunc('dow', ts)"), plan.getMessage());
        PlanException now = assertThrows(PlanException.class, () -> troupe.execute(Plan.scan("r")
                .project(call("now").as("v"))));
        assertTrue(now.getMessage().contains("now() is the statement's instant, which SQL fixes when it plans a "
                + "statement; a plan takes an instant as a literal"), now.getMessage());
    }

    /** now() and its aliases are the statement's instant, one literal for every row and worker, as CURRENT_TIMESTAMP. */
    @Test
    void shouldFixNowToTheStatementsInstant() throws Exception {
        Instant before = Instant.now();
        var result = troupe.sql("SELECT now(), statement_timestamp(), transaction_timestamp(), get_current_timestamp(), "
                + "CAST(now() AS TIMESTAMP) FROM r", QueryOptions.defaults().withWorkers(2)
                .withTimeZone(ZoneId.of("America/New_York")));
        Instant after = Instant.now();
        assertEquals(DataType.TIMESTAMP_TZ, result.schema().field(0).type());
        java.util.Set<List<Object>> distinct = new java.util.HashSet<>(result.rows());
        assertEquals(1, distinct.size(), distinct.toString());
        List<Object> row = distinct.iterator().next();
        Instant now = (Instant) row.get(0);
        assertTrue(!now.isBefore(before.minusMillis(1)) && !now.isAfter(after), now + " not in [" + before + ", "
                + after + "]");
        assertEquals(java.util.Collections.nCopies(4, now), row.subList(0, 4));
        assertEquals(LocalDateTime.ofInstant(now, ZoneId.of("America/New_York")), row.get(4));
        String plan = troupe.explainSql("SELECT now() FROM r");
        assertTrue(!plan.contains("now("), plan);
    }
}
