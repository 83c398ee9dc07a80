package io.troupe.operators.expr;

import io.troupe.config.TimeZones;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.DateField;
import io.troupe.operators.types.TypeId;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static io.troupe.operators.expr.Signature.ResultType.fixed;

/**
 * The date and time functions of the {@link FunctionRegistry}, documented for users in
 * docs/sql/functions-date.md and checked against DuckDB by {@code DateTimeFunctionsTest}: truncation
 * ({@code date_trunc}), fields ({@code date_part} and DuckDB's {@code year()}, {@code dayofweek()} ...),
 * differences ({@code date_diff}, PostgreSQL's {@code age}), construction ({@code make_date} ...), epoch conversions, formatting and
 * parsing (DuckDB's {@code strftime}/{@code strptime}, PostgreSQL's {@code to_char}/{@code to_date}/{@code
 * to_timestamp}), {@code last_day}, {@code dayname}, {@code monthname} and the statement's instant
 * ({@code now()}). Result types are DuckDB's; errors are PostgreSQL's words.
 *
 * <h2>TIMESTAMP WITH TIME ZONE</h2>
 * The kernels know no session: a TIMESTAMP_TZ's fields and calendar differences are taken in UTC, and the
 * functions that need a zone for more than a local time (truncation keeping an instant's offset, an offset or
 * zone name in a format, local text read as an instant) take it as a last constant argument ({@code
 * date_trunc(unit, t, zone)}, {@code strftime(t, format, zone)}), UTC without one. SQL reads them in the
 * session's zone: its lowering converts a TIMESTAMP_TZ argument to local time there, or passes the zone, as
 * {@code SessionZoneCalls} says.
 *
 * <p>Stateless; threadsafe.
 */
final class DateTimeFunctions {

    private static final ParamType TIMESTAMP = ParamType.of(DataType.TIMESTAMP);
    private static final ParamType TIMESTAMP_TZ = ParamType.of(DataType.TIMESTAMP_TZ);
    private static final ParamType TIME = ParamType.of(DataType.TIME);
    private static final ParamType INTERVAL = ParamType.of(DataType.INTERVAL);
    /** A unit, field, format or zone: a VARCHAR the kernel reads once. */
    private static final ParamType NAME = ParamType.VARCHAR.asConstant();

    private DateTimeFunctions() {
    }

    static List<ScalarFunction> all() {
        List<ScalarFunction> all = new ArrayList<>();
        all.add(dateTrunc());
        all.add(datePart());
        all.addAll(fields());
        all.add(dateDiff());
        all.add(age());
        all.add(timezone());
        all.addAll(constructors());
        all.addAll(epochs());
        all.addAll(names());
        all.addAll(formatting());
        all.add(ScalarFunction.of("now", Signature.of(fixed(DataType.TIMESTAMP_TZ), DateTimeFunctions::statementTime))
                .withAliases("transaction_timestamp", "statement_timestamp", "get_current_timestamp"));
        return all;
    }

    /**
     * {@code date_trunc(unit, t[, zone])}: a TIMESTAMP for a DATE or TIMESTAMP, as PostgreSQL and DuckDB type it;
     * a TIMESTAMP_TZ in a zone, PostgreSQL's three-argument form.
     */
    private static ScalarFunction dateTrunc() {
        Signature.ResultType type = args -> {
            DataType value = args.get(1).type();
            DateTrunc.unit(args.get(0).value(), value);
            if (args.size() == 3) {
                zone(args.get(2).value());
            }
            return value.id() == TypeId.DATE ? DataType.TIMESTAMP : value;
        };
        return ScalarFunction.of("date_trunc",
                Signature.of(type, DateTrunc.KERNEL, NAME, ParamType.DATE),
                Signature.of(type, DateTrunc.KERNEL, NAME, TIMESTAMP),
                Signature.of(type, DateTrunc.KERNEL, NAME, TIMESTAMP_TZ),
                Signature.of(type, DateTrunc.KERNEL, NAME, TIMESTAMP_TZ, NAME)).withAliases("datetrunc");
    }

    /**
     * {@code timezone(zone, t)}, PostgreSQL's {@code t AT TIME ZONE zone}: a TIMESTAMP read as the local time of the
     * zone is that instant, a TIMESTAMP WITH TIME ZONE; an instant is its local time there, a TIMESTAMP.
     */
    private static ScalarFunction timezone() {
        Signature.ResultType type = args -> {
            zone(args.get(0).value());
            return args.get(1).type().id() == TypeId.TIMESTAMP_TZ ? DataType.TIMESTAMP : DataType.TIMESTAMP_TZ;
        };
        Signature.Kernel kernel = (args, result, text) -> {
            ZoneId zone = zoneArgument(args, 0);
            return zone == null ? new LiteralExpression(null, result, text)
                    : CastExpression.of(args.get(1), result, zone, text);
        };
        return ScalarFunction.of("timezone", Signature.of(type, kernel, NAME, TIMESTAMP),
                Signature.of(type, kernel, NAME, TIMESTAMP_TZ));
    }

