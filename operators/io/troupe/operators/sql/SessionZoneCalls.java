package io.troupe.operators.sql;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Literal;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.DateField;
import io.troupe.operators.types.TypeId;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The registry's date and time functions as SQL means them, in the session's time zone. Their kernels know
 * no session: they take a TIMESTAMP WITH TIME ZONE's fields in UTC, and take a zone where they need one as a
 * last argument (docs/sql/functions-date.md). So, as PostgreSQL and DuckDB read an instant in the
 * session's zone, a call with such an argument is lowered to
 * <ul>
 *   <li>its fields (date_part but 'epoch', year() ... microsecond(), last_day, dayname, monthname): the
 *       call over the instant's local time in the zone;</li>
 *   <li>date_diff: of days and longer, the difference of the local times; of hours and shorter, of the
 *       instants each truncated in the zone as DuckDB truncates them (to the hour, the local hour read back in
 *       the zone; to a minute or less, in the instant's own offset);</li>
 *   <li>date_trunc, strftime and to_char of an instant, to_timestamp of text and make_timestamptz of fields:
 *       the call with the zone as its last argument;</li>
 *   <li>now(), transaction_timestamp(), statement_timestamp(), get_current_timestamp(): the statement's
 *       instant, a literal, as CURRENT_TIMESTAMP is (never evaluated per row);</li>
 *   <li>age of instants: the age of their local times; age(t) of one time: the age from the statement's
 *       midnight in the zone, a literal.</li>
 * </ul>
 * Every conversion between local and absolute time is a cast that carries the zone, so the plan means the
 * same on any node.
 *
 * <p>Stateless; threadsafe.
 */
final class SessionZoneCalls {

    private static final Set<String> NOW = Set.of("now", "transaction_timestamp", "statement_timestamp",
            "get_current_timestamp");
    /** Functions of a local time's fields. */
    private static final Set<String> LOCAL = Set.of("year", "quarter", "month", "week", "weekofyear", "day",
            "dayofmonth", "dayofweek", "weekday", "isodow", "dayofyear", "isoyear", "decade", "century", "millennium",
            "hour", "minute", "second", "millisecond", "microsecond", "last_day", "dayname", "monthname");
    /** Functions that take the zone as their last argument, and how many arguments they have without it. */
    private static final Set<String> ZONE_ARGUMENT = Set.of("strftime:2", "to_char:2", "date_trunc:2",
            "datetrunc:2", "to_timestamp:2", "make_timestamptz:6");
    /** Of those, the functions that take the zone only for a TIMESTAMP WITH TIME ZONE. */
    private static final Set<String> ZONE_FOR_INSTANTS = Set.of("strftime", "to_char", "date_trunc", "datetrunc");

    private SessionZoneCalls() {
    }

    /**
     * The call {@code name(args)} of a registry function, its arguments lowered and of SQL types {@code types},
     * in {@code clock}'s zone.
     */
    static Expr lower(String name, List<Expr> args, List<DataType> types, StatementClock clock) {
        String f = name.toLowerCase(Locale.ROOT);
        if (NOW.contains(f) && args.isEmpty()) {
            return Expr.lit(clock.now());
        }
        ZoneId zone = clock.zone();
        if (f.equals("age") && args.size() == 1) {
            LocalDateTime midnight = LocalDate.ofInstant(clock.now(), zone).atStartOfDay();
            Expr t = local(args, types, zone).get(0);
            return call(f, List.of(Expr.lit(midnight), types.get(0).id() == TypeId.DATE ? t.cast(DataType.TIMESTAMP) : t));
        }
        if (ZONE_ARGUMENT.contains(f + ":" + args.size())
                && (types.contains(DataType.TIMESTAMP_TZ) || !ZONE_FOR_INSTANTS.contains(f))) {
            List<Expr> zoned = new ArrayList<>(args);
            zoned.add(Expr.lit(zone.getId()));
            return call(f, zoned);
        }
        if (!types.contains(DataType.TIMESTAMP_TZ)) {
            return call(f, args);
        }
        if (LOCAL.contains(f) || f.equals("age")) {
            return call(f, local(args, types, zone));
        }
        DateField unit = args.isEmpty() ? null : unit(args.get(0));
        return switch (f) {
            case "date_part", "datepart" -> unit == DateField.EPOCH || unit == null ? call(f, args)
                    : call(f, local(args, types, zone));
            case "date_diff", "datediff" -> unit == null ? call(f, args) : dateDiff(f, unit, args, types, zone);
            default -> call(f, args);
        };
    }

    private static Expr call(String name, List<Expr> args) {
        return Expr.call(name, args.toArray(new Expr[0]));
    }

    /** Each TIMESTAMP WITH TIME ZONE argument as its local time in {@code zone}. */
    private static List<Expr> local(List<Expr> args, List<DataType> types, ZoneId zone) {
        List<Expr> local = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            local.add(types.get(i).id() == TypeId.TIMESTAMP_TZ ? args.get(i).cast(DataType.TIMESTAMP, zone)
                    : args.get(i));
        }
        return local;
    }

    /** The unit or field a constant first argument names, null for none (or one the call will refuse). */
    private static DateField unit(Expr first) {
        if (first instanceof Literal lit && lit.value() instanceof String text) {
            try {
                return DateField.named(text);
            } catch (IllegalArgumentException unknown) {
                return null;
            }
        }
        return null;
    }

    /**
     * date_diff of two instants in {@code zone}: days and longer between their local times; hours and shorter
     * between the instants truncated to the unit in the zone (an hour of a zone half an hour off UTC starts at
     * half past), as DuckDB does: to the hour through the local time and back (in the hour a clock is put back,
     * both passes truncate to the later 01:00), to a minute or less in the instant's own offset.
     */
    private static Expr dateDiff(String f, DateField unit, List<Expr> args, List<DataType> types, ZoneId zone) {
        DateField counted = switch (unit) {
            case DOW, ISODOW, DOY -> DateField.DAY;
            case EPOCH -> DateField.SECOND;
            default -> unit;
        };
        if (!counted.ofTimeOfDay()) {
            return call(f, local(args, types, zone));
        }
        Expr truncation = Expr.lit(counted.name().toLowerCase(Locale.ROOT));
        List<Expr> truncated = new ArrayList<>(List.of(args.get(0)));
        for (Expr instant : args.subList(1, args.size())) {
            truncated.add(counted == DateField.HOUR
                    ? Expr.call("date_trunc", truncation, instant.cast(DataType.TIMESTAMP, zone))
                            .cast(DataType.TIMESTAMP_TZ, zone)
                    : Expr.call("date_trunc", truncation, instant, Expr.lit(zone.getId())));
        }
        return call(f, truncated);
    }
}
