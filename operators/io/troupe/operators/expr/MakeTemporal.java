package io.troupe.operators.expr;

import io.troupe.config.TimeZones;
import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.batch.IntVector;
import io.troupe.operators.batch.LongVector;
import io.troupe.operators.batch.StringVector;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Dates;
import io.troupe.operators.types.Timestamps;
import io.troupe.operators.types.TypeId;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.Arrays;
import java.util.List;

/**
 * {@code make_date(year, month, day)}, {@code make_time(hour, minute, seconds)}, {@code make_timestamp(year,
 * month, day, hour, minute, seconds)} and {@code make_timestamptz(..., [zone])}: a value from its fields, as
 * PostgreSQL and DuckDB build it. A negative year is a year BC (-44 is 44 BC), year 0 does not exist;
 * seconds are a DOUBLE rounded to the microsecond (half to even, as PostgreSQL's rint), 60 seconds allowed
 * (the next minute) and 24:00:00 as the end of the day. A field out of range fails in PostgreSQL's words
 * ({@code date field value out of range: 2024-02-30}, {@code time field value out of range: 25:00:00}). A
 * TIMESTAMP_TZ is the local time in {@code zone} (a name per row, PostgreSQL's and DuckDB's seventh argument),
 * UTC without one (SQL passes the session's zone); a time that a change of clocks skips or repeats resolves as
 * {@link Timestamps#fromLocal} says. NULL where any field is.
 *
 * <p>Immutable and threadsafe.
 */
final class MakeTemporal implements Expression {

    private final TypeId kind;
    private final List<Expression> fields;
    private final DataType type;
    private final String text;

    private MakeTemporal(TypeId kind, List<Expression> fields, DataType type, String text) {
        this.kind = kind;
        this.fields = fields;
        this.type = type;
        this.text = text;
    }

    /** The kernel of the constructor of {@code kind}: DATE, TIME, TIMESTAMP or TIMESTAMP_TZ. */
    static Signature.Kernel kernel(TypeId kind) {
        return (args, type, text) -> new MakeTemporal(kind, List.copyOf(args), type, text);
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public ColumnVector evaluate(Batch batch) {
        int count = fields.size();
        ColumnVector[] in = new ColumnVector[count];
        long[] valid = null;
        for (int f = 0; f < count; f++) {
            in[f] = fields.get(f).evaluate(batch);
            valid = f == 0 ? Kernels.copy(in[0]) : io.troupe.operators.batch.Validity.and(valid, in[f].validity());
        }
        int rows = batch.rowCount();
        int n = batch.size();
        int[] sel = batch.selection();
        Zones zones = count == 7 ? new Zones() : null;
        int[] days = kind == TypeId.DATE ? new int[rows] : null;
        long[] micros = kind == TypeId.DATE ? null : new long[rows];
        for (int i = 0; i < n; i++) {
            int r = sel == null ? i : sel[i];
            if (!Kernels.isValid(valid, r)) {
                continue;
            }
            try {
                switch (kind) {
                    case DATE -> days[r] = date(field(in[0], r), field(in[1], r), field(in[2], r));
                    case TIME -> micros[r] = time(field(in[0], r), field(in[1], r), seconds(in[2], r));
                    default -> {
                        long local = timestamp(date(field(in[0], r), field(in[1], r), field(in[2], r)),
                                time(field(in[3], r), field(in[4], r), seconds(in[5], r)));
                        micros[r] = kind == TypeId.TIMESTAMP ? local
                                : Timestamps.fromLocal(local, zones == null ? UTC : zones.rules((StringVector) in[6], r));
                    }
                }
            } catch (DomainException e) {
                throw e.failure(text);
            }
        }
        ColumnVector out = days != null ? new IntVector(DataType.DATE, days) : new LongVector(type, micros);
        out.setValidity(valid);
        return out;
    }

    private static final ZoneRules UTC = ZoneOffset.UTC.getRules();

    private static long field(ColumnVector v, int r) {
        return ((LongVector) v).get(r);
    }

    private static double seconds(ColumnVector v, int r) {
        return ((DoubleVector) v).get(r);
    }

    /**
     * The day of a civil date, a negative year BC.
     *
     * @throws DomainException for year 0, a month or day out of range, as PostgreSQL's make_date says it
     */
    static int date(long year, long month, long day) {
        long astronomical = year < 0 ? year + 1 : year;
        if (year == 0 || month < 1 || month > 12 || day < 1 || Math.abs(year) > 5_000_000
                || day > Dates.daysInMonth((int) astronomical, (int) month)) {
            throw new DomainException("date field value out of range: " + year + "-" + twoDigits(month) + "-"
                    + twoDigits(day));
        }
        return Dates.days((int) astronomical, (int) month, (int) day);
    }

    /**
     * Microseconds since midnight, up to 24:00:00 exactly.
     *
     * @throws DomainException for a field out of range, as PostgreSQL's make_time says it
     */
    static long time(long hour, long minute, double seconds) {
        boolean inRange = hour >= 0 && hour <= 24 && minute >= 0 && minute <= 59 && seconds >= 0 && seconds <= 60;
        long micros = inRange ? (hour * 60 + minute) * Timestamps.MICROS_PER_MINUTE
                + (long) Math.rint(seconds * Timestamps.MICROS_PER_SECOND) : 0;
        if (!inRange || micros > Timestamps.MICROS_PER_DAY) {
            throw new DomainException("time field value out of range: " + hour + ":" + twoDigits(minute) + ":"
                    + secondsText(seconds));
        }
        return micros;
    }

    private static long timestamp(int day, long time) {
        try {
            return Math.addExact(Math.multiplyExact(day, Timestamps.MICROS_PER_DAY), time);
        } catch (ArithmeticException e) {
            throw new DomainException("timestamp out of range: " + Dates.text(day));
        }
    }

    private static String twoDigits(long v) {
        return v >= 0 && v < 10 ? "0" + v : Long.toString(v);
    }

    /** Seconds as C's %02g writes them: 5 as 05, 59.5 as 59.5. */
    private static String secondsText(double seconds) {
        if (seconds == Math.rint(seconds) && Math.abs(seconds) < 1e15) {
            return twoDigits((long) seconds);
        }
        String s = Double.toString(seconds);
        return seconds >= 0 && seconds < 10 ? "0" + s : s;
    }

    /** The zone of each row's name; the last name's rules are kept, since a column of zones repeats them. */
    private static final class Zones {

        private byte[] lastName;
        private ZoneRules lastRules;

        ZoneRules rules(StringVector names, int r) {
            byte[] data = names.data();
            int from = names.start(r);
            int to = from + names.length(r);
            if (lastName == null || !Arrays.equals(lastName, 0, lastName.length, data, from, to)) {
                String name = new String(data, from, to - from, StandardCharsets.UTF_8);
                try {
                    if (name.isBlank()) {
                        throw new IllegalArgumentException("time zone \"" + name + "\" not recognized");
                    }
                    lastRules = TimeZones.zone(name).getRules();
                } catch (IllegalArgumentException e) {
                    throw new DomainException(e.getMessage());
                }
                lastName = Arrays.copyOfRange(data, from, to);
            }
            return lastRules;
        }
    }
}