    /** {@code date_part(field, t)} of a time or an interval: EXTRACT's kernel ({@link DatePart}); BIGINT, 'epoch' DOUBLE. */
    private static ScalarFunction datePart() {
        Signature.ResultType type = args -> partType(field(args.get(0).value(), args.get(1).type()));
        Signature.Kernel kernel = (args, result, text) -> args.get(0) instanceof LiteralExpression f && f.isNull()
                ? new LiteralExpression(null, result, text) : DatePart.bindNamed(args.get(0), args.get(1), text);
        return ScalarFunction.of("date_part",
                Signature.of(type, kernel, NAME, ParamType.DATE),
                Signature.of(type, kernel, NAME, TIMESTAMP),
                Signature.of(type, kernel, NAME, TIMESTAMP_TZ),
                Signature.of(type, kernel, NAME, TIME),
                Signature.of(type, kernel, NAME, INTERVAL)).withAliases("datepart");
    }

    /**
     * The field named {@code name} (null: NULL), one that a value of {@code type} has.
     *
     * @throws ExpressionTypeException for an unknown field, a date field of a TIME, or a calendar's of an INTERVAL
     */
    static DateField field(Object name, DataType type) {
        if (name == null) {
            return null;
        }
        DateField f;
        try {
            f = DateField.named((String) name);
        } catch (IllegalArgumentException e) {
            throw new ExpressionTypeException(e.getMessage());
        }
        if (type.id() == TypeId.TIME && !f.ofTimeOfDay() || type.id() == TypeId.INTERVAL && !f.ofInterval()) {
            throw new ExpressionTypeException("unit \"" + name + "\" not supported for type " + type.sqlName());
        }
        return f;
    }

    private static DataType partType(DateField field) {
        return field == DateField.EPOCH ? DataType.FLOAT64 : DataType.INT64;
    }

    /** DuckDB's one-field functions, {@code year(t)} ... {@code epoch(t)}, as date_part of their field. */
    private static List<ScalarFunction> fields() {
        return List.of(
                part("year", DateField.YEAR),
                part("quarter", DateField.QUARTER),
                part("month", DateField.MONTH),
                part("week", DateField.WEEK).withAliases("weekofyear"),
                part("day", DateField.DAY).withAliases("dayofmonth"),
                part("dayofweek", DateField.DOW).withAliases("weekday"),
                part("isodow", DateField.ISODOW),
                part("dayofyear", DateField.DOY),
                part("isoyear", DateField.ISOYEAR),
                part("decade", DateField.DECADE),
                part("century", DateField.CENTURY),
                part("millennium", DateField.MILLENNIUM),
                part("hour", DateField.HOUR),
                part("minute", DateField.MINUTE),
                part("second", DateField.SECOND),
                part("millisecond", DateField.MILLISECOND),
                part("microsecond", DateField.MICROSECOND),
                part("epoch", DateField.EPOCH));
    }

    private static ScalarFunction part(String name, DateField field) {
        String fieldName = field.name().toLowerCase(java.util.Locale.ROOT);
        Signature.ResultType type = fixed(partType(field));
        Signature.Kernel kernel = (args, result, text) -> DatePart.bindNamed(
                new LiteralExpression(fieldName, DataType.VARCHAR, "'" + fieldName + "'"), args.get(0), text);
        List<Signature> forms = new ArrayList<>(List.of(
                Signature.of(type, kernel, ParamType.DATE),
                Signature.of(type, kernel, TIMESTAMP),
                Signature.of(type, kernel, TIMESTAMP_TZ)));
        if (field.ofTimeOfDay()) {
            forms.add(Signature.of(type, kernel, TIME));
        }
        return new ScalarFunction(List.of(name), forms);
    }

    /** {@code date_diff(unit, start, end)}: DuckDB's count of unit boundaries between two times, BIGINT. */
    private static ScalarFunction dateDiff() {
        Signature.ResultType type = args -> {
            DateDiff.unit(args.get(0).value(), args.get(1).type());
            return DataType.INT64;
        };
        return ScalarFunction.of("date_diff",
                Signature.of(type, DateDiff.KERNEL, NAME, ParamType.DATE, ParamType.DATE),
                Signature.of(type, DateDiff.KERNEL, NAME, TIMESTAMP, TIMESTAMP),
                Signature.of(type, DateDiff.KERNEL, NAME, TIMESTAMP_TZ, TIMESTAMP_TZ),
                Signature.of(type, DateDiff.KERNEL, NAME, TIME, TIME)).withAliases("datediff");
    }

