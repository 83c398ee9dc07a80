package io.troupe.oracle;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Interval;
import io.troupe.oracle.Term.Kind;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The time types' half of {@link RandomExprs}: literals of TIMESTAMP, TIMESTAMP WITH TIME ZONE, TIME and
 * INTERVAL, and the expressions over them in both languages: + and - with intervals, differences, interval
 * arithmetic, casts between the time types, and the registry's date and time functions (date_trunc,
 * date_part, datediff, last_day, epoch, epoch_ms, make_date, make_time, make_timestamp, make_timestamptz,
 * to_timestamp, strftime, the name functions). A plan reads a TIMESTAMP WITH TIME ZONE in UTC, and the oracle's
 * session runs in UTC ({@link DifferentialCases#load}), so both read the same local times.
 *
 * <p>Where Troupe differs from DuckDB by design (docs/sql/functions-date.md), the generator keeps clear:
 * <ul>
 *   <li>a TIMESTAMP WITH TIME ZONE moved by an interval of months and a time takes the months first in Troupe
 *       (PostgreSQL) and, where it moves back in time, the time first in DuckDB (1999-12-31 05:48:03+00 plus
 *       '-10 months -13:08:22' is 1999-02-27 16:39:41 in Troupe and 1999-02-28 16:39:41 in DuckDB): an instant
 *       moves by an interval of months and days or of days and a time;</li>
 *   <li>date_trunc to a century or millennium starts in a year ending in 01 (PostgreSQL), in DuckDB in 00: not
 *       drawn;</li>
 *   <li>a DATE plus an interval is a TIMESTAMP in both through {@code plus} (a plan's {@code addInterval}, SQL's
 *       {@code date + interval}, is a DATE: not drawn);</li>
 *   <li>two TIMEs subtract in Troupe (PostgreSQL) and not in DuckDB: not drawn.</li>
 * </ul>
 *
 * <p>Not threadsafe (it draws from the generator's Random).
 */
final class TemporalExprs {

    private static final DateTimeFormatter TIMESTAMP_TEXT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    private static final DateTimeFormatter TIME_TEXT = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");
    private static final LocalDateTime EPOCH_2000 = LocalDateTime.of(2000, 1, 1, 0, 0);
    /** date_trunc's units that both engines read alike. */
    private static final List<String> TRUNC_UNITS = List.of("year", "quarter", "month", "week", "day", "hour",
            "minute", "second", "millisecond");
    private static final List<String> DATE_FIELDS = List.of("year", "month", "day", "dow", "isodow", "doy", "quarter",
            "week", "isoyear", "decade");
    private static final List<String> TIME_FIELDS = List.of("hour", "minute", "second", "millisecond", "microsecond");
    private static final List<String> INTERVAL_FIELDS = List.of("year", "month", "day", "hour", "minute", "second",
            "millisecond");
    private static final List<String> DIFF_UNITS = List.of("year", "quarter", "month", "week", "day", "hour",
            "minute", "second");
    private static final List<String> FORMATS = List.of("%Y-%m-%d", "%d/%m/%Y %H:%M:%S", "%j %a %b %y", "%A %B %-d",
            "%H:%M:%S.%f", "%I %p %M");

    private final Random rnd;
    private final RandomExprs exprs;

    TemporalExprs(Random rnd, RandomExprs exprs) {
        this.rnd = rnd;
        this.exprs = exprs;
    }

    // ------------------------------------------------------------------ literals

    /** A literal of a time kind, or null for another kind. */
    Term literal(Kind kind) {
        return switch (kind) {
            case TIMESTAMP -> timestampLiteral(timestamp());
            case TIMESTAMP_TZ -> {
                Instant i = timestamp().toInstant(ZoneOffset.UTC);
                yield Term.plain(Expr.lit(i), "CAST('" + TIMESTAMP_TEXT.format(timestamp(i)) + "+00' AS "
                        + DuckDbOracle.sqlType(DataType.TIMESTAMP_TZ) + ")", DataType.TIMESTAMP_TZ);
            }
            case TIME -> {
                LocalTime t = LocalTime.ofSecondOfDay(rnd.nextInt(86_400)).plusNanos(fraction());
                yield Term.plain(Expr.lit(t), "TIME '" + TIME_TEXT.format(t) + "'", DataType.TIME);
            }
            case INTERVAL -> intervalLiteral(interval(true, true));
            default -> null;
        };
    }

    private static Term timestampLiteral(LocalDateTime t) {
        return Term.plain(Expr.lit(t), "TIMESTAMP '" + TIMESTAMP_TEXT.format(t) + "'", DataType.TIMESTAMP);
    }

    private static Term intervalLiteral(Interval i) {
        return Term.plain(Expr.lit(i), "CAST('" + i + "' AS INTERVAL)", DataType.INTERVAL);
    }

    private static LocalDateTime timestamp(Instant i) {
        return LocalDateTime.ofInstant(i, ZoneOffset.UTC);
    }

    /** Near 2000, within a day, a month or thirty years, as the tables' values are. */
    private LocalDateTime timestamp() {
        long range = new long[] {86_400, 2_678_400, 946_080_000}[rnd.nextInt(3)];
        return EPOCH_2000.plusSeconds((long) ((rnd.nextDouble() * 2 - 1) * range)).plusNanos(fraction());
    }

    private long fraction() {
        return switch (rnd.nextInt(3)) {
            case 0 -> 0;
            case 1 -> rnd.nextInt(1000) * 1_000_000L;
            default -> rnd.nextInt(1_000_000) * 1_000L;
        };
    }

    /** An interval of either sign, with months and a time of day where asked. */
    private Interval interval(boolean months, boolean time) {
        int m = months && rnd.nextBoolean() ? rnd.nextInt(49) - 24 : 0;
        int d = rnd.nextBoolean() ? rnd.nextInt(81) - 40 : 0;
        long micros = time && rnd.nextBoolean() ? (long) ((rnd.nextDouble() * 2 - 1) * 2 * 86_400_000_000L) : 0;
        if (time && rnd.nextInt(4) == 0) {
            micros -= micros % 1_000_000L;
        }
        return new Interval(m, d, micros);
    }

    // ------------------------------------------------------------------ options

    /** Adds the expressions of {@code kind} this class makes to {@code o}. */
    void addOptions(List<Supplier<Term>> o, Kind kind, List<Term> scope, int d) {
        switch (kind) {
            case TIMESTAMP -> {
                o.add(() -> shift(Kind.TIMESTAMP, scope, d));
                o.add(() -> trunc(rnd.nextBoolean() ? Kind.TIMESTAMP : Kind.DATE, scope, d));
                o.add(() -> Terms.cast(exprs.of(rnd.nextBoolean() ? Kind.DATE : Kind.TIMESTAMP_TZ, scope, d),
                        DataType.TIMESTAMP));
                o.add(() -> {
                    // A DATE plus an interval: a TIMESTAMP in both (see the class comment).
                    Term date = exprs.of(Kind.DATE, scope, d);
                    Term i = exprs.of(Kind.INTERVAL, scope, d);
                    return Term.plain(date.expr().plus(i.expr()), "(" + date.sql() + " + " + i.sql() + ")",
                            DataType.TIMESTAMP);
                });
                o.add(() -> Term.plain(Expr.lit(EPOCH_2000.toLocalDate().toString()).cast(DataType.TIMESTAMP),
                        "CAST('" + EPOCH_2000.toLocalDate() + "' AS TIMESTAMP)", DataType.TIMESTAMP));
                o.add(() -> made("make_timestamp", scope, d));
                o.add(() -> {
                    // Milliseconds since 1970 and back: make_timestamp of one argument reads microseconds.
                    Term t = exprs.of(Kind.TIMESTAMP, scope, d);
                    Expr micros = Expr.call("epoch_ms", t.expr()).times(Expr.lit(1000L));
                    return Term.plain(Expr.call("make_timestamp", micros),
                            "make_timestamp(epoch_ms(" + t.sql() + ") * 1000)", DataType.TIMESTAMP);
                });
            }
            case TIMESTAMP_TZ -> {
                o.add(() -> shift(Kind.TIMESTAMP_TZ, scope, d));
                o.add(() -> trunc(Kind.TIMESTAMP_TZ, scope, d));
                o.add(() -> Terms.cast(exprs.of(Kind.TIMESTAMP, scope, d), DataType.TIMESTAMP_TZ));
                o.add(() -> made("make_timestamptz", scope, d));
                o.add(() -> {
                    // Whole seconds since 1970: a DOUBLE that holds them exactly, whatever either engine rounds.
                    Term t = exprs.of(Kind.TIMESTAMP_TZ, scope, d);
                    Expr seconds = Expr.call("floor", Expr.call("epoch", t.expr()));
                    return Term.plain(Expr.call("to_timestamp", seconds), "to_timestamp(floor(epoch(" + t.sql()
                            + ")))", DataType.TIMESTAMP_TZ);
                });
            }
            case TIME -> {
                o.add(() -> shift(Kind.TIME, scope, d));
                o.add(() -> Terms.cast(exprs.of(Kind.TIMESTAMP, scope, d), DataType.TIME));
                o.add(() -> made("make_time", scope, d));
            }
            case INTERVAL -> {
                o.add(() -> difference(scope, d));
                o.add(() -> intervalArithmetic(scope, d));
                o.add(() -> {
                    Term i = exprs.of(Kind.INTERVAL, scope, d);
                    return Term.plain(i.expr().negate(), "(-" + i.sql() + ")", DataType.INTERVAL);
                });
                o.add(() -> scaled(scope, d));
            }
            case DATE -> {
                o.add(() -> Terms.cast(exprs.of(rnd.nextBoolean() ? Kind.TIMESTAMP : Kind.DATE, scope, d),
                        DataType.DATE));
                o.add(() -> {
                    Term t = exprs.of(new Kind[] {Kind.DATE, Kind.TIMESTAMP, Kind.TIMESTAMP_TZ}[rnd.nextInt(3)],
                            scope, d);
                    return Term.plain(Expr.call("last_day", t.expr()), "last_day(" + t.sql() + ")", DataType.DATE);
                });
                o.add(() -> made("make_date", scope, d));
            }
            case INTEGER -> {
                o.add(() -> datePart(scope, d));
                o.add(() -> {
                    Term t = exprs.of(Kind.TIMESTAMP, scope, d);
                    return new Term(Expr.call("epoch_ms", t.expr()), "epoch_ms(" + t.sql() + ")", DataType.INT64, true,
                            4e14, 0, false);
                });
                o.add(() -> dateDiff(scope, d));
                o.add(() -> {
                    Term a = exprs.of(Kind.DATE, scope, d);
                    Term b = exprs.of(Kind.DATE, scope, d);
                    // INTEGER in Troupe (PostgreSQL), BIGINT in DuckDB: an exact number in both, bounded as an INTEGER.
                    return new Term(a.expr().minus(b.expr()), "(" + a.sql() + " - " + b.sql() + ")", DataType.INT32,
                            false, 4_000_000, 0, false);
                });
            }
            case DOUBLE -> o.add(() -> {
                Term t = exprs.of(rnd.nextBoolean() ? Kind.TIMESTAMP : Kind.TIMESTAMP_TZ, scope, d);
                // Seconds and their fraction may round differently in the last bit: fuzzy.
                return new Term(Expr.call("epoch", t.expr()), "epoch(" + t.sql() + ")", DataType.FLOAT64, true,
                        1e12, -1, true);
            });
            case STRING -> {
                o.add(() -> {
                    Term t = exprs.of(new Kind[] {Kind.DATE, Kind.TIMESTAMP, Kind.TIMESTAMP_TZ}[rnd.nextInt(3)],
                            scope, d);
                    String format = FORMATS.get(rnd.nextInt(FORMATS.size()));
                    return Term.plain(Expr.call("strftime", t.expr(), Expr.lit(format)),
                            "strftime(" + t.sql() + ", '" + format + "')", DataType.VARCHAR);
                });
                o.add(() -> {
                    Term t = exprs.of(rnd.nextBoolean() ? Kind.DATE : Kind.TIMESTAMP, scope, d);
                    String f = rnd.nextBoolean() ? "monthname" : "dayname";
                    return Term.plain(Expr.call(f, t.expr()), f + "(" + t.sql() + ")", DataType.VARCHAR);
                });
            }
            default -> {
            }
        }
    }

    /**
     * A time plus or minus an interval (a TIME wraps around the clock). A TIMESTAMP WITH TIME ZONE moves by an
     * interval of months and days or of days and a time (see the class comment).
     */
    private Term shift(Kind kind, List<Term> scope, int d) {
        Term t = exprs.of(kind, scope, d);
        boolean minus = rnd.nextBoolean();
        boolean months = rnd.nextBoolean();
        Term i = kind == Kind.TIMESTAMP_TZ ? intervalLiteral(interval(months, !months))
                : exprs.of(Kind.INTERVAL, scope, d);
        if (!minus && rnd.nextInt(4) == 0) {
            return Term.plain(i.expr().plus(t.expr()), "(" + i.sql() + " + " + t.sql() + ")", t.type());
        }
        Expr e = minus ? t.expr().minus(i.expr()) : t.expr().plus(i.expr());
        return Term.plain(e, "(" + t.sql() + (minus ? " - " : " + ") + i.sql() + ")", t.type());
    }

    /**
     * make_date, make_time, make_timestamp or make_timestamptz (in UTC in both) of the fields of a TIMESTAMP, a day
     * of the month kept to 28, the year from 1 on (see below), and now and then a literal second with a fraction.
     */
    private Term made(String f, List<Term> scope, int d) {
        Term t = exprs.of(Kind.TIMESTAMP, scope, d);
        List<Expr> args = new ArrayList<>();
        List<String> sql = new ArrayList<>();
        List<String> fields = switch (f) {
            case "make_date" -> List.of("year", "month", "day");
            case "make_time" -> List.of("hour", "minute", "second");
            default -> List.of("year", "month", "day", "hour", "minute", "second");
        };
        for (String field : fields) {
            if (field.equals("second") && rnd.nextBoolean()) {
                double second = rnd.nextInt(240) / 4.0;
                args.add(Expr.lit(second));
                sql.add("CAST(" + second + " AS DOUBLE)");
                continue;
            }
            Expr part = Expr.datePart(field, t.expr());
            String partSql = datePartSql(field, t);
            if (field.equals("day")) {
                part = Expr.call("least", part, Expr.lit(28L));
                partSql = "least(" + partSql + ", CAST(28 AS BIGINT))";
            } else if (field.equals("year")) {
                // From year 1 on: make_date(-1, ...) is 1 BC in Troupe (PostgreSQL) and 2 BC in DuckDB, and year 0
                // fails in Troupe (there is none in PostgreSQL) where DuckDB reads it as 1 BC.
                part = Expr.call("greatest", part, Expr.lit(1L));
                partSql = "greatest(" + partSql + ", CAST(1 AS BIGINT))";
            }
            args.add(part);
            sql.add(partSql);
        }
        DataType type = switch (f) {
            case "make_date" -> DataType.DATE;
            case "make_time" -> DataType.TIME;
            case "make_timestamp" -> DataType.TIMESTAMP;
            default -> DataType.TIMESTAMP_TZ;
        };
        return Term.plain(Expr.call(f, args.toArray(Expr[]::new)), f + "(" + String.join(", ", sql) + ")", type);
    }

    /** date_trunc of a DATE or TIMESTAMP (a TIMESTAMP) or of an instant in UTC (an instant). */
    private Term trunc(Kind kind, List<Term> scope, int d) {
        Term t = exprs.of(kind, scope, d);
        String unit = TRUNC_UNITS.get(rnd.nextInt(TRUNC_UNITS.size()));
        DataType type = kind == Kind.TIMESTAMP_TZ ? DataType.TIMESTAMP_TZ : DataType.TIMESTAMP;
        return Term.plain(Expr.call("date_trunc", Expr.lit(unit), t.expr()),
                "date_trunc('" + unit + "', " + t.sql() + ")", type);
    }

    /** The span between two TIMESTAMPs or two instants: days and the time left. */
    private Term difference(List<Term> scope, int d) {
        Kind kind = rnd.nextBoolean() ? Kind.TIMESTAMP : Kind.TIMESTAMP_TZ;
        Term a = exprs.of(kind, scope, d);
        Term b = exprs.of(kind, scope, d);
        return Term.plain(a.expr().minus(b.expr()), "(" + a.sql() + " - " + b.sql() + ")", DataType.INTERVAL);
    }

    /** Intervals add and subtract field by field. */
    private Term intervalArithmetic(List<Term> scope, int d) {
        Term a = exprs.of(Kind.INTERVAL, scope, d);
        Term b = exprs.of(Kind.INTERVAL, scope, d);
        boolean minus = rnd.nextBoolean();
        return Term.plain(minus ? a.expr().minus(b.expr()) : a.expr().plus(b.expr()),
                "(" + a.sql() + (minus ? " - " : " + ") + b.sql() + ")", DataType.INTERVAL);
    }

    /** An interval times or divided by a small integer literal (a fraction goes down, as both engines do). */
    private Term scaled(List<Term> scope, int d) {
        Term i = exprs.of(Kind.INTERVAL, scope, d);
        int n = 1 + rnd.nextInt(6);
        Term factor = Terms.intLiteral(rnd.nextBoolean() ? n : -n);
        boolean divide = rnd.nextBoolean();
        Expr e = divide ? i.expr().div(factor.expr()) : i.expr().times(factor.expr());
        return Term.plain(e, "(" + i.sql() + (divide ? " / " : " * ") + factor.sql() + ")", DataType.INTERVAL);
    }

    /** date_part of a field the value's type has: a BIGINT in both. */
    private Term datePart(List<Term> scope, int d) {
        Kind kind = new Kind[] {Kind.DATE, Kind.TIMESTAMP, Kind.TIMESTAMP_TZ, Kind.TIME, Kind.INTERVAL}[rnd.nextInt(5)];
        Term t = exprs.of(kind, scope, d);
        List<String> fields = switch (kind) {
            case DATE -> DATE_FIELDS;
            case TIME -> TIME_FIELDS;
            case INTERVAL -> INTERVAL_FIELDS;
            default -> rnd.nextBoolean() ? DATE_FIELDS : TIME_FIELDS;
        };
        String field = fields.get(rnd.nextInt(fields.size()));
        return new Term(Expr.datePart(field, t.expr()), datePartSql(field, t), DataType.INT64, true, 1e11, 0, false);
    }

    /**
     * DuckDB's date_part of a field, cast to the BIGINT it is: DuckDB types date_part of a NULL it folded (a CASE
     * that is never true) as DOUBLE, which its functions of integers (make_timestamp, greatest with a BIGINT) refuse.
     */
    private static String datePartSql(String field, Term t) {
        return "CAST(date_part('" + field + "', " + t.sql() + ") AS BIGINT)";
    }

    /** DuckDB's datediff: the count of a unit's boundaries between two values of one type. */
    private Term dateDiff(List<Term> scope, int d) {
        Kind kind = new Kind[] {Kind.DATE, Kind.TIMESTAMP, Kind.TIMESTAMP_TZ}[rnd.nextInt(3)];
        List<String> units = kind == Kind.DATE ? DIFF_UNITS.subList(0, 5) : DIFF_UNITS;
        String unit = units.get(rnd.nextInt(units.size()));
        Term a = exprs.of(kind, scope, d);
        Term b = exprs.of(kind, scope, d);
        return new Term(Expr.call("datediff", Expr.lit(unit), a.expr(), b.expr()),
                "datediff('" + unit + "', " + a.sql() + ", " + b.sql() + ")", DataType.INT64, true, 1e12, 0, false);
    }
}