    /**
     * {@code age(a, b)}: PostgreSQL's calendar difference ({@link Age}), an INTERVAL; {@code age(t)}, from the
     * statement's midnight, is SQL's to fix, as now() is.
     */
    private static ScalarFunction age() {
        Signature.Kernel kernel = (args, type, text) -> new Age(args.get(0), args.get(1), text);
        Signature.Kernel sinceToday = (args, type, text) -> {
            throw new ExpressionTypeException(text + " counts from the statement's midnight, which SQL fixes when "
                    + "it plans a statement; a plan takes both times (age(a, b))");
        };
        Signature.ResultType interval = fixed(DataType.INTERVAL);
        return ScalarFunction.of("age",
                Signature.of(interval, kernel, TIMESTAMP, TIMESTAMP),
                Signature.of(interval, kernel, TIMESTAMP_TZ, TIMESTAMP_TZ),
                Signature.of(interval, kernel, ParamType.DATE, ParamType.DATE),
                Signature.of(interval, sinceToday, TIMESTAMP),
                Signature.of(interval, sinceToday, TIMESTAMP_TZ),
                Signature.of(interval, sinceToday, ParamType.DATE));
    }

    /** make_date, make_time, make_timestamp, make_timestamptz: from fields, PostgreSQL's checks. */
    private static List<ScalarFunction> constructors() {
        ParamType n = ParamType.INT64;
        ParamType seconds = ParamType.FLOAT64;
        return List.of(
                ScalarFunction.of("make_date",
                        Signature.of(fixed(DataType.DATE), MakeTemporal.kernel(TypeId.DATE), n, n, n)),
                ScalarFunction.of("make_time",
                        Signature.of(fixed(DataType.TIME), MakeTemporal.kernel(TypeId.TIME), n, n, seconds)),
                ScalarFunction.of("make_timestamp",
                        Signature.of(fixed(DataType.TIMESTAMP), MakeTemporal.kernel(TypeId.TIMESTAMP),
                                n, n, n, n, n, seconds),
                        Signature.of(fixed(DataType.TIMESTAMP), FromEpoch.kernel(1), n)),
                ScalarFunction.of("make_timestamptz",
                        Signature.of(fixed(DataType.TIMESTAMP_TZ), MakeTemporal.kernel(TypeId.TIMESTAMP_TZ),
                                n, n, n, n, n, seconds),
                        Signature.of(fixed(DataType.TIMESTAMP_TZ), MakeTemporal.kernel(TypeId.TIMESTAMP_TZ),
                                n, n, n, n, n, seconds, ParamType.VARCHAR),
                        Signature.of(fixed(DataType.TIMESTAMP_TZ), FromEpoch.kernel(1), n)));
    }

    /** epoch_ms, epoch_us, epoch_ns of a time (BIGINT), and epoch_ms of a number (a TIMESTAMP). */
    private static List<ScalarFunction> epochs() {
        return List.of(
                ScalarFunction.of("epoch_ms", epochOf(EpochOf.Unit.MILLISECONDS,
                        Signature.of(fixed(DataType.TIMESTAMP), FromEpoch.kernel(1000), ParamType.INT64))),
                ScalarFunction.of("epoch_us", epochOf(EpochOf.Unit.MICROSECONDS)),
                ScalarFunction.of("epoch_ns", epochOf(EpochOf.Unit.NANOSECONDS)));
    }

    private static Signature[] epochOf(EpochOf.Unit unit, Signature... more) {
        Signature.Kernel kernel = EpochOf.kernel(unit);
        List<Signature> forms = new ArrayList<>(List.of(more));
        for (ParamType p : List.of(ParamType.DATE, TIMESTAMP, TIMESTAMP_TZ, TIME)) {
            forms.add(Signature.of(fixed(DataType.INT64), kernel, p));
        }
        return forms.toArray(new Signature[0]);
    }

    /** last_day, dayname, monthname. */
    private static List<ScalarFunction> names() {
        List<ScalarFunction> all = new ArrayList<>();
        all.add(ScalarFunction.of("last_day",
                Signature.of(fixed(DataType.DATE), LastDay.KERNEL, ParamType.DATE),
                Signature.of(fixed(DataType.DATE), LastDay.KERNEL, TIMESTAMP),
                Signature.of(fixed(DataType.DATE), LastDay.KERNEL, TIMESTAMP_TZ)));
        for (String[] named : new String[][] {{"dayname", "%A"}, {"monthname", "%B"}}) {
            DateTimeFormat format = DateTimeFormat.compile(DateTimeFormat.Dialect.STRFTIME, named[1], false);
            Signature.Kernel kernel = (args, type, text) -> FormatDateTime.of(args.get(0), format, null, text);
            all.add(ScalarFunction.of(named[0],
                    Signature.of(fixed(DataType.VARCHAR), kernel, ParamType.DATE),
                    Signature.of(fixed(DataType.VARCHAR), kernel, TIMESTAMP),
                    Signature.of(fixed(DataType.VARCHAR), kernel, TIMESTAMP_TZ)));
        }
        return all;
    }

    /** strftime/strptime with DuckDB's % codes, to_char/to_date/to_timestamp with PostgreSQL's patterns. */
    private static List<ScalarFunction> formatting() {
        DateTimeFormat.Dialect duckdb = DateTimeFormat.Dialect.STRFTIME;
        DateTimeFormat.Dialect postgres = DateTimeFormat.Dialect.TO_CHAR;
        Signature.ResultType strptime = args -> {
            DateTimeFormat f = format(duckdb, args.get(1).value(), true);
            return f != null && f.hasOffset() ? DataType.TIMESTAMP_TZ : DataType.TIMESTAMP;
        };
        Signature.ResultType toDate = args -> {
            format(postgres, args.get(1).value(), true);
            return DataType.DATE;
        };
        Signature.ResultType toTimestamp = args -> {
            format(postgres, args.get(1).value(), true);
            if (args.size() == 3) {
                zone(args.get(2).value());
            }
            return DataType.TIMESTAMP_TZ;
        };
        return List.of(
                formatter("strftime", duckdb),
                ScalarFunction.of("strptime", Signature.of(strptime, ParseDateTime.kernel(duckdb), ParamType.VARCHAR, NAME)),
                formatter("to_char", postgres),
                ScalarFunction.of("to_date", Signature.of(toDate, ParseDateTime.kernel(postgres), ParamType.VARCHAR, NAME)),
                ScalarFunction.of("to_timestamp",
                        Signature.of(fixed(DataType.TIMESTAMP_TZ), FromEpoch.SECONDS, ParamType.FLOAT64),
                        Signature.of(toTimestamp, ParseDateTime.kernel(postgres), ParamType.VARCHAR, NAME),
                        Signature.of(toTimestamp, ParseDateTime.kernel(postgres), ParamType.VARCHAR, NAME, NAME)));
    }

    /** strftime or to_char: (t, format), and (TIMESTAMP_TZ, format, zone) for an instant's local time in a zone. */
    private static ScalarFunction formatter(String name, DateTimeFormat.Dialect dialect) {
        Signature.ResultType type = args -> {
            format(dialect, args.get(1).value(), false);
            if (args.size() == 3) {
                zone(args.get(2).value());
            }
            return DataType.VARCHAR;
        };
        Signature.Kernel kernel = FormatDateTime.kernel(dialect);
        return ScalarFunction.of(name,
                Signature.of(type, kernel, ParamType.DATE, NAME),
                Signature.of(type, kernel, TIMESTAMP, NAME),
                Signature.of(type, kernel, TIMESTAMP_TZ, NAME),
                Signature.of(type, kernel, TIMESTAMP_TZ, NAME, NAME));
    }

    /**
     * The compiled format of a constant (null for NULL).
     *
     * @throws ExpressionTypeException naming a code the dialect does not know, or one that cannot be parsed
     */
    static DateTimeFormat format(DateTimeFormat.Dialect dialect, Object text, boolean parsing) {
        if (text == null) {
            return null;
        }
        try {
            return DateTimeFormat.compile(dialect, (String) text, parsing);
        } catch (IllegalArgumentException e) {
            throw new ExpressionTypeException(e.getMessage());
        }
    }

    /**
     * The zone of a call's constant argument {@code index}: UTC when the call has no such argument, null when it
     * is NULL.
     *
     * @throws ExpressionTypeException for a zone of no name known
     */
    static ZoneId zoneArgument(List<Expression> args, int index) {
        return args.size() > index ? zone(((LiteralExpression) args.get(index)).value()) : ZoneOffset.UTC;
    }

    /** @throws ExpressionTypeException for a zone of no name known */
    static ZoneId zone(Object name) {
        if (name == null) {
            return null;
        }
        try {
            return TimeZones.zone((String) name);
        } catch (IllegalArgumentException e) {
            throw new ExpressionTypeException(e.getMessage());
        }
    }

    /** now() and its aliases in a plan: the statement's instant is SQL's to fix; a plan takes it as a literal. */
    private static Expression statementTime(List<Expression> args, DataType type, String text) {
        throw new ExpressionTypeException(text + " is the statement's instant, which SQL fixes when it plans a "
                + "statement; a plan takes an instant as a literal (Expr.lit(Instant.now()))");
    }
}
